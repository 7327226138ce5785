package dev.kopek.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.idempotency.Claim;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.support.Api;
import dev.kopek.support.CrashSwitch;
import dev.kopek.support.IntegrationTest;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Everything stuck between "the PSP moved money" and "Kopek wrote it down" converges, or goes to a person. */
class RecoveryTest extends IntegrationTest {

    private static final Duration PAST_LEASE = Duration.ofSeconds(31);

    @Autowired
    IdempotencyKeys keys;

    @Autowired
    MeterRegistry meters;

    @Test
    void crashBetweenPspSuccessAndPhaseThreeIsSettledByTheReconciler() {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        String body = Api.payment(reference, 1500, "EUR", "pm_ok");
        crash.crashNextPayment();

        assertThat(api.pay(key, body).status()).isEqualTo(500);
        assertThat(status(reference)).isEqualTo("PENDING");
        assertThat(keyStatus(reference)).isEqualTo("IN_PROGRESS");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);

        reconciler.reconcileOnce();
        assertThat(status(reference)).as("the lease has not expired yet").isEqualTo("PENDING");

        clock.advance(PAST_LEASE);
        reconciler.reconcileOnce();

        assertThat(status(reference)).isEqualTo("CAPTURED");
        assertThat(keyStatus(reference)).isEqualTo("COMPLETED");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        Api.Response retry = api.pay(key, body);
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.text("status")).isEqualTo("captured");
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    }

    @Test
    void clientRetryWaitsForTheLeaseThenReclaimsAndAsksThePspFirst() {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        String body = Api.payment(reference, 1500, "EUR", "pm_ok");
        crash.crashNextPayment();
        api.pay(key, body);
        double reclaims = count("kopek.idempotency.reclaims");

        Api.Response early = api.pay(key, body);
        assertThat(early.status()).isEqualTo(409);
        assertThat(early.text("code")).isEqualTo("request_in_progress");
        assertThat(Integer.parseInt(early.header("Retry-After"))).isBetween(1, 30);

        clock.advance(PAST_LEASE);
        Api.Response reclaimed = api.pay(key, body);

        assertThat(reclaimed.status()).isEqualTo(201);
        assertThat(reclaimed.text("status")).isEqualTo("captured");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(SIMULATOR.lookups(providerKey(reference))).isEqualTo(1);
        assertThat(jdbc.sql("SELECT k.attempt FROM idempotency_keys k JOIN payments p ON p.id = k.resource_id"
                                + " WHERE p.reference = :r")
                        .param("r", reference)
                        .query(Integer.class)
                        .single())
                .isEqualTo(2);
        assertThat(count("kopek.idempotency.reclaims"))
                .as("one reclaim, counted for payments")
                .isEqualTo(reclaims + 1);
    }

    /**
     * L4 with a live owner: the first request stalls after the PSP charged, past its lease; the client's retry
     * reclaims the key, learns the charge by lookup and records it. When the stalled owner goes on, its write is
     * refused as stale (counted), it answers what the key holds, and the PSP charged once.
     */
    @Test
    void anOwnerStalledPastItsLeaseIsRefusedAfterARetryReclaimedTheKey() throws Exception {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        String body = Api.payment(reference, 1700, "EUR", "pm_ok");
        double reclaims = count("kopek.idempotency.reclaims");
        double stale = count("kopek.idempotency.stale_attempt_rejections");
        CrashSwitch.Pause stalled = crash.pauseNextPspCall();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Api.Response> first = pool.submit(() -> api.pay(key, body));
            stalled.awaitReached();
            clock.advance(PAST_LEASE);

            Api.Response retry = api.pay(key, body);
            assertThat(retry.status()).isEqualTo(201);
            assertThat(retry.text("status")).isEqualTo("captured");
            assertThat(count("kopek.idempotency.stale_attempt_rejections"))
                    .as("not yet")
                    .isEqualTo(stale);
            stalled.release();
            Api.Response late = first.get();

            assertThat(late.status()).isEqualTo(201);
            assertThat(late.text("id")).isEqualTo(retry.text("id"));
            assertThat(late.text("status")).isEqualTo("captured");
        } finally {
            stalled.release();
        }
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(count("kopek.idempotency.reclaims")).isEqualTo(reclaims + 1);
        assertThat(count("kopek.idempotency.stale_attempt_rejections"))
                .as("the stalled owner's write")
                .isEqualTo(stale + 1);
    }

    private double count(String counter) {
        return meters.counter(counter, "kind", "payment").count();
    }

    /** A capture's 409 names the rest of its owner's lease, as a payment's does, not a fixed second. */
    @Test
    void captureRetryWhileTheOwnerHoldsTheKeyAnswersTheRestOfTheLeaseAsRetryAfter() {
        Api api = newMerchant();
        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + newReference() + "\",\"amount\":4000,"
                        + "\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        String capture = "/v1/payments/" + authorized.text("id") + "/capture";
        String key = Api.newKey();
        crash.crashNextPspCall();
        assertThat(api.post(capture, key, "{\"amount\":4000}").status()).isEqualTo(500);

        clock.advance(Duration.ofSeconds(12));
        Api.Response early = api.post(capture, key, "{\"amount\":4000}");

        assertThat(early.status()).isEqualTo(409);
        assertThat(early.text("code")).isEqualTo("request_in_progress");
        assertThat(Integer.parseInt(early.header("Retry-After")))
                .as("30 s lease, 12 s gone")
                .isBetween(16, 18);
        clock.advance(PAST_LEASE);
        Api.Response reclaimed = api.post(capture, key, "{\"amount\":4000}");
        assertThat(reclaimed.status()).isEqualTo(200);
        assertThat(SIMULATOR.capturedTotal(authorized.text("psp_reference"))).isEqualTo(4_000);
    }

    /**
     * A refund's 409 names the rest of the key's lease too. A refund's phase 1 claims and completes its key in one
     * transaction, so a second request with the key normally waits for it and replays its 202; a key left claimed
     * and unfinished (here claimed through {@link IdempotencyKeys#claim} as phase 1 does, and not completed) is
     * the case that answers 409.
     */
    @Test
    void refundRetryWhileItsKeyIsHeldAnswersTheRestOfTheLeaseAsRetryAfter() {
        var merchant = merchants.create(Api.unique("Merchant"));
        Api api = new Api(baseUri(), merchants.issueKey(merchant.id()).secret());
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 5000, "EUR", "pm_ok"));
        String key = Api.newKey();
        PaymentId payment = PaymentId.parse(paid.text("id")).orElseThrow();
        assertThat(keys.claim(
                        new ClientKey(merchant.id(), OperationKind.REFUND.requestKeySpace(), key),
                        Fingerprint.of(payment.toString(), "2000", null),
                        TimeOrderedIds.next(clock)))
                .isInstanceOf(Claim.Owned.class);

        clock.advance(Duration.ofSeconds(12));
        Api.Response early = api.post("/v1/payments/" + paid.text("id") + "/refunds", key, "{\"amount\":2000}");

        assertThat(early.status()).isEqualTo(409);
        assertThat(early.text("code")).isEqualTo("request_in_progress");
        assertThat(Integer.parseInt(early.header("Retry-After")))
                .as("30 s lease, 12 s gone")
                .isBetween(16, 18);
    }

    @Test
    void abandonedAttemptThatNeverReachedThePspIsChargedOnceWithItsKey() {
        SIMULATOR.configure(SimulatorConfig.defaults().withFaultRates(1.0, 0, 0));
        Api api = newMerchant();
        String reference = newReference();
        crash.crashNextPayment();
        api.pay(Api.newKey(), Api.payment(reference, 1500, "EUR", "pm_ok"));
        SIMULATOR.configure(SimulatorConfig.defaults());
        assertThat(chargesAtPsp(reference)).isZero();

        clock.advance(PAST_LEASE);
        reconciler.reconcileOnce();

        assertThat(status(reference)).isEqualTo("CAPTURED");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void twoReconcilersAndAClientRetryRacingOnOneStuckAttemptLookUpOnce() throws Exception {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        String body = Api.payment(reference, 2500, "EUR", "pm_5xx_after_charge");
        assertThat(api.pay(key, body).status()).isEqualTo(202);
        assertThat(status(reference)).isEqualTo("UNKNOWN");
        clock.advance(PAST_LEASE);

        CyclicBarrier start = new CyclicBarrier(3);
        List<Future<?>> racers = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            racers.add(pool.submit(() -> {
                start.await();
                return reconciler.reconcileOnce();
            }));
            racers.add(pool.submit(() -> {
                start.await();
                return reconciler.reconcileOnce();
            }));
            racers.add(pool.submit(() -> {
                start.await();
                return api.pay(key, body);
            }));
        }
        for (Future<?> racer : racers) {
            racer.get();
        }

        assertThat(SIMULATOR.lookups(providerKey(reference))).isEqualTo(1);
        assertThat(status(reference)).isEqualTo("CAPTURED");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(api.pay(key, body).text("status")).isEqualTo("captured");
    }

    @Test
    void closedProviderKeyWindowGoesToManualReviewAndNeverChargesAgain() {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        String body = Api.payment(reference, 7700, "EUR", "pm_5xx_after_charge");
        assertThat(api.pay(key, body).status()).isEqualTo(202);
        assertThat(chargesAtPsp(reference)).isEqualTo(1);

        clock.advance(Duration.ofHours(25));
        SIMULATOR.advanceClock(Duration.ofHours(25));
        reconciler.reconcileOnce();
        reconciler.reconcileOnce();

        assertThat(chargesAtPsp(reference))
                .as("no new charge once the PSP forgot the key")
                .isEqualTo(1);
        assertThat(SIMULATOR.lookups(providerKey(reference)))
                .as("parked, not polled")
                .isEqualTo(1);
        assertThat(status(reference)).isEqualTo("UNKNOWN");
        Api.Response retry = api.pay(key, body);
        assertThat(retry.status()).isEqualTo(202);
        assertThat(retry.text("status")).isEqualTo("processing");

        Api.Response queue = admin().get("/v1/ops/manual-review?limit=500");
        var item = java.util.stream.StreamSupport.stream(
                        queue.json().get("data").spliterator(), false)
                .filter(r -> r.get("payment_id").asString().equals(retry.text("id")))
                .findFirst()
                .orElseThrow();
        assertThat(item.get("status").asString()).isEqualTo("open");

        String pspReference = recordsAtPsp(reference).getFirst().id();
        String path = "/v1/ops/manual-review/" + item.get("id").asString() + "/resolve";
        Api.Response resolved = admin().post(
                        path,
                        null,
                        "{\"decision\":\"captured\",\"psp_reference\":\"" + pspReference
                                + "\",\"note\":\"seen in the acquirer portal\"}");
        assertThat(resolved.status()).isEqualTo(200);
        assertThat(resolved.text("status")).isEqualTo("resolved");
        assertThat(resolved.text("resolved_by"))
                .as("the admin identity that sent it")
                .isEqualTo("bootstrap");
        assertThat(resolved.text("resolved_at")).isNotNull();

        Api.Response replay = api.pay(key, body);
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.text("status")).isEqualTo("captured");
        assertThat(replay.text("psp_reference")).isEqualTo(pspReference);
        assertThat(admin().post(path, null, "{\"decision\":\"failed\"}").status())
                .isEqualTo(409);
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    private String status(String reference) {
        return jdbc.sql("SELECT status FROM payments WHERE reference = :r")
                .param("r", reference)
                .query(String.class)
                .single();
    }

    private String keyStatus(String reference) {
        return jdbc.sql("SELECT k.status FROM idempotency_keys k JOIN payments p ON p.id = k.resource_id"
                        + " WHERE p.reference = :r")
                .param("r", reference)
                .query(String.class)
                .single();
    }

    private String providerKey(String reference) {
        return jdbc.sql("SELECT provider_key FROM payments WHERE reference = :r")
                .param("r", reference)
                .query(String.class)
                .single();
    }
}
