package dev.kopek.client;

import java.time.Instant;
import java.util.List;

/**
 * One event's delivery to one endpoint. {@link #attemptHistory()} is filled only when one delivery is read by id
 * ({@link KopekClient#delivery}); lists leave it null.
 */
public record WebhookDelivery(
        String id,
        String endpoint,
        String event,
        String eventType,
        String status,
        int attempts,
        Instant nextAttemptAt,
        Integer lastResponseCode,
        Instant createdAt,
        Instant updatedAt,
        List<Attempt> attemptHistory) {

    /** One try: what started it ({@code scheduled} or a manual redelivery), what the endpoint answered, how long it took. */
    public record Attempt(
            int attempt,
            String trigger,
            Instant startedAt,
            Long latencyMs,
            Integer responseCode,
            String outcome,
            String error) {}
}
