package dev.kopek.payments.web;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.Money;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.platform.Amounts;
import dev.kopek.platform.ApiProblem;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a JSON object into a {@link PaymentRequest} or refuses it with one precise problem. Nothing is stored
 * before this has passed, so a refused request changes nothing. Control characters and card data in any field
 * were already refused while the body was read ({@code InputText}); lengths here match the columns.
 */
final class PaymentRequestParser {

    static final int MAX_REFERENCE = 64;
    static final int MAX_DESCRIPTION = 1000;
    static final int MAX_METADATA_KEYS = 20;
    static final int MAX_METADATA_KEY = 40;
    static final int MAX_METADATA_VALUE = 500;
    private static final Set<String> FIELDS =
            Set.of("reference", "amount", "currency", "payment_method", "capture_method", "description", "metadata");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_\\- ]{1,128}");

    private final long maxAmountMinor;

    PaymentRequestParser(long maxAmountMinor) {
        this.maxAmountMinor = maxAmountMinor;
    }

    PaymentRequest parse(ObjectNode body) {
        for (String name : body.propertyNames()) {
            if (!FIELDS.contains(name)) {
                throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'.");
            }
        }
        String reference = requiredText(body, "reference");
        if (reference.isEmpty() || reference.length() > MAX_REFERENCE) {
            throw ApiProblem.badRequest(
                    "invalid_reference",
                    "reference",
                    "reference must be 1–" + MAX_REFERENCE + " characters without control characters.");
        }
        CurrencyCode currency = CurrencyCode.parse(requiredText(body, "currency"))
                .orElseThrow(() -> ApiProblem.badRequest(
                        "invalid_currency",
                        "currency",
                        "currency must be an ISO 4217 code with a known minor unit, such as EUR or JPY."));
        long amount = amount(body.get("amount"));
        String method = paymentMethod(requiredText(body, "payment_method"));
        String capture = captureMethod(body.get("capture_method"));
        String description = description(body.get("description"));
        SortedMap<String, String> metadata = metadata(body.get("metadata"));
        return new PaymentRequest(reference, new Money(amount, currency), method, capture, description, metadata);
    }

    private long amount(JsonNode node) {
        return Amounts.parse(node, "amount", maxAmountMinor, true);
    }

    private static String paymentMethod(String method) {
        if (!TOKEN.matcher(method).matches() || method.isBlank()) {
            throw ApiProblem.badRequest(
                    "invalid_payment_method",
                    "payment_method",
                    "payment_method must be a PSP token of 1–128 letters, digits, '_' or '-'.");
        }
        return method;
    }

    private static String captureMethod(JsonNode node) {
        if (node == null || node.isNull()) {
            return "automatic";
        }
        if (!node.isString()
                || !(node.stringValue().equals("automatic")
                        || node.stringValue().equals("manual"))) {
            throw ApiProblem.badRequest(
                    "invalid_capture_method",
                    "capture_method",
                    "capture_method is 'automatic' (charge now) or 'manual' (authorize now, capture later).");
        }
        return node.stringValue();
    }

    private static String description(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString() || node.stringValue().length() > MAX_DESCRIPTION) {
            throw ApiProblem.badRequest(
                    "invalid_description",
                    "description",
                    "description must be a string of at most " + MAX_DESCRIPTION + " characters.");
        }
        return node.stringValue();
    }

    private static SortedMap<String, String> metadata(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject() || node.size() > MAX_METADATA_KEYS) {
            throw ApiProblem.badRequest(
                    "invalid_metadata",
                    "metadata",
                    "metadata must be an object of at most " + MAX_METADATA_KEYS + " string values.");
        }
        SortedMap<String, String> metadata = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String key = entry.getKey();
            JsonNode value = entry.getValue();
            if (key.isEmpty()
                    || key.length() > MAX_METADATA_KEY
                    || !value.isString()
                    || value.stringValue().length() > MAX_METADATA_VALUE) {
                throw ApiProblem.badRequest(
                        "invalid_metadata",
                        "metadata." + key,
                        "metadata keys are 1–" + MAX_METADATA_KEY + " characters and values strings of at most "
                                + MAX_METADATA_VALUE + " characters.");
            }
            metadata.put(key, value.stringValue());
        }
        return metadata;
    }

    private static String requiredText(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            throw ApiProblem.badRequest("missing_field", field, field + " is required.");
        }
        if (!node.isString()) {
            throw ApiProblem.badRequest("invalid_" + field, field, field + " must be a string.");
        }
        return node.stringValue();
    }
}
