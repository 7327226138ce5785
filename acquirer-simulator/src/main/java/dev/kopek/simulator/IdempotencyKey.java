package dev.kopek.simulator;

import java.util.List;

/** The one rule for what counts as a usable idempotency key, shared by the header and the lookup query. */
final class IdempotencyKey {
    static final String HEADER = "Idempotency-Key";
    private static final int MAX_LENGTH = 255;

    private IdempotencyKey() {}

    /** From a header: exactly one value, else the client's intent is ambiguous. */
    static String fromHeader(List<String> values) {
        if (values == null || values.size() != 1) {
            throw missing();
        }
        return require(values.getFirst());
    }

    /** 1–255 printable ASCII characters (space to tilde); anything else is rejected, not normalised. */
    static String require(String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_LENGTH) {
            throw missing();
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                throw missing();
            }
        }
        return key;
    }

    private static BadRequest missing() {
        return new BadRequest("missing_idempotency_key", "Idempotency-Key must be 1-255 printable ASCII characters");
    }
}
