package dev.kopek.refunds;

import dev.kopek.money.RefundId;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.PaymentOperation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The refund as the API shows it, fields always in this order. */
public final class RefundJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RefundJson() {}

    public static String render(PaymentOperation refund) {
        return JSON.writeValueAsString(fields(refund));
    }

    public static String renderList(List<PaymentOperation> refunds) {
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("object", "list");
        list.put("data", refunds.stream().map(RefundJson::fields).toList());
        return JSON.writeValueAsString(list);
    }

    private static Map<String, Object> fields(PaymentOperation r) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", new RefundId(r.id()).toString());
        json.put("object", "refund");
        json.put("payment_id", r.payment().toString());
        // a refund whose outcome is not known yet is pending to the merchant
        json.put(
                "status",
                r.status() == OperationStatus.UNKNOWN ? "pending" : r.status().apiName());
        json.put("amount", r.amount());
        json.put("currency", r.currency().code());
        json.put("reason", r.reason());
        json.put("psp_reference", r.pspReference());
        json.put("failure_reason", r.failureReason());
        json.put("created_at", r.createdAt().toString());
        json.put("updated_at", r.updatedAt().toString());
        return json;
    }
}
