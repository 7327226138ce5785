package dev.kopek.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The request fingerprint: SHA-256 over the canonical business fields in a fixed order, each written as
 * {@code <length>:<value>} so no value can imitate a separator; an absent field is {@code -1:}, distinct from
 * an empty one. Raw JSON never enters it, so whitespace and field order cannot change it.
 */
public final class Fingerprint {

    private Fingerprint() {}

    public static String of(String... canonicalFields) {
        StringBuilder canonical = new StringBuilder();
        for (String field : canonicalFields) {
            if (field == null) {
                canonical.append("-1:");
            } else {
                canonical.append(field.length()).append(':').append(field);
            }
        }
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(canonical.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
