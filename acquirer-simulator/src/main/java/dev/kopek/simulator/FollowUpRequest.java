package dev.kopek.simulator;

import tools.jackson.databind.JsonNode;

/** A validated body of an operation on an existing charge: a capture, a void or a refund. */
sealed interface FollowUpRequest extends Fingerprint
        permits FollowUpRequest.Capture, FollowUpRequest.VoidAuthorization, FollowUpRequest.Refund {

    String chargeId();

    /**
     * {@code POST /charges/{id}/captures}.
     *
     * @param amount      null means everything still capturable
     * @param last        {@code "final": true}: release whatever this capture leaves
     */
    record Capture(String chargeId, Long amount, boolean last) implements FollowUpRequest {
        static Capture parse(String chargeId, byte[] body) {
            JsonNode root = Json.parseObjectOrEmpty(body);
            return new Capture(chargeId, optionalAmount(root.get("amount")), flag(root.get("final"), "final"));
        }
    }

    /** {@code POST /charges/{id}/void}; the body is empty or {@code {}}. */
    record VoidAuthorization(String chargeId) implements FollowUpRequest {
        static VoidAuthorization parse(String chargeId, byte[] body) {
            Json.parseObjectOrEmpty(body);
            return new VoidAuthorization(chargeId);
        }
    }

    /**
     * {@code POST /refunds}.
     *
     * @param amount null means everything still refundable
     */
    record Refund(String chargeId, Long amount) implements FollowUpRequest {
        static Refund parse(byte[] body) {
            JsonNode root = Json.parseObjectOrEmpty(body);
            JsonNode chargeId = root.get("charge_id");
            if (chargeId == null
                    || !chargeId.isString()
                    || chargeId.stringValue().isBlank()) {
                throw new BadRequest("invalid_request", "charge_id is required");
            }
            return new Refund(chargeId.stringValue(), optionalAmount(root.get("amount")));
        }
    }

    private static Long optionalAmount(JsonNode node) {
        return node == null || node.isNull() ? null : ChargeRequest.amount(node);
    }

    private static boolean flag(JsonNode node, String name) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw new BadRequest("invalid_request", name + " must be true or false");
        }
        return node.booleanValue();
    }
}
