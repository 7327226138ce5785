package dev.kopek.outbox.relay;

import dev.kopek.outbox.store.OutboxRow;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Sends outbox rows to the events topic, keyed by the resource's public id, and returns only when the broker has
 * acknowledged every one ({@code acks=all}, idempotent producer, so a retry inside the producer neither
 * duplicates nor reorders within a partition). Both relays use it, so both publish the same records.
 */
public class KafkaPublisher {

    public static final String HEADER_EVENT_ID = "kopek-event-id";
    public static final String HEADER_EVENT_TYPE = "kopek-event-type";
    public static final String HEADER_SEQUENCE = "kopek-sequence";
    public static final String HEADER_CREATED_AT = "kopek-created-at";

    /** The batch was not acknowledged as a whole; none of it may be marked published. */
    public static final class PublishFailed extends RuntimeException {
        public PublishFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final KafkaTemplate<String, String> template;
    private final EventsTopic eventsTopic;
    private final String topic;
    private final Duration ackTimeout;
    private final MeterRegistry meters;
    private final Clock clock;

    KafkaPublisher(
            KafkaTemplate<String, String> template,
            EventsTopic eventsTopic,
            Duration ackTimeout,
            MeterRegistry meters,
            Clock clock) {
        this.template = template;
        this.eventsTopic = eventsTopic;
        this.topic = eventsTopic.name();
        this.ackTimeout = ackTimeout;
        this.meters = meters;
        this.clock = clock;
    }

    public String topic() {
        return topic;
    }

    /** Blocks until every row is acknowledged; throws {@link PublishFailed} otherwise. */
    public void publish(List<OutboxRow> rows, String mode) {
        if (!eventsTopic.prepared()) {
            throw new PublishFailed(
                    "topic " + topic + " is not created and read back yet; its " + rows.size() + " events wait", null);
        }
        List<CompletableFuture<?>> acks = new ArrayList<>(rows.size());
        for (OutboxRow row : rows) {
            acks.add(template.send(record(row)));
        }
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
                    .get(ackTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new PublishFailed("broker refused part of a batch of " + rows.size(), e.getCause());
        } catch (TimeoutException e) {
            throw new PublishFailed("no acknowledgement within " + ackTimeout + " for a batch of " + rows.size(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishFailed("interrupted while waiting for acknowledgements", e);
        }
        Instant acked = clock.instant();
        Timer lag = Timer.builder("kopek.outbox.publish.lag")
                .tag("mode", mode)
                .description("from the event's transaction to the broker's acknowledgement")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .register(meters);
        for (OutboxRow row : rows) {
            lag.record(Duration.between(row.createdAt(), acked));
        }
        meters.counter("kopek.outbox.published", "mode", mode).increment(rows.size());
    }

    private ProducerRecord<String, String> record(OutboxRow row) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(HEADER_EVENT_ID, bytes(row.publicEventId())));
        headers.add(new RecordHeader(HEADER_EVENT_TYPE, bytes(row.eventType())));
        headers.add(new RecordHeader(HEADER_SEQUENCE, bytes(Long.toString(row.sequence()))));
        headers.add(new RecordHeader(HEADER_CREATED_AT, bytes(row.createdAt().toString())));
        return new ProducerRecord<>(topic, null, row.publicId(), row.envelope(), headers);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
