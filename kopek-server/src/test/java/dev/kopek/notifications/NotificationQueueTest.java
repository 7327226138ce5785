package dev.kopek.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.Race;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 10, defects 4 and 7: the PSP-notification retry queue claims its rows, backs off a row that keeps failing
 * so it never starves the rest, dead-letters it after the allowed tries, never displaces an owner whose lease is
 * live, and closes the review of a parked payment that a notification settles.
 */
class NotificationQueueTest extends IntegrationTest {

    @Autowired
    NotificationInbox inbox;

    /** The poisoned rows of these tests must not sit in front of other test classes' notifications. */
    @AfterEach
    void retirePoison() {
        jdbc.sql("""
                UPDATE psp_notifications SET outcome = 'dead', processed_at = received_at, next_try_at = NULL
                 WHERE provider_key LIKE 'kpk_nobody_%' OR provider_key LIKE 'kpk_ghost_%'
                """).update();
    }

    @Test
    void aPoisonedHeadOfTheQueueNeverStarvesANewerNotification() {
        for (int i = 0; i < 101; i++) {
            deliver(chargeEvent("charge.succeeded", "ch_nobody_" + i, "kpk_nobody_" + UUID.randomUUID()));
        }
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 4_000, "EUR", "pm_ok"));
        clock.advance(Duration.ofSeconds(31));
        String dispute = "dp_" + UUID.randomUUID();
        storeUnapplied(dispute, disputeEvent(dispute, paid.text("psp_reference")));

        for (int pass = 0; pass < 5 && outcome(dispute).equals("waiting"); pass++) {
            inbox.retryWaiting();
        }

        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("disputed");
        assertThat(outcome(dispute)).isEqualTo("applied");
    }

    @Test
    void aNotificationThatNeverAppliesIsDeadLetteredWithAReviewItem() {
        String eventId = deliver(chargeEvent("charge.succeeded", "ch_ghost", "kpk_ghost_" + UUID.randomUUID()));
        for (int pass = 0; pass < 12; pass++) {
            clock.advance(Duration.ofHours(2));
            inbox.retryWaiting();
        }
        var row = jdbc.sql("SELECT id, outcome, tries FROM psp_notifications WHERE event_id = :e")
                .param("e", eventId)
                .query((rs, n) ->
                        new Object[] {rs.getObject("id", UUID.class), rs.getString("outcome"), rs.getInt("tries")})
                .single();
        assertThat(row[1]).isEqualTo("dead");
        assertThat(row[2]).isEqualTo(10);
        long reviews = jdbc.sql("""
                SELECT count(*) FROM manual_reviews WHERE subject = 'notification' AND subject_id = :id
                   AND status = 'OPEN'
                """).param("id", row[0]).query(Long.class).single();
        assertThat(reviews).isEqualTo(1);
    }

    @Test
    void twoRetryPassesApplyOneWaitingNotificationOnce() throws Exception {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 4_000, "EUR", "pm_ok"));
        String dispute = "dp_" + UUID.randomUUID();
        storeUnapplied(dispute, disputeEvent(dispute, paid.text("psp_reference")));
        clock.advance(Duration.ofSeconds(1));

        Race.of(4, i -> inbox.retryWaiting());

        assertThat(outcome(dispute)).isEqualTo("applied");
        assertThat(jdbc.sql("SELECT count(*) FROM disputes WHERE psp_dispute_id = :d")
                        .param("d", dispute)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void aNotificationWaitsForAnOwnerWhoseLeaseIsLive() {
        Api api = newMerchant();
        Api.Response processing = api.pay(Api.newKey(), Api.payment(newReference(), 2_500, "EUR", "pm_webhook_only"));
        assertThat(processing.status()).isEqualTo(202);
        UUID payment = PaymentId.parse(processing.text("id")).orElseThrow().value();
        // An owner took the key over and is between its PSP call and phase 3.
        jdbc.sql("""
                UPDATE idempotency_keys SET status = 'IN_PROGRESS', attempt = attempt + 1, lease_until = :lease
                 WHERE resource_id = :payment
                """)
                .param("lease", Db.at(clock.instant().plus(Duration.ofSeconds(30))))
                .param("payment", payment)
                .update();
        int attempt = attemptOf(payment);

        String eventId = deliver(chargeEvent("charge.succeeded", "ch_" + UUID.randomUUID(), providerKey(payment)));

        assertThat(attemptOf(payment)).as("the live owner keeps the key").isEqualTo(attempt);
        assertThat(api.get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("processing");
        clock.advance(Duration.ofSeconds(31));
        retryUntilDone(eventId);
        assertThat(api.get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("captured");
        assertThat(jdbc.sql("SELECT outcome FROM psp_notifications WHERE event_id = :e")
                        .param("e", eventId)
                        .query(String.class)
                        .single())
                .isEqualTo("applied");
    }

    @Test
    void aNotificationSettlingAParkedPaymentClosesItsReview() {
        Api api = newMerchant();
        Api.Response processing = api.pay(Api.newKey(), Api.payment(newReference(), 3_300, "EUR", "pm_webhook_only"));
        UUID payment = PaymentId.parse(processing.text("id")).orElseThrow().value();
        clock.advance(Duration.ofHours(25));
        SIMULATOR.advanceClock(Duration.ofHours(25));
        reconciler.reconcileOnce();
        assertThat(reviewStatus(payment)).isEqualTo("OPEN");

        deliver(chargeEvent("charge.succeeded", "ch_" + UUID.randomUUID(), providerKey(payment)));

        assertThat(api.get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("captured");
        assertThat(reviewStatus(payment)).isEqualTo("RESOLVED");
        assertThat(jdbc.sql("SELECT resolved_by || '/' || resolution FROM manual_reviews WHERE subject_id = :p")
                        .param("p", payment)
                        .query(String.class)
                        .single())
                .isEqualTo("psp-notification/captured");
    }

    private void retryUntilDone(String eventId) {
        for (int pass = 0;
                pass < 5
                        && jdbc.sql("SELECT processed_at IS NULL FROM psp_notifications WHERE event_id = :e")
                                .param("e", eventId)
                                .query(Boolean.class)
                                .single();
                pass++) {
            inbox.retryWaiting();
        }
    }

    private String reviewStatus(UUID payment) {
        return jdbc.sql("SELECT status FROM manual_reviews WHERE subject = 'payment' AND subject_id = :p")
                .param("p", payment)
                .query(String.class)
                .single();
    }

    private int attemptOf(UUID payment) {
        return jdbc.sql("SELECT attempt FROM idempotency_keys WHERE resource_id = :p")
                .param("p", payment)
                .query(Integer.class)
                .single();
    }

    private String providerKey(UUID payment) {
        return SimulatorEvents.providerKey(jdbc, payment);
    }

    private String outcome(String disputeId) {
        return jdbc.sql("SELECT coalesce(outcome, 'waiting') FROM psp_notifications WHERE psp_reference = :d")
                .param("d", disputeId)
                .query(String.class)
                .single();
    }

    /** A notification stored but never applied: the receiving process died in between. */
    private void storeUnapplied(String dispute, String body) {
        jdbc.sql("""
                INSERT INTO psp_notifications (id, provider, event_id, type, psp_reference, payload, received_at, tries,
                                               next_try_at)
                VALUES (:id, 'simulator', :event, 'dispute.opened', :ref, :payload, :now, 1, :now)
                """)
                .param("id", TimeOrderedIds.next(clock))
                .param("event", body.substring(7, body.indexOf('"', 7)))
                .param("ref", dispute)
                .param("payload", body)
                .param("now", Db.at(clock.instant()))
                .update();
    }

    private String deliver(String body) {
        return SimulatorEvents.deliver(inbox, clock, body);
    }

    private String chargeEvent(String type, String chargeId, String providerKey) {
        return SimulatorEvents.charge(clock, type, chargeId, providerKey);
    }

    private String disputeEvent(String dispute, String charge) {
        return "{\"id\":\"evt_" + UUID.randomUUID() + "\",\"type\":\"dispute.opened\",\"created\":"
                + clock.instant().getEpochSecond() + ",\"data\":{\"id\":\"" + dispute
                + "\",\"object\":\"dispute\",\"charge_id\":\"" + charge
                + "\",\"amount\":4000,\"currency\":\"EUR\",\"reason\":\"fraudulent\",\"status\":\"open\"}}";
    }
}
