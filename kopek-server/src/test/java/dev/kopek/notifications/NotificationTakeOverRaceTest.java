package dev.kopek.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.payments.PaymentService;
import dev.kopek.support.Api;
import dev.kopek.support.CrashSwitch;
import dev.kopek.support.IntegrationTest;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 24, defect 1: a PSP notification that has taken a payment's key over holds it with a lease of its own until
 * its phase 3, so no reconciler takes the key from under it; and a notification displaced before its phase 3 is never
 * finished as "applied": it stays in the inbox and is decided again against what the other writer recorded. Each
 * interleaving is made certain by holding the notification between its take-over and its phase 3.
 */
class NotificationTakeOverRaceTest extends IntegrationTest {

    @Autowired
    NotificationInbox inbox;

    /** The PSP keeps the charge processing for the whole test: a lookup by key cannot tell its outcome yet. */
    @BeforeEach
    void slowAcquirer() {
        SIMULATOR.configure(
                SIMULATOR.config().withWebhooks(SIMULATOR.config().webhooks().withDelayMillis(600_000)));
    }

    @Test
    void aReconcilerNeverTakesAKeyFromANotificationBetweenItsTakeOverAndItsPhaseThree() throws Exception {
        Api api = newMerchant();
        Api.Response processing = api.pay(Api.newKey(), Api.payment(newReference(), 2_700, "EUR", "pm_webhook_only"));
        assertThat(processing.status()).isEqualTo(202);
        UUID payment = PaymentId.parse(processing.text("id")).orElseThrow().value();
        String providerKey = providerKey(payment);
        // Past the grace: the reconciler may take the key over now, and so may a notification.
        clock.advance(Duration.ofSeconds(31));

        CrashSwitch.Pause held = crash.pauseNextNotification();
        String body = SimulatorEvents.charge(clock, "charge.succeeded", "ch_" + UUID.randomUUID(), providerKey);
        try (var thread = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> notified = thread.submit(() -> SimulatorEvents.deliver(inbox, clock, body));
            held.awaitReached();
            int attempt = keyAttempt(payment);
            // A pass takes whatever the whole database has due, earlier tests' stuck payments too: what matters is
            // whether it took this key, which only a take-over's new attempt shows.
            reconciler.reconcileOnce();
            int afterThePass = keyAttempt(payment);
            held.release();
            String eventId = notified.get();

            assertThat(api.get("/v1/payments/" + processing.text("id")).text("status"))
                    .as("the outcome the PSP told Kopek is recorded")
                    .isEqualTo("captured");
            assertThat(outcome(eventId)).isEqualTo("applied");
            assertThat(afterThePass)
                    .as("the reconciler took no key a notification holds")
                    .isEqualTo(attempt);
            assertThat(SIMULATOR.lookups(providerKey))
                    .as("nobody asked the PSP: the notification had told Kopek")
                    .isZero();
        }
        assertThat(SIMULATOR.chargeRequests(providerKey)).as("sent once").isEqualTo(1);
    }

    @Test
    void aNotificationDisplacedBeforeItsPhaseThreeIsRetriedAndItsContradictionReported() throws Exception {
        Api api = newMerchant();
        Api.Response processing = api.pay(Api.newKey(), Api.payment(newReference(), 1_900, "EUR", "pm_webhook_only"));
        UUID payment = PaymentId.parse(processing.text("id")).orElseThrow().value();
        String providerKey = providerKey(payment);

        CrashSwitch.Pause held = crash.pauseNextNotification();
        String succeeded = SimulatorEvents.charge(clock, "charge.succeeded", "ch_" + UUID.randomUUID(), providerKey);
        try (var thread = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> first = thread.submit(() -> SimulatorEvents.deliver(inbox, clock, succeeded));
            held.awaitReached();
            // A second notification about the same charge, contradicting the first, settles the payment meanwhile.
            String declined = SimulatorEvents.charge(clock, "charge.declined", "ch_" + UUID.randomUUID(), providerKey);
            SimulatorEvents.deliver(inbox, clock, declined);
            held.release();
            String eventId = first.get();

            assertThat(api.get("/v1/payments/" + processing.text("id")).text("status"))
                    .isEqualTo("declined");
            assertThat(outcome(eventId))
                    .as("refused as a stale owner: it recorded nothing, so it is not done")
                    .isEqualTo("waiting");
            clock.advance(Duration.ofSeconds(1));
            inbox.retryWaiting();
            assertThat(outcome(eventId))
                    .as("the PSP's 'succeeded' against Kopek's 'declined' goes to a person")
                    .isEqualTo("conflict");
        }
    }

    private String outcome(String eventId) {
        return SimulatorEvents.outcome(jdbc, eventId);
    }

    /** The fence of the payment's key: each take-over, by a notification or the reconciler, moves it on. */
    private int keyAttempt(UUID payment) {
        return jdbc.sql("SELECT attempt FROM idempotency_keys WHERE resource_id = :payment AND operation = :operation")
                .param("payment", payment)
                .param("operation", PaymentService.OPERATION)
                .query(Integer.class)
                .single();
    }

    private String providerKey(UUID payment) {
        return SimulatorEvents.providerKey(jdbc, payment);
    }
}
