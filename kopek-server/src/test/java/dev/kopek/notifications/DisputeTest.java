package dev.kopek.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.MoneyMovement;
import dev.kopek.money.PaymentId;
import dev.kopek.simulator.WebhookEvent;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Disputes opened and resolved at the PSP move the payment and its money, once, in any order of arrival. */
class DisputeTest extends IntegrationTest {

    @Autowired
    NotificationInbox inbox;

    private void useKopekAsWebhookReceiver() {
        SIMULATOR.configure(SIMULATOR
                .config()
                .withWebhooks(SIMULATOR.config().webhooks().withUrl(baseUri().resolve("/v1/psp/simulator/webhooks"))));
    }

    private void awaitDelivered(int events) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (SIMULATOR.webhookDeliveries().stream().filter(d -> d.delivered()).count() < events
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @Test
    void lostDisputeChargesBackAndWonDisputeReturnsTheMoney() throws Exception {
        useKopekAsWebhookReceiver();
        Api api = newMerchant();
        Api.Response lost = api.pay(Api.newKey(), Api.payment(newReference(), 8_000, "EUR", "pm_ok"));
        Api.Response won = api.pay(Api.newKey(), Api.payment(newReference(), 5_000, "EUR", "pm_ok"));
        awaitDelivered(2);

        String lostDispute = SIMULATOR.openDispute(lost.text("psp_reference"), null, "fraudulent");
        String wonDispute = SIMULATOR.openDispute(won.text("psp_reference"), 3_000L, "product_not_received");
        awaitDelivered(4);
        assertThat(api.get("/v1/payments/" + lost.text("id")).text("status")).isEqualTo("disputed");
        assertThat(refundOf(api, won.text("id"), 100).status())
                .as("no refunds while disputed")
                .isEqualTo(409);

        SIMULATOR.resolveDispute(lostDispute, false);
        SIMULATOR.resolveDispute(wonDispute, true);
        awaitDelivered(6);

        var lostAfter = api.get("/v1/payments/" + lost.text("id")).json();
        assertThat(lostAfter.get("status").asString()).isEqualTo("charged_back");
        assertThat(lostAfter.get("amount_disputed").asLong()).isEqualTo(8_000);
        var wonAfter = api.get("/v1/payments/" + won.text("id")).json();
        assertThat(wonAfter.get("status").asString()).isEqualTo("captured");
        assertThat(wonAfter.get("amount_disputed").asLong()).isZero();

        assertThat(kinds(lost.text("id")))
                .containsExactly(MoneyMovement.Kind.CAPTURED, MoneyMovement.Kind.CHARGEBACK_WITHDRAWN);
        assertThat(kinds(won.text("id")))
                .containsExactly(
                        MoneyMovement.Kind.CAPTURED,
                        MoneyMovement.Kind.CHARGEBACK_WITHDRAWN,
                        MoneyMovement.Kind.CHARGEBACK_REVERSED);
        assertThat(recorder.typesFor(lost.text("id")))
                .containsExactly("payment.created", "payment.captured", "payment.disputed", "payment.charged_back");
    }

    @Test
    void outcomeArrivingBeforeTheOpeningWaitsAndDuplicatesChangeNothing() throws Exception {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 4_000, "EUR", "pm_ok"));
        String dispute = SIMULATOR.openDispute(paid.text("psp_reference"), null, "fraudulent");
        SIMULATOR.resolveDispute(dispute, false);
        List<WebhookEvent> sent = SIMULATOR.webhookEvents();
        assertThat(sent).as("webhooks are off, nothing was sent").isEmpty();

        String opened = disputeEvent("evt_o_" + dispute, "dispute.opened", dispute, paid.text("psp_reference"));
        String closed = disputeEvent("evt_l_" + dispute, "dispute.lost", dispute, paid.text("psp_reference"));
        assertThat(inbox.receive(sign(closed), closed)).isEqualTo(NotificationInbox.Receipt.ACCEPTED);
        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("captured");
        assertThat(inbox.receive(sign(opened), opened)).isEqualTo(NotificationInbox.Receipt.ACCEPTED);
        assertThat(inbox.receive(sign(opened), opened)).isEqualTo(NotificationInbox.Receipt.DUPLICATE);
        inbox.retryWaiting();

        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("charged_back");
        assertThat(kinds(paid.text("id")))
                .containsExactly(MoneyMovement.Kind.CAPTURED, MoneyMovement.Kind.CHARGEBACK_WITHDRAWN);
    }

    @Test
    void theOtherOutcomeOfADecidedDisputeIsAConflictAndMovesNoMoney() throws Exception {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 4_000, "EUR", "pm_ok"));
        String dispute = SIMULATOR.openDispute(paid.text("psp_reference"), null, "fraudulent");
        String charge = paid.text("psp_reference");
        for (String[] event : new String[][] {
            {"evt_o_", "dispute.opened"},
            {"evt_l_", "dispute.lost"},
            {"evt_l2_", "dispute.lost"},
            {"evt_w_", "dispute.won"}
        }) {
            String body = disputeEvent(event[0] + dispute, event[1], dispute, charge);
            assertThat(inbox.receive(sign(body), body)).isEqualTo(NotificationInbox.Receipt.ACCEPTED);
        }

        assertThat(outcome("evt_l_" + dispute)).isEqualTo("applied");
        assertThat(outcome("evt_l2_" + dispute)).as("the same outcome again").isEqualTo("ignored");
        assertThat(outcome("evt_w_" + dispute))
                .as("won after lost contradicts the chargeback")
                .isEqualTo("conflict");
        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("charged_back");
        assertThat(kinds(paid.text("id")))
                .containsExactly(MoneyMovement.Kind.CAPTURED, MoneyMovement.Kind.CHARGEBACK_WITHDRAWN);
    }

    private String outcome(String eventId) {
        return jdbc.sql("SELECT outcome FROM psp_notifications WHERE event_id = :e")
                .param("e", eventId)
                .query(String.class)
                .single();
    }

    private String disputeEvent(String eventId, String type, String dispute, String charge) {
        return "{\"id\":\"" + eventId + "\",\"type\":\"" + type + "\",\"created\":"
                + clock.instant().getEpochSecond()
                + ",\"data\":{\"id\":\"" + dispute + "\",\"object\":\"dispute\",\"charge_id\":\"" + charge
                + "\",\"amount\":4000,\"currency\":\"EUR\",\"reason\":\"fraudulent\",\"status\":\"open\"}}";
    }

    private String sign(String body) {
        return dev.kopek.simulator.WebhookSignature.header(
                PspWebhookTest.SECRET, clock.instant().getEpochSecond(), body);
    }

    /** The payment's money movements as the journal posted them, in order (phase 3 posts in its own statement). */
    private List<MoneyMovement.Kind> kinds(String paymentId) {
        return jdbc
                .sql("SELECT kind FROM ledger_transactions WHERE payment_id = :id ORDER BY id")
                .param("id", PaymentId.parse(paymentId).orElseThrow().value())
                .query(String.class)
                .list()
                .stream()
                .map(MoneyMovement.Kind::valueOf)
                .toList();
    }

    private static Api.Response refundOf(Api api, String paymentId, long amount) {
        return api.post("/v1/payments/" + paymentId + "/refunds", Api.newKey(), "{\"amount\":" + amount + "}");
    }
}
