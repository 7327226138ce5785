package dev.kopek.money;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

public record RefundId(UUID value) {
    public RefundId {
        Objects.requireNonNull(value, "value");
    }

    public static Optional<RefundId> parse(String text) {
        return PrefixedId.parse("re", text).map(RefundId::new);
    }

    @Override
    public String toString() {
        return PrefixedId.format("re", value);
    }
}
