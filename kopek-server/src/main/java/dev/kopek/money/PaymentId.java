package dev.kopek.money;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

public record PaymentId(UUID value) {
    public PaymentId {
        Objects.requireNonNull(value, "value");
    }

    public static Optional<PaymentId> parse(String text) {
        return PrefixedId.parse("pay", text).map(PaymentId::new);
    }

    @Override
    public String toString() {
        return PrefixedId.format("pay", value);
    }
}
