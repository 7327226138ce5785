package dev.kopek.simulator;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Simulator-Signature} header: {@code t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>},
 * where body is the exact request body (UTF-8) and the hex is lower case.
 */
public final class WebhookSignature {
    public static final String HEADER = "Simulator-Signature";
    private static final String ALGORITHM = "HmacSHA256";

    private WebhookSignature() {}

    /** The header value for a body signed at {@code timestamp} (unix seconds). */
    public static String header(String secret, long timestamp, String body) {
        return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(mac(secret, timestamp, body));
    }

    /**
     * Whether the header carries a valid v1 signature of the body. It checks no timestamp tolerance: a
     * receiver should also refuse a {@code t} too far from its own clock.
     */
    public static boolean verify(String secret, String header, String body) {
        if (header == null) {
            return false;
        }
        Long timestamp = null;
        String v1 = null;
        for (String part : header.split(",")) {
            if (part.startsWith("t=")) {
                try {
                    timestamp = Long.parseLong(part.substring(2));
                } catch (NumberFormatException e) {
                    return false;
                }
            } else if (part.startsWith("v1=")) {
                v1 = part.substring(3);
            }
        }
        if (timestamp == null || v1 == null) {
            return false;
        }
        byte[] expected = HexFormat.of().formatHex(mac(secret, timestamp, body)).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, v1.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] mac(String secret, long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            return mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            // Every JDK ships HmacSHA256; failing here means a broken runtime, not bad input.
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
