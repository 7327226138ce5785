package dev.kopek.simulator;

import java.util.Collection;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every JSON shape the simulator writes, in one place so field names stay snake_case and consistent.
 * Nodes are built by hand rather than bound from records: the wire shape is the contract, and an
 * explicit field order keeps replays and docs easy to compare.
 */
final class Json {
    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Json() {
    }

    /** Parses a request body; any syntax error is the client's, so it becomes a 400. */
    static JsonNode parse(byte[] body) {
        try {
            return MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw new BadRequest("invalid_request", "body is not valid JSON");
        }
    }

    static Answer.Reply error(int status, String code) {
        ObjectNode node = MAPPER.createObjectNode().put("error", code);
        return new Answer.Reply(status, bytes(node));
    }

    static Answer.Reply error(int status, String code, String message) {
        ObjectNode node = MAPPER.createObjectNode().put("error", code).put("message", message);
        return new Answer.Reply(status, bytes(node));
    }

    static Answer.Reply ok(ObjectNode node) {
        return new Answer.Reply(200, bytes(node));
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** The body a client gets for a charge, and later its replay and its lookup. */
    static byte[] chargeBody(ChargeRecord charge) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("id", charge.id())
                .put("status", charge.status());
        if (charge.declineCode() != null) {
            node.put("decline_code", charge.declineCode());
        }
        node.put("amount", charge.amount())
                .put("currency", charge.currency())
                .put("payment_method", charge.paymentMethod())
                .put("reference", charge.reference())
                .put("idempotency_key", charge.idempotencyKey())
                .put("created_at", charge.createdAt().toString());
        return bytes(node);
    }

    /** The admin view of the ledger: every field, always present, so scripts need no special cases. */
    static byte[] chargeRecords(Collection<ChargeRecord> charges) {
        ArrayNode array = MAPPER.createArrayNode();
        for (ChargeRecord charge : charges) {
            array.addObject()
                    .put("id", charge.id())
                    .put("idempotency_key", charge.idempotencyKey())
                    .put("amount", charge.amount())
                    .put("currency", charge.currency())
                    .put("payment_method", charge.paymentMethod())
                    .put("reference", charge.reference())
                    .put("status", charge.status())
                    .put("decline_code", charge.declineCode())
                    .put("created_at", charge.createdAt().toString());
        }
        return MAPPER.writeValueAsBytes(array);
    }

    static ObjectNode config(SimulatorConfig config) {
        return MAPPER.createObjectNode()
                .put(ConfigPatch.LATENCY_MIN, config.latencyMinMillis())
                .put(ConfigPatch.LATENCY_MAX, config.latencyMaxMillis())
                .put(ConfigPatch.SLOW_MIN, config.slowMinMillis())
                .put(ConfigPatch.SLOW_MAX, config.slowMaxMillis())
                .put(ConfigPatch.TIMEOUT_HANG, config.timeoutHangMillis())
                .put(ConfigPatch.KEY_WINDOW, config.keyWindowSeconds())
                .put(ConfigPatch.FAIL_BEFORE, config.failBeforeChargeRate())
                .put(ConfigPatch.FAIL_AFTER, config.failAfterChargeRate())
                .put(ConfigPatch.TIMEOUT_AFTER, config.timeoutAfterChargeRate());
    }

    static byte[] bytes(ObjectNode node) {
        return MAPPER.writeValueAsBytes(node);
    }
}
