package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.MerchantId;
import dev.kopek.psp.MerchantPsp;
import dev.kopek.psp.MerchantPspStore;
import dev.kopek.support.Api;
import dev.kopek.support.Race;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 15: a merchant's first payments race an admin's change of its PSP (simulator → its own Stripe account). Each
 * payment is charged once, at the PSP account it records, and later looked up and recovered there, whatever its
 * merchant's setting says by then. Counted at the simulator and at the Stripe stub.
 */
class PspChangeRaceTest extends MerchantsOnStripe {

    private static final int PAYMENTS = 4;
    private static final int ROUNDS = 8;

    @Autowired
    MerchantPspStore store;

    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void firstPaymentsRacingAPspChangeStayAtThePspTheyWereSentTo() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Merchant merchant = merchant();
            List<String> references = new ArrayList<>();
            for (int i = 0; i < PAYMENTS; i++) {
                references.add(newReference());
            }

            List<Api.Response> answers = Race.of(
                    PAYMENTS + 1,
                    i -> i == PAYMENTS
                            ? putPsp(merchant.id(), onStripe(StripeStub.WEBHOOK_SECRET))
                            : merchant.api()
                                    .pay(Api.newKey(), payment(references.get(i), 1_000 + i, "pm_ok", "automatic")));

            int change = answers.get(PAYMENTS).status();
            assertThat(change)
                    .as("round %d: the change is made or refused", round)
                    .isIn(200, 409);
            // Made: it was wholly before every payment, which all went to Stripe. Refused: a payment came first,
            // and the merchant stayed on the simulator with all of them.
            String expected = change == 200 ? "stripe" : "configured";
            for (int i = 0; i < PAYMENTS; i++) {
                String reference = references.get(i);
                assertThat(answers.get(i).text("status"))
                        .as("round %d payment %d", round, i)
                        .isEqualTo("captured");
                assertThat(account(reference))
                        .as("round %d payment %d: recorded account", round, i)
                        .isEqualTo(expected);
                assertThat(chargesAtPsp(reference) + STRIPE.chargedIntents(reference))
                        .as("charged once in all")
                        .isEqualTo(1);
                assertThat(change == 409 ? chargesAtPsp(reference) : STRIPE.chargedIntents(reference))
                        .as("round %d payment %d: charged where it says", round, i)
                        .isEqualTo(1);
            }
        }
    }

    /**
     * The order the race above leaves to chance, made certain: the change holds the merchant's row when the first
     * payment's one-statement phase 1 begins (its snapshot is older than the change's commit). The payment waits for
     * the row, reads the account the change left on it, and is charged at Stripe, once.
     */
    @Test
    void aFirstPaymentWaitingForAPspChangeRecordsTheNewAccount() throws Exception {
        Merchant merchant = merchant();
        MerchantId id = MerchantId.parse(merchant.id()).orElseThrow();
        String reference = newReference();
        CountDownLatch changed = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        TransactionTemplate tx = new TransactionTemplate(transactions);
        // Threads of their own: the common pool may have a single worker, and the change blocks it on purpose.
        ExecutorService threads = Executors.newFixedThreadPool(2);
        CompletableFuture<Void> change = CompletableFuture.runAsync(
                () -> tx.executeWithoutResult(status -> {
                    store.lockMerchant(id);
                    assertThat(store.hasPayments(id)).isFalse();
                    store.save(
                            id,
                            "stripe",
                            new MerchantPsp.Credentials(StripeStub.SECRET_KEY, List.of(StripeStub.WEBHOOK_SECRET)),
                            clock.instant());
                    changed.countDown();
                    await(commit);
                }),
                threads);
        await(changed);
        CompletableFuture<Api.Response> paid = CompletableFuture.supplyAsync(
                () -> merchant.api().pay(Api.newKey(), payment(reference, 1_500, "pm_ok", "automatic")), threads);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (waitingForARowLock() == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(waitingForARowLock())
                .as(
                        "the payment waits for the merchant's row; sessions: %s",
                        jdbc.sql("""
                SELECT string_agg(state || ' ' || coalesce(wait_event_type, '-') || ' ' || left(query, 60), ' | ')
                  FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                """).query(String.class).single())
                .isPositive();
        commit.countDown();
        change.get(10, TimeUnit.SECONDS);

        assertThat(paid.get(10, TimeUnit.SECONDS).text("status")).isEqualTo("captured");
        threads.shutdown();
        assertThat(account(reference)).isEqualTo("stripe");
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
        assertThat(chargesAtPsp(reference)).isZero();
    }

    private long waitingForARowLock() {
        return jdbc.sql("""
                SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                 WHERE NOT l.granted AND a.query LIKE '%account AS MATERIALIZED%'
                """).query(Long.class).single();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The merchant's setting changes under an unknown payment (as an instance whose cache was stale, or the race
     * above before it was closed, could make it): the reconciler still looks the payment up at the simulator it was
     * sent to, settles it there once, and never asks Stripe.
     */
    @Test
    void anUnknownPaymentIsLookedUpWhereItWasSentWhateverItsMerchantSaysNow() {
        Merchant merchant = merchant();
        String reference = newReference();
        Api.Response unknown =
                merchant.api().pay(Api.newKey(), payment(reference, 2_500, "pm_5xx_after_charge", "automatic"));
        assertThat(unknown.status()).isEqualTo(202);
        MerchantId id = MerchantId.parse(merchant.id()).orElseThrow();
        store.save(
                id,
                "stripe",
                new MerchantPsp.Credentials(StripeStub.SECRET_KEY, List.of(StripeStub.WEBHOOK_SECRET)),
                clock.instant());
        String providerKey = jdbc.sql("SELECT provider_key FROM payments WHERE reference = :r")
                .param("r", reference)
                .query(String.class)
                .single();

        // Past the lease, inside the 5-minute signature tolerance the other classes of this context sign within.
        clock.advance(Duration.ofSeconds(31));
        reconciler.reconcileOnce();

        assertThat(merchant.api().get("/v1/payments/" + unknown.text("id")).text("status"))
                .isEqualTo("captured");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(STRIPE.requests())
                .as("Stripe was never asked about it (other tests' payments may be)")
                .noneMatch(
                        r -> r.toString().contains(providerKey) || r.toString().contains(reference));
        assertThat(STRIPE.chargedIntents(reference)).isZero();
    }

    private String account(String reference) {
        return jdbc.sql("SELECT coalesce(psp_account, 'configured') FROM payments WHERE reference = :r")
                .param("r", reference)
                .query(String.class)
                .single();
    }
}
