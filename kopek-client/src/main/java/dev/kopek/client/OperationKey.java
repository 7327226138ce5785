package dev.kopek.client;

import java.util.Objects;
import java.util.UUID;

/**
 * The idempotency key of one logical operation ("pay order 1001", "refund 500 of it"). The client sends it on
 * every try of that operation and never makes one up behind the caller's back: a new key is a new operation,
 * so a key minted on retry is how payments get charged twice.
 *
 * <p>Name the operation after something the caller already keeps ({@code order-1001/pay}), or {@link #generate()}
 * a key and persist it before the first call, next to the order, so a restart retries with the same key.
 */
public record OperationKey(String value) {

    public static final int MAX_LENGTH = 255;

    public OperationKey {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty() || value.length() > MAX_LENGTH || !value.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("an idempotency key is 1-" + MAX_LENGTH + " printable ASCII characters");
        }
    }

    /** The key named by the caller, e.g. {@code order-1001/pay}; the same name is the same operation. */
    public static OperationKey of(String name) {
        return new OperationKey(name);
    }

    /** A fresh random key. Persist it before the first call: only the same key makes a retry safe. */
    public static OperationKey generate() {
        return new OperationKey(UUID.randomUUID().toString());
    }

    @Override
    public String toString() {
        return value;
    }
}
