package dev.kopek.client;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * {@code POST /v1/payments}: the intent ({@code reference}, one per order), the amount in minor units, an ISO 4217
 * currency and a PSP token as {@code paymentMethod} (never a card number). Optional parts with the withers.
 */
public record NewPayment(
        String reference,
        long amount,
        String currency,
        String paymentMethod,
        boolean manualCapture,
        String description,
        Map<String, String> metadata) {

    public NewPayment {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(paymentMethod, "paymentMethod");
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    public static NewPayment of(String reference, long amount, String currency, String paymentMethod) {
        return new NewPayment(reference, amount, currency, paymentMethod, false, null, Map.of());
    }

    /** Authorize only; capture later with {@link KopekClient#capture}. */
    public NewPayment withManualCapture() {
        return new NewPayment(reference, amount, currency, paymentMethod, true, description, metadata);
    }

    public NewPayment withDescription(String text) {
        return new NewPayment(reference, amount, currency, paymentMethod, manualCapture, text, metadata);
    }

    public NewPayment withMetadata(Map<String, String> values) {
        return new NewPayment(reference, amount, currency, paymentMethod, manualCapture, description, values);
    }

    Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("reference", reference);
        body.put("amount", amount);
        body.put("currency", currency);
        body.put("payment_method", paymentMethod);
        body.put("capture_method", manualCapture ? "manual" : "automatic");
        if (description != null) {
            body.put("description", description);
        }
        if (!metadata.isEmpty()) {
            body.put("metadata", metadata);
        }
        return body;
    }
}
