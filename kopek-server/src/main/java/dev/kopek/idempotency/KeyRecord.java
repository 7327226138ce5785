package dev.kopek.idempotency;

import java.time.Instant;
import java.util.UUID;

/** One row of idempotency_keys as read back. */
public record KeyRecord(
        ClientKey clientKey,
        String requestHash,
        KeyStatus status,
        int attempt,
        Instant leaseUntil,
        UUID resourceId,
        Integer responseCode,
        String responseBody,
        Instant createdAt) {}
