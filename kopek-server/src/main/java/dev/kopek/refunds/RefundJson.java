package dev.kopek.refunds;

import dev.kopek.refunds.domain.Refund;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The refund as the API shows it, fields always in this order. */
public final class RefundJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RefundJson() {
    }

    public static String render(Refund refund) {
        return JSON.writeValueAsString(fields(refund));
    }

    public static String renderList(List<Refund> refunds) {
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("object", "list");
        list.put("data", refunds.stream().map(RefundJson::fields).toList());
        return JSON.writeValueAsString(list);
    }

    private static Map<String, Object> fields(Refund r) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", r.id().toString());
        json.put("object", "refund");
        json.put("payment_id", r.payment().toString());
        json.put("status", r.status().apiName());
        json.put("amount", r.amount().minor());
        json.put("currency", r.amount().currency().code());
        json.put("reason", r.reason());
        json.put("psp_reference", r.pspReference());
        json.put("failure_reason", r.failureReason());
        json.put("created_at", r.createdAt().toString());
        json.put("updated_at", r.updatedAt().toString());
        return json;
    }
}
