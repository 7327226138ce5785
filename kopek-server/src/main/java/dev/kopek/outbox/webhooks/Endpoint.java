package dev.kopek.outbox.webhooks;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PrefixedId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** A merchant's webhook endpoint as stored, without its secret. */
public record Endpoint(
        UUID id,
        MerchantId merchant,
        String url,
        List<String> eventTypes,
        Status status,
        int version,
        Instant failingSince,
        String disabledReason,
        Instant createdAt,
        Instant updatedAt) {

    static final String PREFIX = "we";

    public enum Status {
        ENABLED,
        DISABLED,
        DELETED
    }

    public String publicId() {
        return PrefixedId.format(PREFIX, id);
    }

    public static Optional<UUID> parseId(String text) {
        return PrefixedId.parse(PREFIX, text);
    }
}
