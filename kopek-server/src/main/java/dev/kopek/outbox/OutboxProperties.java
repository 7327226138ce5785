package dev.kopek.outbox;

import java.time.Duration;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code kopek.outbox.*}.
 *
 * @param mode {@code KOPEK_OUTBOX_MODE}: how events reach Kafka when {@code KOPEK_KAFKA_BOOTSTRAP_SERVERS} is set
 * @param workersEnabled whether this instance runs the scheduled relay, CDC watchdog, webhook and cleanup workers
 *     (every instance may; they share the work through the database). Tests switch them off and drive them by hand.
 * @param retention how long events (and their deliveries and attempts) are kept: the feed goes back this far.
 *     Unpublished events and events with pending deliveries are never deleted.
 */
@ConfigurationProperties("kopek.outbox")
public record OutboxProperties(
        @DefaultValue("polling") Mode mode,
        @DefaultValue("true") boolean workersEnabled,
        @DefaultValue Relay relay,
        @DefaultValue Cdc cdc,
        @DefaultValue Webhooks webhooks,
        @DefaultValue("30d") Duration retention) {

    public OutboxProperties {
        if (retention.compareTo(webhooks.retryWindow()) <= 0) {
            throw new IllegalArgumentException("kopek.outbox.retention must exceed the webhook retry window");
        }
    }

    public enum Mode {
        /** Relays claim unpublished rows with {@code FOR UPDATE SKIP LOCKED}, publish, then mark them. */
        POLLING,
        /** Debezium's embedded PostgreSQL connector streams inserted rows from the WAL (pgoutput). */
        CDC
    }

    /**
     * @param interval pause between polling passes when the outbox was drained
     * @param batchSize rows published per claim transaction (at most 1,000)
     * @param ackTimeout how long a batch waits for the broker's acknowledgements before it is retried
     */
    public record Relay(
            @DefaultValue("100ms") Duration interval,
            @DefaultValue("200") int batchSize,
            @DefaultValue("30s") Duration ackTimeout) {

        public Relay {
            if (batchSize < 1 || batchSize > 1000) {
                throw new IllegalArgumentException("kopek.outbox.relay.batch-size must be 1..1000");
            }
        }
    }

    /**
     * @param slot the logical replication slot CDC owns (created if missing; drop it when leaving CDC mode)
     * @param publication the publication limited to inserts into the outbox table
     * @param schema the schema that holds the outbox table
     * @param watchdogInterval how often an instance checks that exactly one CDC engine runs, and takes over
     * @param pollInterval how long Debezium waits for more changes before handing over a batch (its
     *     {@code poll.interval.ms}): the floor of the CDC lag
     */
    public record Cdc(
            @DefaultValue("kopek_outbox") String slot,
            @DefaultValue("kopek_outbox") String publication,
            @DefaultValue("public") String schema,
            @DefaultValue("5s") Duration watchdogInterval,
            @DefaultValue("10ms") Duration pollInterval) {

        private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

        public Cdc {
            if (!NAME.matcher(slot).matches()
                    || !NAME.matcher(publication).matches()
                    || !NAME.matcher(schema).matches()) {
                throw new IllegalArgumentException(
                        "kopek.outbox.cdc: slot, publication and schema must be lower-case SQL identifiers");
            }
        }
    }

    /**
     * @param interval pause between passes of the delivery worker
     * @param batchSize deliveries attempted per pass, concurrently (at most 200)
     * @param connectTimeout TCP connect limit per attempt
     * @param requestTimeout limit for the whole answer per attempt
     * @param retryWindow how long a delivery is retried, and how long an endpoint may fail before it is disabled
     * @param maxEndpoints endpoints per merchant
     * @param allowHttpLoopback plain http endpoints on loopback, and delivery to loopback addresses: the demo and
     *     tests with a local receiver; everything else is https to public addresses only
     */
    public record Webhooks(
            @DefaultValue("1s") Duration interval,
            @DefaultValue("20") int batchSize,
            @DefaultValue("5s") Duration connectTimeout,
            @DefaultValue("10s") Duration requestTimeout,
            @DefaultValue("72h") Duration retryWindow,
            @DefaultValue("16") int maxEndpoints,
            @DefaultValue("false") boolean allowHttpLoopback) {

        public Webhooks {
            if (batchSize < 1 || batchSize > 200 || maxEndpoints < 1 || maxEndpoints > 100) {
                throw new IllegalArgumentException("kopek.outbox.webhooks: batch size or endpoint limit out of range");
            }
        }

        /** An attempt's lease: long enough for the request to time out and its outcome to be recorded. */
        public Duration lease() {
            return connectTimeout.plus(requestTimeout).plusSeconds(30);
        }
    }
}
