package dev.kopek.psp;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The one check of a PSP notification's signature, before anything is read from its body: a header of the form
 * {@code t=<unix seconds>,<key>=<hex HMAC-SHA256(secret, signed payload)>[,<key>=…]}. Security code written once:
 * the simulator's and Stripe's schemes differ only in their {@link Scheme} (header, signature key, how the signed
 * payload is built, tolerance), so a fix to the parsing, the comparison or the replay window reaches both.
 *
 * <p>Every configured secret is tried against every signature (a secret being rolled and its successor both sign
 * during the roll), each comparison in constant time and all of them made, so the time taken says nothing about
 * which part matched. The signature is checked before the timestamp, and a timestamp further from now than the
 * tolerance is refused, so a captured notification cannot be replayed later; a replay inside the tolerance carries
 * the same event id, which the notification inbox deduplicates. Each refusal says which rule refused.
 */
public final class NotificationSignature {

    /** Longer than any honest header: a timestamp and {@link #MAX_SIGNATURES} signatures of 64 hex digits. */
    static final int MAX_HEADER = 1024;
    /** More than any PSP sends at once (one per secret being rolled). */
    static final int MAX_SIGNATURES = 8;

    private static final String ALGORITHM = "HmacSHA256";
    private static final String TIMESTAMP = "t";

    /**
     * How one PSP signs.
     *
     * @param header the HTTP header that carries the signature
     * @param signatureKey the key of each signature entry in the header ({@code v1})
     * @param payload the bytes signed, from the header's timestamp and the raw body
     * @param tolerance how far the signed timestamp may be from now, either way
     */
    public record Scheme(String header, String signatureKey, SignedPayload payload, Duration tolerance) {

        public Scheme {
            Objects.requireNonNull(header, "header");
            Objects.requireNonNull(signatureKey, "signatureKey");
            Objects.requireNonNull(payload, "payload");
            if (tolerance.isNegative() || tolerance.isZero()) {
                throw new IllegalArgumentException("a signature tolerance must be positive");
            }
        }
    }

    /** Builds the signed bytes from the header's timestamp (as sent) and the raw body. */
    @FunctionalInterface
    public interface SignedPayload {

        /** {@code t + "." + body}, as Stripe and the simulator sign. */
        SignedPayload TIMESTAMP_DOT_BODY = (timestamp, body) -> timestamp + "." + body;

        String of(String timestamp, String body);
    }

    private final Scheme scheme;
    private final List<byte[]> secrets;
    private final Clock clock;

    public NotificationSignature(Scheme scheme, List<String> secrets, Clock clock) {
        this.scheme = scheme;
        // An empty secret signs nothing (and HMAC refuses an empty key): an account without one verifies nothing.
        this.secrets = secrets.stream()
                .filter(s -> !s.isEmpty())
                .map(s -> s.getBytes(StandardCharsets.UTF_8))
                .toList();
        this.clock = clock;
    }

    public String header() {
        return scheme.header();
    }

    /** Refuses a notification whose signature fails; otherwise reads the body with {@code read}. */
    public NotificationCheck verify(String header, String body, Function<String, NotificationCheck> read) {
        if (secrets.isEmpty()) {
            return new NotificationCheck.Invalid("no signing secret is configured for this PSP account");
        }
        if (header == null || header.isBlank()) {
            return new NotificationCheck.Invalid("missing signature: no " + scheme.header() + " header");
        }
        if (header.length() > MAX_HEADER) {
            return new NotificationCheck.Invalid("malformed signature: longer than " + MAX_HEADER + " characters");
        }
        String timestamp = null;
        List<byte[]> given = new ArrayList<>();
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length != 2) {
                continue;
            }
            if (kv[0].equals(TIMESTAMP)) {
                if (timestamp != null) {
                    return new NotificationCheck.Invalid("malformed signature: more than one timestamp");
                }
                timestamp = kv[1];
            } else if (kv[0].equals(scheme.signatureKey())) {
                if (given.size() == MAX_SIGNATURES) {
                    return new NotificationCheck.Invalid(
                            "malformed signature: more than " + MAX_SIGNATURES + " signatures");
                }
                try {
                    given.add(HexFormat.of().parseHex(kv[1]));
                } catch (IllegalArgumentException e) {
                    return new NotificationCheck.Invalid("malformed signature: a signature is not hexadecimal");
                }
            }
        }
        if (timestamp == null || !timestamp.matches("\\d{1,12}")) {
            return new NotificationCheck.Invalid("malformed signature: no timestamp of 1 to 12 digits");
        }
        if (given.isEmpty()) {
            return new NotificationCheck.Invalid("malformed signature: no " + scheme.signatureKey() + " signature");
        }
        if (!anyMatches(scheme.payload().of(timestamp, body), given)) {
            return new NotificationCheck.Invalid("signature does not match");
        }
        Instant signedAt = Instant.ofEpochSecond(Long.parseLong(timestamp));
        if (Duration.between(signedAt, clock.instant()).abs().compareTo(scheme.tolerance()) > 0) {
            return new NotificationCheck.Invalid("signature timestamp more than "
                    + scheme.tolerance().toSeconds() + " seconds from now: a replay or a wrong clock");
        }
        return read.apply(body);
    }

    /** The header value for {@code body} signed with {@code secret} at {@code epochSecond}; for tests and kits. */
    public static String sign(Scheme scheme, String secret, long epochSecond, String body) {
        String timestamp = Long.toString(epochSecond);
        byte[] mac =
                hmac(secret.getBytes(StandardCharsets.UTF_8), scheme.payload().of(timestamp, body));
        return TIMESTAMP + "=" + timestamp + "," + scheme.signatureKey() + "="
                + HexFormat.of().formatHex(mac);
    }

    private boolean anyMatches(String signed, List<byte[]> given) {
        boolean matched = false;
        for (byte[] secret : secrets) {
            byte[] expected = hmac(secret, signed);
            for (byte[] candidate : given) {
                matched |= MessageDigest.isEqual(expected, candidate);
            }
        }
        return matched;
    }

    private static byte[] hmac(byte[] secret, String signed) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            return mac.doFinal(signed.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is always available", e);
        }
    }
}
