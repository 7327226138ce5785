package dev.kopek.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.StreamSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 24, defect 9: a person's decision and a PSP notification about one parked payment take their locks in one
 * order (the payment's key, then its review), so they never deadlock. The interleaving that deadlocked is made certain
 * by holding the payment's row: the notification's phase 3 then waits there holding the key, and the decision comes
 * in while it waits.
 */
class DecisionRacingNotificationTest extends IntegrationTest {

    @Autowired
    NotificationInbox inbox;

    @Autowired
    DataSource dataSource;

    /** The PSP keeps the charge processing, so the payment is parked for a person past the key window. */
    @BeforeEach
    void slowAcquirer() {
        SIMULATOR.configure(
                SIMULATOR.config().withWebhooks(SIMULATOR.config().webhooks().withDelayMillis(600_000)));
    }

    @Test
    void aDecisionAndANotificationOnOneParkedPaymentNeverDeadlockAndAgreeOnOneOutcome() throws Exception {
        Api api = newMerchant();
        Api.Response processing = api.pay(Api.newKey(), Api.payment(newReference(), 4_200, "EUR", "pm_webhook_only"));
        UUID payment = PaymentId.parse(processing.text("id")).orElseThrow().value();
        clock.advance(Duration.ofHours(25));
        SIMULATOR.advanceClock(Duration.ofHours(25));
        reconciler.reconcileOnce();
        String review = openReview(processing.text("id"));
        String body =
                SimulatorEvents.charge(clock, "charge.succeeded", "ch_" + UUID.randomUUID(), providerKey(payment));

        Api.Response decided;
        String eventId;
        try (Connection holder = dataSource.getConnection();
                var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT 1 FROM payments WHERE id = ? FOR UPDATE")) {
                lock.setObject(1, payment);
                lock.execute();
            }
            Future<String> notified = threads.submit(() -> SimulatorEvents.deliver(inbox, clock, body));
            // The notification's phase 3 holds the key and waits for the payment's row.
            awaitWaiting("query LIKE '%UPDATE payments%'");
            Future<Api.Response> decision = threads.submit(() -> admin().post(
                            "/v1/ops/manual-review/" + review + "/resolve",
                            null,
                            "{\"decision\":\"captured\",\"psp_reference\":\"ch_from_the_dashboard\"}"));
            // The decision comes in and waits for what the notification holds.
            awaitWaiting("query LIKE '%idempotency_keys%' AND query NOT LIKE '%UPDATE payments%'");
            holder.commit();
            eventId = notified.get();
            decided = decision.get();
        }

        assertThat(outcome(eventId)).as("the notification applied, not aborted").isEqualTo("applied");
        assertThat(decided.status())
                .as("the decision found the payment settled, not a deadlock: " + decided.body())
                .isEqualTo(409);
        assertThat(decided.text("code")).isEqualTo("review_not_open");
        assertThat(api.get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("captured");
        assertThat(jdbc.sql("SELECT resolved_by FROM manual_reviews WHERE subject_id = :p")
                        .param("p", payment)
                        .query(String.class)
                        .single())
                .isEqualTo("psp-notification");
        assertThat(jdbc.sql("SELECT count(*) FROM ledger_transactions WHERE payment_id = :p AND kind = 'CAPTURED'")
                        .param("p", payment)
                        .query(Long.class)
                        .single())
                .as("captured once")
                .isEqualTo(1);
    }

    /** Until a session of this database whose statement matches {@code which} waits for a lock (bounded: 20 s). */
    private void awaitWaiting(String which) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (jdbc.sql("""
                        SELECT count(*) FROM pg_stat_activity
                         WHERE datname = current_database() AND wait_event_type = 'Lock' AND %s
                        """.formatted(which)).query(Long.class).single() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no session came to wait for a lock where " + which);
            }
            Thread.onSpinWait();
        }
    }

    private String openReview(String paymentId) {
        var queue = admin().get("/v1/ops/manual-review?limit=500").json().get("data");
        return StreamSupport.stream(queue.spliterator(), false)
                .filter(r -> r.get("subject").asString().equals("payment")
                        && paymentId.equals(r.get("payment_id").asString()))
                .findFirst()
                .orElseThrow()
                .get("id")
                .asString();
    }

    private String outcome(String eventId) {
        return SimulatorEvents.outcome(jdbc, eventId);
    }

    private String providerKey(UUID payment) {
        return SimulatorEvents.providerKey(jdbc, payment);
    }
}
