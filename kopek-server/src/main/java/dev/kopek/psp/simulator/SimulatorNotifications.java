package dev.kopek.psp.simulator;

import dev.kopek.platform.InputText;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.PspNotification;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.JsonNode;

/**
 * The simulator's signed notifications: {@code Simulator-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret,
 * t + "." + body)>}. The signature is checked first, in constant time, and a timestamp outside the tolerance is
 * refused, so a captured old notification cannot be replayed.
 */
final class SimulatorNotifications {

    static final String HEADER = "Simulator-Signature";
    private static final int MAX_HEADER = 512;
    /** 9999-12-31T23:59:59Z: beyond it {@code Instant} and PostgreSQL part ways. */
    private static final long MAX_EPOCH_SECOND = 253_402_300_799L;

    private final byte[] secret;
    private final Duration tolerance;
    private final Clock clock;

    SimulatorNotifications(String secret, Duration tolerance, Clock clock) {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        this.tolerance = tolerance;
        this.clock = clock;
    }

    NotificationCheck verify(String header, String body) {
        if (header == null || header.length() > MAX_HEADER) {
            return new NotificationCheck.Invalid("missing signature");
        }
        String t = null;
        String v1 = null;
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length == 2 && kv[0].equals("t")) {
                t = kv[1];
            } else if (kv.length == 2 && kv[0].equals("v1")) {
                v1 = kv[1];
            }
        }
        if (t == null || v1 == null || !t.matches("\\d{1,12}")) {
            return new NotificationCheck.Invalid("malformed signature");
        }
        byte[] expected = hmac(t + "." + body);
        byte[] given;
        try {
            given = HexFormat.of().parseHex(v1);
        } catch (IllegalArgumentException e) {
            return new NotificationCheck.Invalid("malformed signature");
        }
        if (!MessageDigest.isEqual(expected, given)) {
            return new NotificationCheck.Invalid("signature does not match");
        }
        Instant signedAt = Instant.ofEpochSecond(Long.parseLong(t));
        if (Duration.between(signedAt, clock.instant()).abs().compareTo(tolerance) > 0) {
            return new NotificationCheck.Invalid(
                    "signature timestamp outside the " + tolerance.toMinutes() + "-minute tolerance");
        }
        return read(body);
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

    private byte[] hmac(String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(signed.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is always available", e);
        }
    }
}
