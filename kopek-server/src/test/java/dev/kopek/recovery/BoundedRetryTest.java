package dev.kopek.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.notifications.NotificationInbox;
import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 10, defects 7 and 8: unknown outcomes resolve in minutes by a bounded policy and a lookup by key inside the
 * PSP's key window; versions (event sequences) change only with a real state change; a succeeded refund keeps no
 * old failure; authorization holds of disputed and charged-back payments are released at expiry.
 */
class BoundedRetryTest extends IntegrationTest {

    @Autowired
    NotificationInbox inbox;

    @Test
    void aPaymentThePspNeverChargedFailsAfterItsTriesAndFreesTheIntentWithoutSequenceGaps() {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response first = api.pay(Api.newKey(), Api.payment(reference, 1_200, "EUR", "pm_5xx_no_charge"));
        assertThat(first.status()).isEqualTo(202);

        for (int pass = 0;
                pass < 6
                        && !api.get("/v1/payments/" + first.text("id"))
                                .text("status")
                                .equals("failed");
                pass++) {
            clock.advance(Duration.ofMinutes(10));
            reconciler.reconcileOnce();
        }

        var payment = api.get("/v1/payments/" + first.text("id")).json();
        assertThat(payment.get("status").asString())
                .as("failed well inside the 24 h key window")
                .isEqualTo("failed");
        assertThat(chargesAtPsp(reference)).isZero();
        UUID id = PaymentId.parse(first.text("id")).orElseThrow().value();
        int version = jdbc.sql("SELECT version FROM payments WHERE id = :id")
                .param("id", id)
                .query(Integer.class)
                .single();
        List<Long> sequences = jdbc.sql("SELECT sequence FROM outbox WHERE resource_id = :id ORDER BY sequence")
                .param("id", id)
                .query(Long.class)
                .list();
        assertThat(sequences).as("one event per version, no gaps").containsExactly(0L, 1L, 2L);
        assertThat(version).isEqualTo(2);
        assertThat(api.pay(Api.newKey(), Api.payment(reference, 1_200, "EUR", "pm_ok"))
                        .status())
                .as("the intent is free again")
                .isEqualTo(201);
    }

    @Test
    void aRefundThatSucceedsAfterAnUnknownTryKeepsNoFailureReason() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 10_000, "EUR", "pm_ok"));
        SIMULATOR.armFault("refund", paid.text("psp_reference"), "5xx_after_success", 1);
        Api.Response refund =
                api.post("/v1/payments/" + paid.text("id") + "/refunds", Api.newKey(), "{\"amount\":3000}");
        reconciler.reconcileOnce();
        assertThat(api.get("/v1/refunds/" + refund.text("id"))
                        .json()
                        .get("failure_reason")
                        .isNull())
                .isFalse();

        clock.advance(Duration.ofMinutes(5));
        reconciler.reconcileOnce();

        var after = api.get("/v1/refunds/" + refund.text("id")).json();
        assertThat(after.get("status").asString()).isEqualTo("succeeded");
        assertThat(after.get("failure_reason").isNull()).isTrue();
    }

    @Test
    void theUncapturedRestOfADisputedPaymentIsReleasedAtExpiry() {
        Api api = newMerchant();
        Api.Response authorized = authorizeTenThousand(api);
        String id = authorized.text("id");
        assertThat(api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":4000}")
                        .status())
                .isEqualTo(200);
        dispute("dispute.opened", Api.unique("dp"), authorized.text("psp_reference"), 4000);
        assertThat(api.get("/v1/payments/" + id).text("status")).isEqualTo("disputed");

        expire(authorized);

        var payment = api.get("/v1/payments/" + id).json();
        assertThat(payment.get("amount_capturable").asLong()).isZero();
        assertThat(released(id)).containsExactly(6_000L);
    }

    @Test
    void theUncapturedRestOfAChargedBackPaymentIsReleasedAtExpiry() {
        Api api = newMerchant();
        Api.Response authorized = authorizeTenThousand(api);
        String id = authorized.text("id");
        assertThat(api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":3000}")
                        .status())
                .isEqualTo(200);
        String disputeId = Api.unique("dp");
        dispute("dispute.opened", disputeId, authorized.text("psp_reference"), 3000);
        dispute("dispute.lost", disputeId, authorized.text("psp_reference"), 3000);
        assertThat(api.get("/v1/payments/" + id).text("status")).isEqualTo("charged_back");

        expire(authorized);

        var payment = api.get("/v1/payments/" + id).json();
        assertThat(payment.get("status").asString()).as("final, and stays so").isEqualTo("charged_back");
        assertThat(payment.get("amount_capturable").asLong()).isZero();
        assertThat(released(id)).containsExactly(7_000L);
    }

    private Api.Response authorizeTenThousand(Api api) {
        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + newReference() + "\",\"amount\":10000,"
                        + "\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        assertThat(authorized.text("status")).isEqualTo("authorized");
        return authorized;
    }

    private void dispute(String type, String disputeId, String charge, long amount) {
        String body = "{\"id\":\"" + Api.unique("evt") + "\",\"type\":\"" + type + "\",\"created\":"
                + clock.instant().getEpochSecond() + ",\"data\":{\"id\":\"" + disputeId
                + "\",\"object\":\"dispute\",\"charge_id\":\"" + charge + "\",\"amount\":" + amount
                + ",\"currency\":\"EUR\",\"reason\":\"fraudulent\",\"status\":\""
                + (type.equals("dispute.lost") ? "lost" : "open") + "\"}}";
        assertThat(inbox.receive(
                        WebhookSignature.header(
                                "whsec_simulator", clock.instant().getEpochSecond(), body),
                        body))
                .isEqualTo(NotificationInbox.Receipt.ACCEPTED);
    }

    /** Moves past the authorization's capture_before and runs one reconciler pass. */
    private void expire(Api.Response authorized) {
        Instant captureBefore = Instant.parse(authorized.text("capture_before"));
        clock.advance(Duration.between(clock.instant(), captureBefore).plusMinutes(1));
        reconciler.reconcileOnce();
    }

    private List<Long> released(String paymentId) {
        return jdbc.sql("""
                SELECT amount_minor FROM ledger_transactions WHERE payment_id = :p AND kind = 'AUTHORIZATION_RELEASED'
                """)
                .param("p", PaymentId.parse(paymentId).orElseThrow().value())
                .query(Long.class)
                .list();
    }
}
