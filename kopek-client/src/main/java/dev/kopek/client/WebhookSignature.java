package dev.kopek.client;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Kopek's webhook signature, for senders and receivers alike; plain JDK, no framework. Kopek signs with this
 * class, so a merchant that verifies with it checks exactly what was signed.
 *
 * <p>{@code Kopek-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>}. A receiver checks
 * it over the raw body bytes, before parsing, and refuses a timestamp more than five minutes from its own clock,
 * so a captured request cannot be replayed later. Several {@code v1} entries may appear (during a secret
 * rotation); one match is enough. Comparison is constant-time.
 */
public final class WebhookSignature {

    public static final String HEADER = "Kopek-Signature";
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);
    private static final int MAX_HEADER = 4096;

    private WebhookSignature() {}

    public enum Verdict {
        VALID,
        /** No header, or not {@code t=…,v1=…}. */
        MALFORMED,
        /** Signed longer ago (or further ahead) than the tolerance: possibly a replay. */
        TIMESTAMP_OUTSIDE_TOLERANCE,
        /** Wrong secret, or the body was changed. */
        MISMATCH;

        public boolean valid() {
            return this == VALID;
        }
    }

    /** The header value for {@code body} signed at {@code unixSeconds}. */
    public static String header(String secret, long unixSeconds, byte[] body) {
        return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(mac(secret, unixSeconds, body));
    }

    public static String header(String secret, long unixSeconds, String body) {
        return header(secret, unixSeconds, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Verifies with the default five-minute tolerance. */
    public static Verdict verify(String secret, String header, byte[] body, Instant now) {
        return verify(secret, header, body, now, DEFAULT_TOLERANCE);
    }

    public static Verdict verify(String secret, String header, String body, Instant now) {
        return verify(secret, header, body.getBytes(StandardCharsets.UTF_8), now, DEFAULT_TOLERANCE);
    }

    public static Verdict verify(String secret, String header, byte[] body, Instant now, Duration tolerance) {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(body, "body");
        if (header == null || header.length() > MAX_HEADER) {
            return Verdict.MALFORMED;
        }
        Long timestamp = null;
        List<byte[]> signatures = new ArrayList<>();
        for (String part : header.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                return Verdict.MALFORMED;
            }
            String name = part.substring(0, eq).strip();
            String value = part.substring(eq + 1).strip();
            try {
                if (name.equals("t")) {
                    timestamp = Long.parseLong(value);
                } else if (name.equals("v1")) {
                    signatures.add(HexFormat.of().parseHex(value));
                }
            } catch (IllegalArgumentException malformed) {
                return Verdict.MALFORMED;
            }
        }
        if (timestamp == null || signatures.isEmpty()) {
            return Verdict.MALFORMED;
        }
        // Compared without subtracting, so a timestamp near Long.MIN_VALUE cannot overflow into "recent".
        long nowSeconds = now.getEpochSecond();
        long toleranceSeconds = tolerance.toSeconds();
        if (timestamp < nowSeconds - toleranceSeconds || timestamp > nowSeconds + toleranceSeconds) {
            return Verdict.TIMESTAMP_OUTSIDE_TOLERANCE;
        }
        byte[] expected = mac(secret, timestamp, body);
        boolean match = false;
        for (byte[] candidate : signatures) {
            match |= MessageDigest.isEqual(expected, candidate);
        }
        return match ? Verdict.VALID : Verdict.MISMATCH;
    }

    private static byte[] mac(String secret, long unixSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((unixSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }
}
