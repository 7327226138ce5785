package dev.kopek.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 10, defects 1 and 2: a chargeback is a fact the PSP reports after it took the money, so Kopek records and
 * posts it whatever the payment's state; where refunds and chargebacks together exceed what was captured, the
 * overlap is recorded and a person is asked to look at it — never refused, never retried forever.
 */
class ChargebackAlwaysRecordedTest extends IntegrationTest {

    @Autowired
    NotificationInbox inbox;

    @Test
    void chargebackOnAFullyRefundedPaymentIsRecordedPostedAndReviewed() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 10_000, "EUR", "pm_ok"));
        refund(api, paid.text("id"), 10_000);
        reconciler.reconcileOnce();
        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("refunded");

        String event = dispute(paid.text("psp_reference"), "dispute.opened", 10_000);

        assertThat(outcomeOf(event)).isEqualTo("applied");
        var payment = api.get("/v1/payments/" + paid.text("id")).json();
        assertThat(payment.get("status").asString()).isEqualTo("disputed");
        assertThat(payment.get("amount_disputed").asLong()).isEqualTo(10_000);
        assertThat(posted(paid.text("id"), "CHARGEBACK_WITHDRAWN")).containsExactly(10_000L);
        assertThat(openExposureReviews(paid.text("id"))).isEqualTo(1);
    }

    @Test
    void secondAndOversizedDisputesAreRecordedAndTheLostOneChargesBackOnceAllAreClosed() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 10_000, "EUR", "pm_ok"));
        refund(api, paid.text("id"), 4_000);
        reconciler.reconcileOnce();
        String charge = paid.text("psp_reference");

        String full = dispute(charge, "dispute.opened", 10_000);
        String second = dispute(charge, "dispute.opened", 3_000);
        assertThat(outcomeOf(full)).isEqualTo("applied");
        assertThat(outcomeOf(second)).isEqualTo("applied");
        assertThat(api.get("/v1/payments/" + paid.text("id"))
                        .json()
                        .get("amount_disputed")
                        .asLong())
                .isEqualTo(13_000);
        assertThat(openExposureReviews(paid.text("id")))
                .as("each overlapping dispute is a review")
                .isEqualTo(2);

        close(full, "dispute.lost");
        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status"))
                .as("still disputed while the second is open")
                .isEqualTo("disputed");
        close(second, "dispute.won");

        var after = api.get("/v1/payments/" + paid.text("id")).json();
        assertThat(after.get("status").asString()).isEqualTo("charged_back");
        assertThat(after.get("amount_disputed").asLong()).isEqualTo(10_000);
        assertThat(posted(paid.text("id"), "CHARGEBACK_WITHDRAWN")).containsExactlyInAnyOrder(10_000L, 3_000L);
        assertThat(posted(paid.text("id"), "CHARGEBACK_REVERSED")).containsExactly(3_000L);
    }

    @Test
    void refundConfirmedWhileAFullDisputeIsOpenIsRecordedAndReviewed() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 10_000, "EUR", "pm_ok"));
        Api.Response refund = refund(api, paid.text("id"), 10_000);
        assertThat(refund.text("status")).isEqualTo("pending");
        assertThat(outcomeOf(dispute(paid.text("psp_reference"), "dispute.opened", 10_000)))
                .isEqualTo("applied");

        reconciler.reconcileOnce();

        assertThat(api.get("/v1/refunds/" + refund.text("id")).text("status")).isEqualTo("succeeded");
        var payment = api.get("/v1/payments/" + paid.text("id")).json();
        assertThat(payment.get("status").asString()).isEqualTo("disputed");
        assertThat(payment.get("amount_refunded").asLong()).isEqualTo(10_000);
        assertThat(payment.get("amount_disputed").asLong()).isEqualTo(10_000);
        assertThat(posted(paid.text("id"), "REFUND_SUCCEEDED")).containsExactly(10_000L);
        assertThat(openExposureReviews(paid.text("id"))).isEqualTo(1);
    }

    private static Api.Response refund(Api api, String paymentId, long amount) {
        Api.Response accepted =
                api.post("/v1/payments/" + paymentId + "/refunds", Api.newKey(), "{\"amount\":" + amount + "}");
        assertThat(accepted.status()).isEqualTo(202);
        return accepted;
    }

    /** Delivers a signed dispute notification; returns the PSP's dispute id. */
    private String dispute(String charge, String type, long amount) {
        String disputeId = "dp_" + UUID.randomUUID();
        deliver(disputeId, type, charge, amount);
        return disputeId;
    }

    private void close(String disputeId, String type) {
        String charge = jdbc.sql("""
                SELECT p.psp_reference FROM disputes d JOIN payments p ON p.id = d.payment_id
                 WHERE d.psp_dispute_id = :id
                """).param("id", disputeId).query(String.class).single();
        long amount = jdbc.sql("SELECT amount FROM disputes WHERE psp_dispute_id = :id")
                .param("id", disputeId)
                .query(Long.class)
                .single();
        assertThat(outcomeOf(deliver(disputeId, type, charge, amount))).isEqualTo("applied");
    }

    private String deliver(String disputeId, String type, String charge, long amount) {
        String eventId = "evt_" + UUID.randomUUID();
        String body = "{\"id\":\"" + eventId + "\",\"type\":\"" + type + "\",\"created\":"
                + clock.instant().getEpochSecond() + ",\"data\":{\"id\":\"" + disputeId
                + "\",\"object\":\"dispute\",\"charge_id\":\"" + charge + "\",\"amount\":" + amount
                + ",\"currency\":\"EUR\",\"reason\":\"fraudulent\",\"status\":\"open\"}}";
        String signature = dev.kopek.simulator.WebhookSignature.header(
                PspWebhookTest.SECRET, clock.instant().getEpochSecond(), body);
        assertThat(inbox.receive(signature, body)).isEqualTo(NotificationInbox.Receipt.ACCEPTED);
        return eventId;
    }

    /** The outcome recorded for the notification whose PSP dispute id or event id this is. */
    private String outcomeOf(String id) {
        return jdbc.sql("""
                SELECT coalesce(outcome, 'waiting') FROM psp_notifications
                 WHERE event_id = :id OR (psp_reference = :id AND type = 'dispute.opened')
                """).param("id", id).query(String.class).single();
    }

    private List<Long> posted(String paymentId, String kind) {
        return jdbc.sql("SELECT amount_minor FROM ledger_transactions WHERE payment_id = :payment AND kind = :kind")
                .param("payment", PaymentId.parse(paymentId).orElseThrow().value())
                .param("kind", kind)
                .query(Long.class)
                .list();
    }

    private long openExposureReviews(String paymentId) {
        return jdbc.sql("""
                SELECT count(*) FROM manual_reviews
                 WHERE payment_id = :payment AND subject = 'exposure' AND status = 'OPEN'
                """)
                .param("payment", PaymentId.parse(paymentId).orElseThrow().value())
                .query(Long.class)
                .single();
    }
}
