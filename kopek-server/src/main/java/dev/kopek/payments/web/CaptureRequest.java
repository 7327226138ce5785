package dev.kopek.payments.web;

import dev.kopek.platform.Amounts;
import dev.kopek.platform.ApiProblem;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code {amount?, final?}}: no amount captures everything that remains. */
record CaptureRequest(Long amount, boolean finalCapture) {

    private static final Set<String> FIELDS = Set.of("amount", "final");

    static CaptureRequest parse(ObjectNode body, long maxAmountMinor) {
        body.propertyNames().stream()
                .filter(name -> !FIELDS.contains(name))
                .findFirst()
                .ifPresent(name -> {
                    throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'.");
                });
        return new CaptureRequest(
                Amounts.parse(body.get("amount"), "amount", maxAmountMinor, false), finalFlag(body.get("final")));
    }

    private static boolean finalFlag(JsonNode node) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw ApiProblem.badRequest("invalid_final", "final", "final must be true or false.");
        }
        return node.booleanValue();
    }
}
