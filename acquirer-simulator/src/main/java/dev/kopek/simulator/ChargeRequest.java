package dev.kopek.simulator;

import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A validated {@code POST /charges} body. Being a record, it is also the fingerprint the idempotency
 * check compares: two requests are "the same" exactly when all five fields are equal.
 *
 * @param reference optional; {@code null} when absent or JSON null
 * @param capture   {@code false} makes a successful charge an authorization to capture later; default true
 */
record ChargeRequest(long amount, String currency, String paymentMethod, String reference, boolean capture)
        implements Fingerprint {

    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

    /** Parses and validates, so nothing invalid ever gets near the key store. */
    static ChargeRequest parse(byte[] body) {
        JsonNode root = Json.parse(body);
        if (root == null || !root.isObject()) {
            throw new BadRequest("invalid_request", "body must be a JSON object");
        }
        return new ChargeRequest(
                amount(root.get("amount")),
                currency(root.get("currency")),
                paymentMethod(root.get("payment_method")),
                reference(root.get("reference")),
                capture(root.get("capture")));
    }

    static long amount(JsonNode node) {
        // isIntegralNumber rejects 10.0 and 1e3: money travels as whole minor units only.
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() <= 0) {
            throw new BadRequest("invalid_request", "amount must be a positive integer (minor units)");
        }
        return node.longValue();
    }

    private static boolean capture(JsonNode node) {
        if (node == null || node.isNull()) {
            return true;
        }
        if (!node.isBoolean()) {
            throw new BadRequest("invalid_request", "capture must be true or false");
        }
        return node.booleanValue();
    }

    static String currency(JsonNode node) {
        if (node == null
                || !node.isString()
                || !CURRENCY.matcher(node.stringValue()).matches()) {
            throw new BadRequest("invalid_request", "currency must be three upper-case letters");
        }
        return node.stringValue();
    }

    private static String paymentMethod(JsonNode node) {
        if (node == null || !node.isString() || node.stringValue().isBlank()) {
            throw new BadRequest("invalid_request", "payment_method is required");
        }
        return node.stringValue();
    }

    private static String reference(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw new BadRequest("invalid_request", "reference must be a string");
        }
        return node.stringValue();
    }
}
