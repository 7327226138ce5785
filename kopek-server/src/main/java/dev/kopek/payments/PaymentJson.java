package dev.kopek.payments;

import dev.kopek.payments.domain.Payment;
import dev.kopek.psp.NextAction;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payment as the API shows it. Rendered once per final answer and stored, so a replay is the same bytes;
 * fields always in this order. Written field by field to one generator: a map of the fields handed to the
 * mapper cost a map, its entries and a serializer lookup per value, several times per payment (the answer, the
 * events), about 2 % of Kopek's CPU on the payment path.
 */
public final class PaymentJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private PaymentJson() {}

    public static String render(Payment payment) {
        StringWriter out = new StringWriter(1024);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            write(json, payment);
        }
        return out.toString();
    }

    public static String renderList(List<Payment> payments) {
        StringWriter out = new StringWriter(256 + 1024 * payments.size());
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringProperty("object", "list");
            json.writeName("data");
            json.writeStartArray();
            for (Payment payment : payments) {
                write(json, payment);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toString();
    }

    private static void write(JsonGenerator json, Payment p) {
        json.writeStartObject();
        json.writeStringProperty("id", p.id().toString());
        json.writeStringProperty("object", "payment");
        text(json, "reference", p.reference());
        json.writeStringProperty(
                "status", p.requiresAction() ? "requires_action" : p.status().apiName());
        json.writeNumberProperty("amount", p.amount().minor());
        json.writeStringProperty("currency", p.amount().currency().code());
        json.writeNumberProperty("amount_authorized", p.amounts().authorized());
        json.writeNumberProperty("amount_captured", p.amounts().captured());
        json.writeNumberProperty("amount_refunded", p.amounts().refunded());
        json.writeNumberProperty("amount_capturable", p.amounts().capturable());
        json.writeNumberProperty("amount_refund_pending", p.amounts().refundPending());
        json.writeNumberProperty("amount_disputed", p.amounts().disputed());
        text(json, "capture_method", p.captureMethod());
        text(
                json,
                "capture_before",
                p.captureBefore() == null ? null : p.captureBefore().toString());
        text(json, "payment_method", p.paymentMethod());
        text(json, "description", p.description());
        json.writeName("metadata");
        if (p.metadataJson() == null) {
            json.writeStartObject();
            json.writeEndObject();
        } else {
            JSON.writeTree(json, JSON.readTree(p.metadataJson()));
        }
        text(json, "psp_reference", p.pspReference());
        text(json, "decline_code", p.declineCode());
        text(json, "failure_reason", p.failureReason());
        json.writeName("next_action");
        if (p.requiresAction()) {
            JSON.writeTree(json, JSON.readTree(p.nextActionJson()));
        } else {
            json.writeNull();
        }
        json.writeStringProperty("created_at", p.createdAt().toString());
        json.writeStringProperty("updated_at", p.updatedAt().toString());
        json.writeEndObject();
    }

    /** A text field that may be absent: written as {@code null}, as every absent field is. */
    private static void text(JsonGenerator json, String name, String value) {
        if (value == null) {
            json.writeNullProperty(name);
        } else {
            json.writeStringProperty(name, value);
        }
    }

    /** {@code {"type": …, "redirect_url": …}}: what the customer must do, as stored and shown. */
    static String nextAction(NextAction action) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("type", action.type());
        json.put("redirect_url", action.redirectUrl());
        return JSON.writeValueAsString(json);
    }
}
