package dev.kopek.psp.simulator;

import dev.kopek.platform.InputText;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.NotificationSignature;
import dev.kopek.psp.PspNotification;
import java.time.Duration;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * The simulator's signed notifications: {@code Simulator-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret,
 * t + "." + body)>}, checked by the one {@link NotificationSignature} (constant time, signature before timestamp, a
 * timestamp outside the tolerance refused so a captured notification cannot be replayed), then read here.
 */
final class SimulatorNotifications {

    static final String HEADER = "Simulator-Signature";
    /** 9999-12-31T23:59:59Z: beyond it {@code Instant} and PostgreSQL part ways. */
    private static final long MAX_EPOCH_SECOND = 253_402_300_799L;

    private SimulatorNotifications() {}

    static NotificationSignature.Scheme scheme(Duration tolerance) {
        return new NotificationSignature.Scheme(
                HEADER, "v1", NotificationSignature.SignedPayload.TIMESTAMP_DOT_BODY, tolerance);
    }

    static NotificationCheck read(String body) {
        JsonNode json = SimulatorResponses.parse(body);
        var control = InputText.firstControl(json);
        if (control.isPresent()) {
            return new NotificationCheck.Malformed(control.get(), "contains a control character");
        }
        JsonNode created = json.get("created");
        if (created != null
                && !created.isNull()
                && !(created.isIntegralNumber()
                        && created.canConvertToLong()
                        && created.longValue() >= 0
                        && created.longValue() <= MAX_EPOCH_SECOND)) {
            return new NotificationCheck.Malformed("created", "is not a Unix time in seconds between 1970 and 9999");
        }
        JsonNode data = json.get("data");
        String id = text(json, "id");
        String type = text(json, "type");
        if (id == null || type == null || data == null || !data.isObject() || text(data, "id") == null) {
            return new NotificationCheck.Invalid("notification without id, type or data");
        }
        String chargeId = type.startsWith("charge.") ? text(data, "id") : text(data, "charge_id");
        JsonNode amount = data.get("amount");
        return new NotificationCheck.Valid(new PspNotification(
                id,
                type,
                text(data, "id"),
                chargeId,
                text(data, "idempotency_key"),
                amount != null && amount.canConvertToLong() ? amount.longValue() : 0,
                text(data, "currency"),
                text(data, "reason"),
                outcome(type, data),
                created != null && created.canConvertToLong() ? Instant.ofEpochSecond(created.longValue()) : null,
                body));
    }

    private static ChargeOutcome outcome(String type, JsonNode data) {
        return switch (type.substring(type.indexOf('.') + 1)) {
            case "succeeded", "authorized" -> SimulatorResponses.fromChargeBody(data, 200);
            case "declined" ->
                new ChargeOutcome.Declined(
                        text(data, "decline_code") == null ? "declined" : text(data, "decline_code"), text(data, "id"));
            default -> new ChargeOutcome.Unknown("notification " + type + " carries no operation outcome");
        };
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json.get(field);
        return value != null && value.isString() ? value.stringValue() : null;
    }
}
