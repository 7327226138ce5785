package dev.kopek.platform;

import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Reads every client amount the same way: a JSON integer in minor units, positive, and no larger than the
 * configured maximum ({@code kopek.payments.max-amount-minor}). The bound is what keeps every sum Kopek forms
 * from an amount (captured plus pending plus this capture, refunded plus reserved plus this refund) far from
 * overflowing a {@code BIGINT}, whichever route the amount came in by.
 */
public final class Amounts {

    private Amounts() {}

    /** The amount in {@code field}, or null when it is absent and {@code required} is false. */
    public static Long parse(JsonNode node, String field, long maxMinor, boolean required) {
        if (node == null || node.isNull()) {
            if (required) {
                throw ApiProblem.badRequest("missing_field", field, field + " is required.");
            }
            return null;
        }
        if (!node.isIntegralNumber()) {
            throw ApiProblem.badRequest(
                    "invalid_amount",
                    field,
                    field + " must be a JSON integer in minor units (499000 for 4990.00 RUB), not a "
                            + (node.isNumber()
                                    ? "fraction"
                                    : node.getNodeType().name().toLowerCase(Locale.ROOT)) + ".");
        }
        if (!node.canConvertToLong() || node.longValue() > maxMinor) {
            throw ApiProblem.badRequest(
                    "amount_too_large", field, field + " must not exceed " + maxMinor + " minor units.");
        }
        if (node.longValue() <= 0) {
            throw ApiProblem.badRequest("invalid_amount", field, field + " must be positive.");
        }
        return node.longValue();
    }
}
