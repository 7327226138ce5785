package dev.kopek.money;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

public record MerchantId(UUID value) {
    public MerchantId {
        Objects.requireNonNull(value, "value");
    }

    public static Optional<MerchantId> parse(String text) {
        return PrefixedId.parse("mer", text).map(MerchantId::new);
    }

    @Override
    public String toString() {
        return PrefixedId.format("mer", value);
    }
}
