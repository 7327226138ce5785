package dev.kopek.client;

import java.time.Instant;
import java.util.List;

/**
 * A webhook endpoint. {@link #secret()} (the signing secret) is present only in the answer to the request that
 * created it: store it then.
 */
public record WebhookEndpoint(
        String id,
        String url,
        List<String> eventTypes,
        String status,
        String disabledReason,
        String secret,
        Instant createdAt,
        Instant updatedAt) {}
