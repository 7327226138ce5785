package dev.kopek.simulator;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
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

    private Json() {}

    /** Parses a request body; any syntax error is the client's, so it becomes a 400. */
    static JsonNode parse(byte[] body) {
        try {
            return MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw new BadRequest("invalid_request", "body is not valid JSON");
        }
    }

    /** A body that must be a JSON object, where an empty body counts as {@code {}}. */
    static JsonNode parseObjectOrEmpty(byte[] body) {
        if (new String(body, StandardCharsets.UTF_8).isBlank()) {
            return MAPPER.createObjectNode();
        }
        JsonNode root = parse(body);
        if (root == null || !root.isObject()) {
            throw new BadRequest("invalid_request", "body must be a JSON object");
        }
        return root;
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

    static Answer.Reply reply(int status, JsonNode node) {
        return new Answer.Reply(status, MAPPER.writeValueAsBytes(node));
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** The body a client gets for a charge captured when made or declined, and later its replay and lookup. */
    static ObjectNode chargeNode(ChargeRecord charge) {
        ObjectNode node = MAPPER.createObjectNode().put("id", charge.id()).put("status", charge.status());
        if (charge.declineCode() != null) {
            node.put("decline_code", charge.declineCode());
        }
        return node.put("amount", charge.amount())
                .put("currency", charge.currency())
                .put("payment_method", charge.paymentMethod())
                .put("reference", charge.reference())
                .put("idempotency_key", charge.idempotencyKey())
                .put("created_at", charge.createdAt().toString());
    }

    /** The body of a successful {@code "capture": false} charge. */
    static ObjectNode authorizationNode(ChargeRecord charge, long capturable, Instant expiresAt) {
        return MAPPER.createObjectNode()
                .put("id", charge.id())
                .put("status", charge.status())
                .put("amount", charge.amount())
                .put("amount_capturable", capturable)
                .put("currency", charge.currency())
                .put("payment_method", charge.paymentMethod())
                .put("reference", charge.reference())
                .put("idempotency_key", charge.idempotencyKey())
                .put("created_at", charge.createdAt().toString())
                .put("expires_at", expiresAt.toString());
    }

    /** The 202 body of an asynchronous charge whose outcome a webhook will announce. */
    static ObjectNode processingNode(String id, String key, ChargeRequest request, Instant createdAt) {
        return MAPPER.createObjectNode()
                .put("id", id)
                .put("status", "processing")
                .put("amount", request.amount())
                .put("currency", request.currency())
                .put("payment_method", request.paymentMethod())
                .put("reference", request.reference())
                .put("idempotency_key", key)
                .put("created_at", createdAt.toString());
    }

    /** {@code GET /charges/{id}}: the charge as it stands now. */
    static ObjectNode chargeStateNode(ChargeAccount.View view) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("id", view.id())
                .put("object", "charge")
                .put("status", view.status());
        if (view.declineCode() != null) {
            node.put("decline_code", view.declineCode());
        }
        node.put("amount", view.amount())
                .put("amount_capturable", view.amountCapturable())
                .put("amount_captured", view.amountCaptured())
                .put("amount_refunded", view.amountRefunded())
                .put("currency", view.currency())
                .put("payment_method", view.paymentMethod())
                .put("reference", view.reference())
                .put("idempotency_key", view.idempotencyKey())
                .put("created_at", view.createdAt().toString())
                .put(
                        "expires_at",
                        view.expiresAt() == null ? null : view.expiresAt().toString())
                .put("voided", view.voided());
        node.set("dispute", view.dispute() == null ? MAPPER.nullNode() : disputeNode(view.dispute()));
        return node;
    }

    static ObjectNode captureNode(
            String id,
            ChargeAccount account,
            long amount,
            String status,
            String declineCode,
            long capturable,
            boolean last,
            String key,
            Instant createdAt) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("id", id)
                .put("object", "capture")
                .put("charge_id", account.id())
                .put("amount", amount)
                .put("currency", account.currency())
                .put("status", status);
        if (declineCode != null) {
            node.put("decline_code", declineCode);
        }
        return node.put("amount_capturable", capturable)
                .put("final", last)
                .put("idempotency_key", key)
                .put("created_at", createdAt.toString());
    }

    static ObjectNode voidNode(
            String id,
            ChargeAccount account,
            String status,
            String declineCode,
            long released,
            String key,
            Instant createdAt) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("id", id)
                .put("object", "void")
                .put("charge_id", account.id())
                .put("status", status);
        if (declineCode != null) {
            node.put("decline_code", declineCode);
        }
        return node.put("amount_released", released)
                .put("currency", account.currency())
                .put("idempotency_key", key)
                .put("created_at", createdAt.toString());
    }

    static ObjectNode refundNode(
            String id,
            ChargeAccount account,
            long amount,
            String status,
            String declineCode,
            String key,
            Instant createdAt) {
        ObjectNode node = MAPPER.createObjectNode()
                .put("id", id)
                .put("object", "refund")
                .put("charge_id", account.id())
                .put("amount", amount)
                .put("currency", account.currency())
                .put("status", status);
        if (declineCode != null) {
            node.put("decline_code", declineCode);
        }
        return node.put("idempotency_key", key).put("created_at", createdAt.toString());
    }

    static ObjectNode disputeNode(Dispute dispute) {
        return MAPPER.createObjectNode()
                .put("id", dispute.id())
                .put("object", "dispute")
                .put("charge_id", dispute.chargeId())
                .put("amount", dispute.amount())
                .put("currency", dispute.currency())
                .put("reason", dispute.reason())
                .put("status", dispute.status())
                .put("idempotency_key", (String) null)
                .put("created_at", dispute.createdAt().toString());
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

    static ArrayNode movements(Collection<MovementRecord> movements) {
        ArrayNode array = MAPPER.createArrayNode();
        for (MovementRecord m : movements) {
            array.addObject()
                    .put("id", m.id())
                    .put("charge_id", m.chargeId())
                    .put("type", m.type())
                    .put("amount", m.amount())
                    .put("currency", m.currency())
                    .put("idempotency_key", m.idempotencyKey())
                    .put("status", m.status())
                    .put("created_at", m.createdAt().toString());
        }
        return array;
    }

    static ObjectNode webhooks(Collection<WebhookEvent> events, Collection<WebhookDelivery> deliveries) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode eventArray = root.putArray("events");
        for (WebhookEvent event : events) {
            ObjectNode node = eventArray
                    .addObject()
                    .put("id", event.id())
                    .put("type", event.type())
                    .put("charge_id", event.chargeId())
                    .put("created_at", event.created().toString());
            node.set("payload", MAPPER.readTree(event.payload()));
        }
        ArrayNode deliveryArray = root.putArray("deliveries");
        for (WebhookDelivery d : deliveries) {
            deliveryArray
                    .addObject()
                    .put("event_id", d.eventId())
                    .put("type", d.type())
                    .put("copy", d.copy())
                    .put("attempt", d.attempt())
                    .put("status", d.status())
                    .put("error", d.error())
                    .put("delivered", d.delivered())
                    .put("signature", d.signature())
                    .put("sent_at", d.sentAt().toString());
        }
        return root;
    }

    static ObjectNode config(SimulatorConfig config) {
        WebhookSettings webhooks = config.webhooks();
        return MAPPER.createObjectNode()
                .put(ConfigPatch.LATENCY_MIN, config.latencyMinMillis())
                .put(ConfigPatch.LATENCY_MAX, config.latencyMaxMillis())
                .put(ConfigPatch.SLOW_MIN, config.slowMinMillis())
                .put(ConfigPatch.SLOW_MAX, config.slowMaxMillis())
                .put(ConfigPatch.TIMEOUT_HANG, config.timeoutHangMillis())
                .put(ConfigPatch.KEY_WINDOW, config.keyWindowSeconds())
                .put(ConfigPatch.FAIL_BEFORE, config.failBeforeChargeRate())
                .put(ConfigPatch.FAIL_AFTER, config.failAfterChargeRate())
                .put(ConfigPatch.TIMEOUT_AFTER, config.timeoutAfterChargeRate())
                .put(ConfigPatch.AUTHORIZATION_TTL, config.authorizationTtlSeconds())
                .put(ConfigPatch.FEE_BPS, config.feeBps())
                .put(
                        ConfigPatch.WEBHOOK_URL,
                        webhooks.url() == null ? null : webhooks.url().toString())
                .put(ConfigPatch.WEBHOOK_SECRET, webhooks.secret())
                .put(ConfigPatch.WEBHOOK_DUPLICATE_RATE, webhooks.duplicateRate())
                .put(ConfigPatch.WEBHOOK_DELAY, webhooks.delayMillis())
                .put(ConfigPatch.WEBHOOK_REORDER, webhooks.reorder())
                .put(ConfigPatch.WEBHOOK_RETRY_FOR, webhooks.retryForMillis());
    }

    static byte[] bytes(ObjectNode node) {
        return MAPPER.writeValueAsBytes(node);
    }

    static String string(JsonNode node) {
        return MAPPER.writeValueAsString(node);
    }
}
