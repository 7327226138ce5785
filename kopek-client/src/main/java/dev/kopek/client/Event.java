package dev.kopek.client;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * One event, the same bytes on Kafka, the feed and webhooks. Deduplicate by {@link #id()}; order per resource by
 * {@code resource.sequence}. {@link #data()} is the resource after the change ({@link KopekClient#convert}).
 */
public record Event(String id, String type, Instant createdAt, String merchant, Resource resource, JsonNode data) {

    public record Resource(String type, String id, long sequence) {}
}
