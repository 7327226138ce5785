package dev.kopek.client;

import java.time.Instant;

/** One event's delivery to one endpoint, with its tries. */
public record WebhookDelivery(String id, String endpoint, String event, String eventType, String status, int attempts,
        Instant nextAttemptAt, Integer lastResponseCode, Instant createdAt, Instant updatedAt) {
}
