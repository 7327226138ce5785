package dev.kopek.payments;

import dev.kopek.payments.domain.Payment;
import dev.kopek.psp.NextAction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payment as the API shows it. Rendered once per final answer and stored, so a replay is the same bytes;
 * fields always in this order.
 */
public final class PaymentJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private PaymentJson() {}

    public static String render(Payment payment) {
        return JSON.writeValueAsString(fields(payment));
    }

    public static String renderList(List<Payment> payments) {
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("object", "list");
        list.put("data", payments.stream().map(PaymentJson::fields).toList());
        return JSON.writeValueAsString(list);
    }

    private static Map<String, Object> fields(Payment p) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", p.id().toString());
        json.put("object", "payment");
        json.put("reference", p.reference());
        json.put("status", p.requiresAction() ? "requires_action" : p.status().apiName());
        json.put("amount", p.amount().minor());
        json.put("currency", p.amount().currency().code());
        json.put("amount_authorized", p.amounts().authorized());
        json.put("amount_captured", p.amounts().captured());
        json.put("amount_refunded", p.amounts().refunded());
        json.put("amount_capturable", p.amounts().capturable());
        json.put("amount_refund_pending", p.amounts().refundPending());
        json.put("amount_disputed", p.amounts().disputed());
        json.put("capture_method", p.captureMethod());
        json.put(
                "capture_before",
                p.captureBefore() == null ? null : p.captureBefore().toString());
        json.put("payment_method", p.paymentMethod());
        json.put("description", p.description());
        json.put("metadata", p.metadataJson() == null ? Map.of() : metadata(p.metadataJson()));
        json.put("psp_reference", p.pspReference());
        json.put("decline_code", p.declineCode());
        json.put("failure_reason", p.failureReason());
        json.put("next_action", p.requiresAction() ? JSON.readTree(p.nextActionJson()) : null);
        json.put("created_at", p.createdAt().toString());
        json.put("updated_at", p.updatedAt().toString());
        return json;
    }

    /** {@code {"type": …, "redirect_url": …}}: what the customer must do, as stored and shown. */
    static String nextAction(NextAction action) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("type", action.type());
        json.put("redirect_url", action.redirectUrl());
        return JSON.writeValueAsString(json);
    }

    private static JsonNode metadata(String stored) {
        return JSON.readTree(stored);
    }
}
