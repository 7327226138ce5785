package dev.kopek.outbox.webhooks;

import dev.kopek.client.WebhookSignature;
import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.money.PrefixedId;
import dev.kopek.outbox.EventTypes;
import dev.kopek.outbox.OutboxProperties;
import dev.kopek.outbox.store.Envelope;
import dev.kopek.platform.DatabaseFailures;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Delivers due webhooks: claim with {@code SKIP LOCKED} and a lease (one statement), post each outside any
 * transaction, then record the attempt and the delivery's next state in a short transaction fenced by the
 * attempt number. A delivery is retried on the {@link Backoff} schedule inside the retry window. When a delivery
 * gives up and every attempt to its endpoint since that delivery's first one has failed, the endpoint has failed
 * for the whole window: it is disabled, which is itself an event.
 */
@Component
public class DeliveryWorker {

    private static final Logger log = LoggerFactory.getLogger(DeliveryWorker.class);

    private final DeliveryStore deliveries;
    private final EndpointStore endpoints;
    private final TransactionTemplate tx;
    private final EventStatements events;
    private final OutboxProperties.Webhooks settings;
    private final WebhookSender sender;
    private final MeterRegistry meters;
    private final Clock clock;
    private final RandomGenerator random = new SecureRandom();

    DeliveryWorker(
            DeliveryStore deliveries,
            EndpointStore endpoints,
            TransactionTemplate tx,
            EventStatements events,
            OutboxProperties properties,
            MeterRegistry meters,
            Clock clock) {
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.tx = tx;
        this.events = events;
        this.settings = properties.webhooks();
        this.sender = new WebhookSender(
                settings.connectTimeout(),
                settings.requestTimeout(),
                settings.allowHttpLoopback(),
                InetAddress::getAllByName);
        this.meters = meters;
        this.clock = clock;
        Gauge.builder("kopek.webhooks.pending", deliveries, DeliveryStore::pendingCount)
                .description("webhook deliveries waiting for an attempt")
                .register(meters);
    }

    @PreDestroy
    void closeSender() {
        sender.close();
    }

    /** One pass: attempts every due delivery it could claim, concurrently; returns how many. */
    public int deliverDue() {
        Instant now = clock.instant();
        List<DeliveryStore.Claimed> claimed =
                deliveries.claimDue(now, now.plus(settings.lease()), settings.batchSize());
        if (claimed.isEmpty()) {
            return 0;
        }
        RuntimeException unavailable = null;
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> running = new ArrayList<>();
            for (DeliveryStore.Claimed delivery : claimed) {
                running.add(pool.submit(() -> attempt(delivery)));
            }
            for (Future<?> attempt : running) {
                try {
                    attempt.get();
                } catch (ExecutionException e) {
                    // Its lease runs out and the next pass, here or elsewhere, tries again. While the database is
                    // away that is every attempt of the batch: the worker's pass reports it once (OutboxWorkers).
                    if (e.getCause() instanceof RuntimeException failure
                            && DatabaseFailures.of(failure).isPresent()) {
                        unavailable = failure;
                    } else {
                        log.error("webhook attempt could not be recorded", e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (unavailable != null) {
            throw unavailable;
        }
        return claimed.size();
    }

    private void attempt(DeliveryStore.Claimed delivery) {
        Instant started = clock.instant();
        if (delivery.secret() == null) {
            tx.executeWithoutResult(status -> record(
                    delivery,
                    started,
                    new WebhookSender.Result(
                            null,
                            0,
                            "the signing secret is sealed by a key that is not configured (KOPEK_SECRETS_OLD_KEYS)")));
            return;
        }
        String signature = WebhookSignature.header(delivery.secret(), started.getEpochSecond(), delivery.envelope());
        WebhookSender.Result result = sender.post(
                delivery.url(),
                delivery.envelope(),
                Map.of(
                        WebhookSignature.HEADER,
                        signature,
                        "Kopek-Event-Id",
                        Envelope.eventId(delivery.eventId()),
                        "Kopek-Delivery-Id",
                        PrefixedId.format(Delivery.PREFIX, delivery.deliveryId()),
                        "Kopek-Delivery-Attempt",
                        Integer.toString(delivery.attempt())));
        meters.counter("kopek.webhooks.attempts", "outcome", result.succeeded() ? "succeeded" : "failed")
                .increment();
        tx.executeWithoutResult(status -> record(delivery, started, result));
    }

    private void record(DeliveryStore.Claimed delivery, Instant started, WebhookSender.Result result) {
        Instant now = clock.instant();
        endpoints.lockForRecording(delivery.endpointId());
        deliveries.insertAttempt(delivery, started, result);
        if (result.succeeded()) {
            if (deliveries.settle(delivery, Delivery.Status.SUCCEEDED, now, result.responseCode(), now)) {
                endpoints.noteSuccess(delivery.endpointId());
            }
            return;
        }
        meters.counter("kopek.webhooks.delivery.failures").increment();
        Instant next = now.plus(Backoff.withJitter(delivery.attempt(), random));
        boolean windowOver = next.isAfter(delivery.createdAt().plus(settings.retryWindow()));
        Delivery.Status status = windowOver ? Delivery.Status.FAILED : Delivery.Status.PENDING;
        if (!deliveries.settle(delivery, status, next, result.responseCode(), now)) {
            return; // a redelivery or another worker took it over meanwhile; its outcome is theirs to record
        }
        log.info(
                "webhook delivery failed: merchant={} endpoint={} delivery={} attempt={} error={} next={}",
                delivery.merchant(),
                delivery.endpointId(),
                delivery.deliveryId(),
                delivery.attempt(),
                result.error(),
                windowOver ? "gave up" : next);
        Optional<Instant> failingSince = endpoints.noteFailure(delivery.endpointId(), started);
        if (windowOver
                && failingSince.isPresent()
                && !failingSince
                        .get()
                        .isAfter(
                                deliveries.firstAttemptAt(delivery.deliveryId()).orElse(started))) {
            disable(delivery, failingSince.get(), now);
        }
    }

    /** In the recording transaction: the endpoint stops receiving, its queue is cancelled, and others are told. */
    private void disable(DeliveryStore.Claimed delivery, Instant failingSince, Instant now) {
        String reason = "every delivery failed since " + failingSince + " ("
                + settings.retryWindow().toHours() + " h retry window)";
        endpoints
                .retire(delivery.endpointId(), Endpoint.Status.DISABLED, List.of(Endpoint.Status.ENABLED), reason, now)
                .ifPresent(disabled -> {
                    int cancelled = deliveries.cancelPending(disabled.id(), now);
                    meters.counter("kopek.webhooks.endpoints.disabled").increment();
                    log.warn(
                            "webhook endpoint disabled: merchant={} endpoint={} cancelled_deliveries={} reason={}",
                            disabled.merchant(),
                            disabled.publicId(),
                            cancelled,
                            reason);
                    events.write(new BusinessEvent(
                            EventTypes.ENDPOINT_DISABLED,
                            "webhook_endpoint",
                            disabled.id(),
                            disabled.publicId(),
                            disabled.merchant(),
                            disabled.version(),
                            WebhookJson.render(disabled, null),
                            now));
                });
    }
}
