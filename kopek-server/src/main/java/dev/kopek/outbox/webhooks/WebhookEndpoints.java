package dev.kopek.outbox.webhooks;

import dev.kopek.idempotency.Claim;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.merchants.Secrets;
import dev.kopek.money.MerchantId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.outbox.OutboxProperties;
import dev.kopek.platform.SecretBox;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Webhook endpoints and their deliveries, for the merchant API. Creating an endpoint and asking for a redelivery
 * are idempotent like every state-changing request: the key is claimed, the change made and the answer stored in
 * one transaction, because no outside call happens in between.
 */
@Service
public class WebhookEndpoints {

    public static final String CREATE_OPERATION = "webhook_endpoint.create";
    public static final String REDELIVER_OPERATION = "webhook_delivery.redeliver";
    private static final Logger log = LoggerFactory.getLogger(WebhookEndpoints.class);
    private static final int MAX_DELIVERIES_LISTED = 100;

    private final EndpointStore endpoints;
    private final DeliveryStore deliveries;
    private final IdempotencyKeys keys;
    private final TransactionTemplate tx;
    private final OutboxProperties.Webhooks settings;
    private final Clock clock;
    private final SecretBox box;

    WebhookEndpoints(
            EndpointStore endpoints,
            DeliveryStore deliveries,
            IdempotencyKeys keys,
            TransactionTemplate tx,
            OutboxProperties properties,
            Clock clock,
            SecretBox box) {
        this.box = box;
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.keys = keys;
        this.tx = tx;
        this.settings = properties.webhooks();
        this.clock = clock;
    }

    /** What an idempotent request got. */
    public sealed interface Answer {
        /**
         * {@code body} is answered; {@code storedBody} is what the key keeps and a replay answers byte for byte. They
         * differ only for a create, whose secret is answered once and never stored in clear.
         */
        record Done(int status, String body, String storedBody, boolean replayed) implements Answer {
            Done(int status, String body, boolean replayed) {
                this(status, body, body, replayed);
            }
        }

        record KeyReused() implements Answer {}

        record InFlight(long retryAfterSeconds) implements Answer {}

        record NotFound() implements Answer {}

        /** The merchant already has as many endpoints as allowed. */
        record LimitReached(int limit) implements Answer {}

        /** The endpoint is disabled or deleted: nothing is sent to it any more. */
        record EndpointNotLive() implements Answer {}
    }

    /** The fields are validated by the caller; event types are sorted for the fingerprint. */
    public Answer create(MerchantId merchant, String idempotencyKey, String url, List<String> eventTypes) {
        List<String> types = eventTypes.stream().distinct().sorted().toList();
        ClientKey ck = new ClientKey(merchant, CREATE_OPERATION, idempotencyKey);
        UUID newId = TimeOrderedIds.next(clock);
        String fingerprint = Fingerprint.of(url, String.join(",", types));
        return idempotently(ck, fingerprint, newId, () -> {
            // A soft limit: two concurrent creates may both pass it once; it bounds fan-out, not money.
            if (endpoints.countLive(merchant) >= settings.maxEndpoints()) {
                return new Answer.LimitReached(settings.maxEndpoints());
            }
            String secret = Secrets.newSecret("whsec_");
            Endpoint created =
                    endpoints.insert(newId, merchant, url, types, box.seal(secret, newId.toString()), clock.instant());
            log.info("webhook endpoint created: merchant={} endpoint={} types={}", merchant, created.publicId(), types);
            return new Answer.Done(
                    201, WebhookJson.render(created, secret), WebhookJson.render(created, null, true), false);
        });
    }

    /** A new attempt for one delivery, due now; a delivery past its window gets exactly this one attempt. */
    public Answer redeliver(MerchantId merchant, String idempotencyKey, UUID endpointId, UUID deliveryId) {
        ClientKey ck = new ClientKey(merchant, REDELIVER_OPERATION, idempotencyKey);
        String fingerprint = Fingerprint.of(endpointId.toString(), deliveryId.toString());
        return idempotently(ck, fingerprint, deliveryId, () -> {
            Optional<Endpoint> endpoint = endpoints.find(merchant, endpointId);
            if (endpoint.isEmpty()) {
                return new Answer.NotFound();
            }
            if (endpoint.get().status() != Endpoint.Status.ENABLED) {
                return new Answer.EndpointNotLive();
            }
            return deliveries
                    .redeliver(merchant, endpointId, deliveryId, clock.instant())
                    .<Answer>map(d -> new Answer.Done(202, WebhookJson.render(d), false))
                    .orElseGet(Answer.NotFound::new);
        });
    }

    /** What an operator's re-enable did: the endpoint is live again and this many dead deliveries were queued. */
    public record Reenabled(Endpoint endpoint, int redelivered) {}

    /** The most given-up deliveries one re-enable queues again; a larger backlog is served by the event feed. */
    public static final int MAX_REDELIVER = 10_000;

    /**
     * An operator's decision after the merchant fixed a disabled endpoint: it takes new events again and, with
     * {@code redeliverDead}, its failed and cancelled deliveries are due again (each is one event the merchant dedupes
     * by id). Empty when the endpoint is not disabled.
     */
    public Optional<Reenabled> reenable(UUID endpointId, boolean redeliverDead) {
        return tx.execute(status -> endpoints
                .reenable(endpointId, clock.instant())
                .map(endpoint -> {
                    int queued =
                            redeliverDead ? deliveries.redeliverDead(endpointId, clock.instant(), MAX_REDELIVER) : 0;
                    log.info(
                            "webhook endpoint re-enabled: merchant={} endpoint={} redelivered={}",
                            endpoint.merchant(),
                            endpoint.publicId(),
                            queued);
                    return new Reenabled(endpoint, queued);
                }));
    }

    /**
     * Claim, act and store the answer in one transaction. A refusal ({@code NotFound}, a limit) is not stored:
     * the transaction rolls back, key included, so a retry is decided afresh.
     */
    private Answer idempotently(ClientKey ck, String fingerprint, UUID resourceId, Supplier<Answer> act) {
        return tx.execute(status -> switch (keys.claim(ck, fingerprint, resourceId)) {
            case Claim.Owned owned -> {
                Answer answer = act.get();
                if (answer instanceof Answer.Done done) {
                    if (!keys.complete(ck, owned.attempt(), done.status(), done.storedBody())) {
                        throw new IllegalStateException("lost the key it just claimed: " + ck);
                    }
                } else {
                    status.setRollbackOnly();
                }
                yield answer;
            }
            case Claim.Replay replay -> new Answer.Done(replay.status(), replay.body(), true);
            case Claim.InFlight inFlight ->
                new Answer.InFlight(inFlight.retryAfter().toSeconds());
            case Claim.Awaiting awaiting -> new Answer.InFlight(1);
            case Claim.Mismatch mismatch -> new Answer.KeyReused();
        });
    }

    public List<Endpoint> list(MerchantId merchant) {
        return endpoints.list(merchant);
    }

    public Optional<Endpoint> find(MerchantId merchant, UUID id) {
        return endpoints.find(merchant, id);
    }

    /** Deletes an endpoint and cancels what was still queued for it; empty when it does not exist. */
    public Optional<Endpoint> delete(MerchantId merchant, UUID id) {
        return tx.execute(status -> endpoints.find(merchant, id).flatMap(found -> {
            Instant now = clock.instant();
            Optional<Endpoint> deleted = endpoints.retire(
                    id, Endpoint.Status.DELETED, List.of(Endpoint.Status.ENABLED, Endpoint.Status.DISABLED), null, now);
            deleted.ifPresent(d -> deliveries.cancelPending(d.id(), now));
            return deleted;
        }));
    }

    public Optional<List<Delivery>> deliveries(MerchantId merchant, UUID endpointId, int limit) {
        return endpoints
                .find(merchant, endpointId)
                .map(e -> deliveries.list(merchant, endpointId, Math.min(limit, MAX_DELIVERIES_LISTED)));
    }

    public Optional<Delivery> delivery(MerchantId merchant, UUID endpointId, UUID deliveryId) {
        return deliveries.find(merchant, endpointId, deliveryId).map(d -> d.withHistory(deliveries.attempts(d.id())));
    }
}
