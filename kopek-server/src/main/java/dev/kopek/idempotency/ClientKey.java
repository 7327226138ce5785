package dev.kopek.idempotency;

import dev.kopek.money.MerchantId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A client's idempotency key in its scope: the merchant (from authentication, never from the body) and the
 * operation's key space. The raw key is an operation id, not a secret, but logs carry only {@link #hash()}.
 */
public record ClientKey(MerchantId merchant, String operation, String key) {

    public static final int MAX_LENGTH = 255;

    public ClientKey {
        Objects.requireNonNull(merchant, "merchant");
        Objects.requireNonNull(operation, "operation");
        if (!isWellFormed(key)) {
            throw new IllegalArgumentException("malformed idempotency key");
        }
    }

    /** 1–255 printable ASCII characters, not only spaces. */
    public static boolean isWellFormed(String key) {
        return key != null
                && !key.isEmpty()
                && key.length() <= MAX_LENGTH
                && !key.isBlank()
                && key.chars().allMatch(c -> c >= 0x20 && c <= 0x7E);
    }

    /**
     * The key Kopek sends to the PSP, derived from this merchant-scoped key and the resource it created: fixed
     * length whatever the client sent, the same on every retry of the operation (it is stored with the
     * resource), and different when a key string comes back as a new operation after retention.
     */
    public String providerKey(java.util.UUID resourceId) {
        return "kpk_" + digest(merchant.value() + "\n" + operation + "\n" + key + "\n" + resourceId);
    }

    /** For logs and metrics: the raw key never appears there (L12). */
    public String hash() {
        return digest(key).substring(0, 16);
    }

    private static String digest(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "ClientKey[" + merchant + ", " + operation + ", #" + hash() + "]";
    }
}
