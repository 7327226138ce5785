package dev.kopek.outbox.store;

import java.time.Instant;
import java.util.UUID;

/**
 * One outbox row as a relay publishes it.
 *
 * @param publicId the Kafka key: one resource, one partition, its order kept
 * @param envelope the bytes every copy of the event carries
 */
public record OutboxRow(
        UUID id,
        String eventType,
        UUID resourceId,
        String publicId,
        long sequence,
        String envelope,
        Instant createdAt) {

    /** The id as merchants and consumers see it. */
    public String publicEventId() {
        return Envelope.eventId(id);
    }
}
