package dev.kopek.platform;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals secrets Kopek must read back (webhook signing secrets) with AES-256-GCM. A sealed value carries the id of
 * the key that sealed it, so keys can rotate: new values are sealed with the current key, old ones still open with
 * a retired key until they are sealed again. A key's id is derived from the key (the first 8 bytes of its
 * SHA-256, hex), so nobody has to name keys and two instances with the same key agree on its id. The associated
 * data binds a sealed value to its row: a ciphertext copied onto another row does not open.
 */
public final class SecretBox {

    public static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String currentId;
    private final Map<String, SecretKeySpec> keys;

    /** @param current the key new values are sealed with; @param retired keys that only open older values */
    public SecretBox(byte[] current, List<byte[]> retired) {
        Map<String, SecretKeySpec> all = new LinkedHashMap<>();
        this.currentId = add(all, current);
        retired.forEach(key -> add(all, key));
        this.keys = Map.copyOf(all);
    }

    /** A value as stored: which key sealed it, and nonce followed by ciphertext and tag. */
    public record Sealed(String keyId, byte[] bytes) {
        @Override
        public String toString() {
            return "Sealed[keyId=" + keyId + "]";
        }
    }

    public String currentKeyId() {
        return currentId;
    }

    /** The ids of every key that can open a value: the current one and the retired ones. */
    public Set<String> keyIds() {
        return keys.keySet();
    }

    public Sealed seal(String secret, String boundTo) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] sealed =
                run(Cipher.ENCRYPT_MODE, keys.get(currentId), nonce, boundTo, secret.getBytes(StandardCharsets.UTF_8));
        return new Sealed(
                currentId,
                ByteBuffer.allocate(nonce.length + sealed.length)
                        .put(nonce)
                        .put(sealed)
                        .array());
    }

    /** Opens a value sealed with the current or a retired key; throws when the key is unknown or it was altered. */
    public String open(Sealed sealed, String boundTo) {
        SecretKeySpec key = keys.get(sealed.keyId());
        if (key == null) {
            throw new IllegalStateException(
                    "no secrets key with id " + sealed.keyId() + " is configured; add it to KOPEK_SECRETS_OLD_KEYS");
        }
        byte[] bytes = sealed.bytes();
        if (bytes.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new IllegalStateException("sealed value too short");
        }
        byte[] nonce = Arrays.copyOfRange(bytes, 0, NONCE_BYTES);
        byte[] body = Arrays.copyOfRange(bytes, NONCE_BYTES, bytes.length);
        return new String(run(Cipher.DECRYPT_MODE, key, nonce, boundTo, body), StandardCharsets.UTF_8);
    }

    /** A base64 key of 32 bytes, as KOPEK_SECRETS_KEY is given; throws with a sentence otherwise. */
    public static byte[] decodeKey(String text, String setting) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(setting + " must be base64 (openssl rand -base64 32)");
        }
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException(setting + " must decode to " + KEY_BYTES + " bytes, not " + key.length
                    + " (openssl rand -base64 32)");
        }
        return key;
    }

    public static byte[] newKey() {
        byte[] key = new byte[KEY_BYTES];
        RANDOM.nextBytes(key);
        return key;
    }

    public static String keyId(byte[] key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key);
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String add(Map<String, SecretKeySpec> keys, byte[] key) {
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("a secrets key is " + KEY_BYTES + " bytes");
        }
        String id = keyId(key);
        keys.putIfAbsent(id, new SecretKeySpec(key, "AES"));
        return id;
    }

    private static byte[] run(int mode, SecretKeySpec key, byte[] nonce, String boundTo, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(boundTo.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a sealed secret could not be opened (wrong key or altered value)", e);
        }
    }
}
