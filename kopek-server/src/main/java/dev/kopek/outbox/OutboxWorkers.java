package dev.kopek.outbox;

import dev.kopek.outbox.relay.CdcRelay;
import dev.kopek.outbox.relay.KafkaOutageLog;
import dev.kopek.outbox.relay.KafkaPublisher.PublishFailed;
import dev.kopek.outbox.relay.PollingRelay;
import dev.kopek.outbox.store.OutboxStore;
import dev.kopek.outbox.webhooks.DeliveryWorker;
import dev.kopek.platform.DatabaseOutages;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The scheduled side of the module, on every instance unless {@code kopek.outbox.workers-enabled=false}: the
 * polling relay or the CDC watchdog (by {@code KOPEK_OUTBOX_MODE}, only with Kafka), the webhook worker, and
 * the retention cleanup.
 * A failing pass pauses that worker briefly instead of flooding the log; while the database is away (a failover)
 * each worker warns once, pauses and resumes by itself ({@link DatabaseOutages}), and so does the relay while Kafka
 * is away.
 */
@Component
class OutboxWorkers {

    private static final Logger log = LoggerFactory.getLogger(OutboxWorkers.class);
    private static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(5);
    private static final int MAX_BATCHES_PER_PASS = 50;
    private static final String RELAY = "outbox relay";
    private static final String WEBHOOKS = "webhook delivery";
    private static final int CLEANUP_BATCH = 5_000;
    private static final int MAX_CLEANUP_BATCHES = 100;

    private final OutboxProperties properties;
    private final ObjectProvider<PollingRelay> relay;
    private final ObjectProvider<CdcRelay> cdc;
    private final DeliveryWorker webhooks;
    private final OutboxStore store;
    private final KafkaSettings kafka;
    private final Clock clock;
    private final DatabaseOutages outages;
    private volatile Instant relayPausedUntil = Instant.MIN;
    private final KafkaOutageLog kafkaOutage;

    OutboxWorkers(
            OutboxProperties properties,
            ObjectProvider<PollingRelay> relay,
            ObjectProvider<CdcRelay> cdc,
            DeliveryWorker webhooks,
            OutboxStore store,
            KafkaSettings kafka,
            Clock clock,
            DatabaseOutages outages) {
        this.properties = properties;
        this.relay = relay;
        this.cdc = cdc;
        this.webhooks = webhooks;
        this.store = store;
        this.kafka = kafka;
        this.clock = clock;
        this.outages = outages;
        this.kafkaOutage = new KafkaOutageLog(
                RELAY,
                "events stay in the outbox, retried every " + PAUSE_AFTER_FAILURE + " until it is back",
                log,
                clock);
    }

    @Scheduled(fixedDelayString = "${kopek.outbox.relay.interval:100ms}", initialDelayString = "1s")
    void relay() {
        if (!properties.workersEnabled()
                || properties.mode() != OutboxProperties.Mode.POLLING
                || clock.instant().isBefore(relayPausedUntil)
                || !outages.mayRun(RELAY)) {
            return;
        }
        relay.ifAvailable(polling -> {
            try {
                polling.drain(MAX_BATCHES_PER_PASS);
                outages.succeeded(RELAY);
                kafkaOutage.published();
            } catch (PublishFailed e) {
                relayPausedUntil = clock.instant().plus(PAUSE_AFTER_FAILURE);
                kafkaOutage.failed(e);
            } catch (RuntimeException e) {
                if (outages.failed(RELAY, e)) {
                    return;
                }
                relayPausedUntil = clock.instant().plus(PAUSE_AFTER_FAILURE);
                log.error(
                        "outbox relay pass failed; events stay unpublished and are retried in {}",
                        PAUSE_AFTER_FAILURE,
                        e);
            }
        });
    }

    @Scheduled(fixedDelayString = "${kopek.outbox.cdc.watchdog-interval:5s}", initialDelayString = "1s")
    void cdcWatchdog() {
        if (properties.workersEnabled() && properties.mode() == OutboxProperties.Mode.CDC) {
            cdc.ifAvailable(CdcRelay::ensureRunning);
        }
    }

    @Scheduled(fixedDelayString = "${kopek.outbox.webhooks.interval:1s}", initialDelayString = "1s")
    void webhooks() {
        if (!properties.workersEnabled() || !outages.mayRun(WEBHOOKS)) {
            return;
        }
        try {
            for (int i = 0; i < MAX_BATCHES_PER_PASS; i++) {
                if (webhooks.deliverDue() < properties.webhooks().batchSize()) {
                    break;
                }
            }
            outages.succeeded(WEBHOOKS);
        } catch (RuntimeException e) {
            if (outages.failed(WEBHOOKS, e)) {
                return;
            }
            log.error("webhook delivery pass failed; due deliveries are retried on the next pass", e);
        }
    }

    @Scheduled(
            fixedDelayString = "${kopek.outbox.cleanup-interval:1h}",
            initialDelayString = "${kopek.outbox.cleanup-initial-delay:2m}")
    void cleanup() {
        if (properties.workersEnabled()) {
            cleanupOnce();
        }
    }

    /** Deletes what is past retention in bounded batches; returns how many events went. */
    int cleanupOnce() {
        Instant before = clock.instant().minus(properties.retention());
        int events = 0;
        try {
            for (int i = 0; i < MAX_CLEANUP_BATCHES; i++) {
                int deleted = store.deleteExpired(before, kafka.configured(), CLEANUP_BATCH);
                events += deleted;
                if (deleted < CLEANUP_BATCH) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            if (!outages.failed("outbox cleanup", e)) {
                log.error("outbox cleanup failed; it runs again on the next pass", e);
            }
        }
        if (events > 0) {
            log.info("deleted {} events older than {}", events, properties.retention());
        }
        return events;
    }
}
