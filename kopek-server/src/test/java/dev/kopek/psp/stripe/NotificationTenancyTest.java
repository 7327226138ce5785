package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.notifications.NotificationInbox;
import dev.kopek.platform.Db;
import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 15, tenant isolation: a notification speaks only for the PSP account whose secret signed it. Merchant A's
 * correctly signed Stripe event naming merchant B's payment, operation or charge changes nothing — on arrival, and
 * when the retry pass takes it up later — and is recorded as foreign. The same event from B's own account applies,
 * so each refusal is the account check, not a broken event.
 */
class NotificationTenancyTest extends MerchantsOnStripe {

    static final String SECRET_A = "whsec_merchant_a_0123456789abcdef";

    @Autowired
    NotificationInbox inbox;

    @Test
    void aMerchantsSecretCannotSettleAnotherMerchantsPayment() {
        Merchant a = merchantOnStripe(SECRET_A);
        Merchant b = merchantOnStripe(StripeStub.WEBHOOK_SECRET);
        String reference = newReference();
        Api.Response processing =
                b.api().pay(Api.newKey(), payment(reference, 1_200, StripeStub.HELD_AFTER_CHARGE, "automatic"));
        STRIPE.releaseHeld();
        String event = STRIPE.event("payment_intent.succeeded", intentOf(reference));

        Api.Response fromA = deliver(path(a), event, signed(SECRET_A, event));

        assertThat(fromA.status()).as("authentic for A's account, so received").isEqualTo(200);
        assertThat(b.api().get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("processing");
        assertThat(notification(eventId(event), a))
                .containsEntry("outcome", "foreign")
                .containsEntry("next_try_at", null);
        assertThat(inbox.retryWaiting())
                .as("a foreign notification is done with, never retried")
                .isZero();
        assertThat(b.api().get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("processing");

        Api.Response fromB = deliver(path(b), event, signed(StripeStub.WEBHOOK_SECRET, event));

        assertThat(fromB.text("duplicate"))
                .as("A's copy does not deduplicate B's own event away")
                .isEqualTo("false");
        assertThat(b.api().get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("captured");
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
    }

    @Test
    void theRetryPassHoldsAStoredNotificationToTheAccountThatSignedIt() {
        Merchant a = merchantOnStripe(SECRET_A);
        Merchant b = merchantOnStripe(StripeStub.WEBHOOK_SECRET);
        String reference = newReference();
        Api.Response processing =
                b.api().pay(Api.newKey(), payment(reference, 1_500, StripeStub.HELD_AFTER_CHARGE, "automatic"));
        STRIPE.releaseHeld();
        String event = STRIPE.event("payment_intent.succeeded", intentOf(reference));
        storeUnapplied(event, a);

        inbox.retryWaiting();

        assertThat(notification(eventId(event), a)).containsEntry("outcome", "foreign");
        assertThat(b.api().get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("processing");

        storeUnapplied(event, b);
        inbox.retryWaiting();

        assertThat(notification(eventId(event), b)).containsEntry("outcome", "applied");
        assertThat(b.api().get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("captured");
    }

    @Test
    void aMerchantsSecretCannotOpenADisputeOrSettleARefundOfAnotherMerchant() {
        Merchant a = merchantOnStripe(SECRET_A);
        Merchant b = merchantOnStripe(StripeStub.WEBHOOK_SECRET);
        String reference = newReference();
        Api.Response paid = b.api().pay(Api.newKey(), payment(reference, 2_000, StripeStub.OK, "automatic"));
        String intent = paid.text("psp_reference");
        String dispute = STRIPE.event("charge.dispute.created", STRIPE.dispute(intent, "needs_response"));

        assertThat(deliver(path(a), dispute, signed(SECRET_A, dispute)).status())
                .isEqualTo(200);

        assertThat(notification(eventId(dispute), a)).containsEntry("outcome", "foreign");
        assertThat(b.api().get("/v1/payments/" + paid.text("id")).text("status"))
                .isEqualTo("captured");
        assertThat(jdbc.sql("SELECT count(*) FROM disputes WHERE merchant_id = :m")
                        .param("m", b.uuid())
                        .query(Long.class)
                        .single())
                .isZero();

        assertThat(deliver(path(b), dispute, signed(StripeStub.WEBHOOK_SECRET, dispute))
                        .status())
                .isEqualTo(200);
        assertThat(b.api().get("/v1/payments/" + paid.text("id")).text("status"))
                .isEqualTo("disputed");
    }

    /**
     * Issue 24, defect 6: a dispute id is the PSP's within one account. Merchant A, on its own account with its own
     * secret, signs a dispute on its own payment under the id of B's genuine dispute; B's dispute is still recorded,
     * with its chargeback, when B's account reports it.
     */
    @Test
    void aMerchantsOwnDisputeUnderAnotherAccountsIdNeverPreEmptsThatAccountsChargeback() {
        Merchant a = merchantOnStripe(SECRET_A);
        Merchant b = merchantOnStripe(StripeStub.WEBHOOK_SECRET);
        Api.Response paidA = a.api().pay(Api.newKey(), payment(newReference(), 1_100, StripeStub.OK, "automatic"));
        Api.Response paidB = b.api().pay(Api.newKey(), payment(newReference(), 3_300, StripeStub.OK, "automatic"));
        ObjectNode genuine = STRIPE.dispute(paidB.text("psp_reference"), "needs_response");
        ObjectNode borrowed = STRIPE.dispute(paidA.text("psp_reference"), "needs_response")
                .put("id", genuine.path("id").asString());
        String fromA = STRIPE.event("charge.dispute.created", borrowed);
        assertThat(deliver(path(a), fromA, signed(SECRET_A, fromA)).status()).isEqualTo(200);
        assertThat(notification(eventId(fromA), a))
                .as("A's account may dispute A's payment, under any id it likes")
                .containsEntry("outcome", "applied");

        String fromB = STRIPE.event("charge.dispute.created", genuine);
        assertThat(deliver(path(b), fromB, signed(StripeStub.WEBHOOK_SECRET, fromB))
                        .status())
                .isEqualTo(200);

        assertThat(notification(eventId(fromB), b)).containsEntry("outcome", "applied");
        JsonNode disputed = b.api().get("/v1/payments/" + paidB.text("id")).json();
        assertThat(disputed.get("status").asString()).isEqualTo("disputed");
        assertThat(disputed.get("amount_disputed").asLong()).isEqualTo(3_300);
        assertThat(jdbc.sql("""
                        SELECT count(*) FROM ledger_transactions WHERE payment_id = :p AND kind = 'CHARGEBACK_WITHDRAWN'
                        """)
                        .param(
                                "p",
                                PaymentId.parse(paidB.text("id")).orElseThrow().value())
                        .query(Long.class)
                        .single())
                .as("B's chargeback is posted")
                .isEqualTo(1);

        String lostB = STRIPE.event("charge.dispute.closed", genuine.deepCopy().put("status", "lost"));
        deliver(path(b), lostB, signed(StripeStub.WEBHOOK_SECRET, lostB));
        assertThat(b.api().get("/v1/payments/" + paidB.text("id")).text("status"))
                .as("B's account closes B's dispute, not A's of the same id")
                .isEqualTo("charged_back");
        assertThat(a.api().get("/v1/payments/" + paidA.text("id")).text("status"))
                .isEqualTo("disputed");
    }

    /** Kopek's own account (here the simulator's secret, on the global route) does not hold B's Stripe payment. */
    @Test
    void kopeksOwnAccountCannotSettleAPaymentHeldInAMerchantsOwnAccount() {
        Merchant b = merchantOnStripe(StripeStub.WEBHOOK_SECRET);
        String reference = newReference();
        Api.Response processing =
                b.api().pay(Api.newKey(), payment(reference, 1_300, StripeStub.HELD_AFTER_CHARGE, "automatic"));
        STRIPE.releaseHeld();
        String providerKey = jdbc.sql("SELECT provider_key FROM payments WHERE reference = :r")
                .param("r", reference)
                .query(String.class)
                .single();
        String body = "{\"id\":\"evt_" + UUID.randomUUID() + "\",\"type\":\"charge.succeeded\",\"created\":"
                + clock.instant().getEpochSecond() + ",\"data\":{\"id\":\"ch_" + UUID.randomUUID()
                + "\",\"object\":\"charge\",\"status\":\"succeeded\",\"amount\":1300,\"currency\":\"EUR\","
                + "\"idempotency_key\":\"" + providerKey + "\"}}";

        assertThat(inbox.receive(
                        WebhookSignature.header(
                                "whsec_simulator", clock.instant().getEpochSecond(), body),
                        body))
                .isEqualTo(NotificationInbox.Receipt.ACCEPTED);

        assertThat(b.api().get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("processing");
        assertThat(jdbc.sql("SELECT outcome FROM psp_notifications WHERE event_id = :e")
                        .param("e", eventId(body))
                        .query(String.class)
                        .single())
                .isEqualTo("foreign");
    }

    private static String path(Merchant merchant) {
        return "/v1/psp/stripe/webhooks/" + merchant.id();
    }

    private static String eventId(String event) {
        return StripeResponses.parse(event).path("id").asString();
    }

    private Map<String, Object> notification(String eventId, Merchant from) {
        return jdbc.sql("""
                SELECT outcome, next_try_at FROM psp_notifications WHERE event_id = :e AND merchant_id = :m
                """).param("e", eventId).param("m", from.uuid()).query().singleRow();
    }

    /** Stored on {@code from}'s route, then the receiving process died before applying it. */
    private void storeUnapplied(String event, Merchant from) {
        JsonNode json = StripeResponses.parse(event);
        jdbc.sql("""
                INSERT INTO psp_notifications (id, provider, merchant_id, event_id, type, payload, received_at, tries,
                                               next_try_at)
                VALUES (:id, 'stripe', :merchant, :event, 'charge.succeeded', :payload, :now, 1, :now)
                """)
                .param("id", TimeOrderedIds.next(clock))
                .param("merchant", from.uuid())
                .param("event", json.path("id").asString())
                .param("payload", event)
                .param("now", Db.at(clock.instant()))
                .update();
    }
}
