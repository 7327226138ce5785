package dev.kopek.outbox.webhooks;

import dev.kopek.money.PrefixedId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** One event for one endpoint, with its attempts when they were asked for. */
public record Delivery(
        UUID id,
        UUID endpointId,
        UUID eventId,
        String eventType,
        Status status,
        int attempts,
        Instant nextAttemptAt,
        Integer lastResponseCode,
        Instant createdAt,
        Instant updatedAt,
        List<Attempt> history) {

    static final String PREFIX = "whd";

    public enum Status {
        PENDING,
        SUCCEEDED,
        FAILED,
        CANCELLED
    }

    public record Attempt(
            int attempt,
            String trigger,
            Instant startedAt,
            int latencyMillis,
            Integer responseCode,
            boolean succeeded,
            String error) {}

    public String publicId() {
        return PrefixedId.format(PREFIX, id);
    }

    public static Optional<UUID> parseId(String text) {
        return PrefixedId.parse(PREFIX, text);
    }

    Delivery withHistory(List<Attempt> attempts) {
        return new Delivery(
                id,
                endpointId,
                eventId,
                eventType,
                status,
                this.attempts,
                nextAttemptAt,
                lastResponseCode,
                createdAt,
                updatedAt,
                List.copyOf(attempts));
    }
}
