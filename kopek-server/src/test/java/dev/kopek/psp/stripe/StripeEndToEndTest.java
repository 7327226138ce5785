package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Kopek, whole, on PostgreSQL, taking payments through the Stripe adapter against the Stripe stub: automatic and
 * manual capture, partial capture, several partial refunds, declines, zero-decimal amounts, an answer lost after
 * Stripe charged (settled by Stripe's signed event), and a dispute.
 */
class StripeEndToEndTest extends IntegrationTest {

    static final FollowingClock STRIPE_TIME = new FollowingClock();
    static final StripeStub STRIPE = new StripeStub(STRIPE_TIME);

    /** Stripe's time follows Kopek's test clock, which a test may move ahead (its events are signed with it). */
    static final class FollowingClock extends Clock {
        private volatile Duration offset = Duration.ZERO;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Clock.systemUTC().instant().plus(offset);
        }
    }

    @BeforeEach
    void stripeTime() {
        STRIPE_TIME.offset = clock.offset();
    }

    @DynamicPropertySource
    static void stripe(DynamicPropertyRegistry registry) {
        registry.add("kopek.psp.provider", () -> "stripe");
        registry.add("kopek.psp.stripe.api-base", () -> STRIPE.baseUri().toString());
        registry.add("kopek.psp.stripe.secret-key", () -> StripeStub.SECRET_KEY);
        registry.add("kopek.psp.stripe.webhook-secrets", () -> "whsec_old_one," + StripeStub.WEBHOOK_SECRET);
        registry.add("kopek.psp.stripe.return-url", () -> RETURN_URL);
    }

    static final String RETURN_URL = "https://shop.example/after-3ds";

    @AfterEach
    void resetStripe() {
        STRIPE.reset();
    }

    private static String payment(String reference, long amount, String currency, String method, String capture) {
        return "{\"reference\":\"" + reference + "\",\"amount\":" + amount + ",\"currency\":\"" + currency
                + "\",\"payment_method\":\"" + method + "\",\"capture_method\":\"" + capture + "\"}";
    }

    @Test
    void anAutomaticPaymentIsOnePaymentIntentAndItsReplayIsStoredByKopek() {
        Api api = newMerchant();
        String reference = newReference();
        String key = Api.newKey();
        String body = payment(reference, 5_000, "JPY", StripeStub.OK, "automatic");

        Api.Response created = api.pay(key, body);
        Api.Response replay = api.pay(key, body);

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.text("status")).isEqualTo("captured");
        String intent = created.text("psp_reference");
        assertThat(intent).startsWith("pi_stub");
        assertThat(replay.body()).isEqualTo(created.body());
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
        assertThat(STRIPE.received(intent))
                .as("JPY has no minor unit at Stripe either")
                .isEqualTo(5_000);
    }

    @Test
    void aManualPaymentIsCapturedInPartAndRefundedTwice() {
        Api api = newMerchant();
        Api.Response authorized =
                api.pay(Api.newKey(), payment(newReference(), 10_000, "EUR", StripeStub.OK, "manual"));
        assertThat(authorized.text("status")).isEqualTo("authorized");
        String id = authorized.text("id");
        String intent = authorized.text("psp_reference");

        Api.Response captured =
                api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":8000,\"final\":true}");
        assertThat(captured.status()).isEqualTo(200);
        assertThat(captured.text("status")).isEqualTo("captured");
        assertThat(STRIPE.received(intent)).isEqualTo(8_000);

        assertThat(api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":3000}")
                        .status())
                .isEqualTo(202);
        assertThat(api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":2000}")
                        .status())
                .isEqualTo(202);
        reconciler.reconcileOnce();

        JsonNode after = api.get("/v1/payments/" + id).json();
        assertThat(after.get("status").asString()).isEqualTo("partially_refunded");
        assertThat(after.get("amount_refunded").asLong()).isEqualTo(5_000);
        assertThat(STRIPE.refunded(intent)).isEqualTo(5_000);
    }

    @Test
    void aDeclineCarriesStripesDeclineCodeAndMovesNothing() {
        Api api = newMerchant();
        String reference = newReference();

        Api.Response declined =
                api.pay(Api.newKey(), payment(reference, 1_000, "EUR", StripeStub.INSUFFICIENT_FUNDS, "automatic"));

        assertThat(declined.status()).isEqualTo(201);
        assertThat(declined.text("status")).isEqualTo("declined");
        assertThat(declined.text("decline_code")).isEqualTo("insufficient_funds");
        assertThat(STRIPE.chargedIntents(reference)).isZero();
    }

    @Test
    void anAnswerLostAfterStripeChargedIsSettledByItsSignedEvent() {
        Api api = newMerchant();
        String reference = newReference();

        Api.Response processing =
                api.pay(Api.newKey(), payment(reference, 1_500, "EUR", StripeStub.HELD_AFTER_CHARGE, "automatic"));
        STRIPE.releaseHeld();
        assertThat(processing.status()).isEqualTo(202);
        String intent = STRIPE.intents().values().stream()
                .filter(pi -> reference.equals(
                        pi.path("metadata").path("kopek_reference").asString(null)))
                .findFirst()
                .orElseThrow()
                .path("id")
                .asString();

        String event = STRIPE.event("payment_intent.succeeded", STRIPE.intents().get(intent));
        assertThat(deliver(event).status()).isEqualTo(200);
        assertThat(deliver(event).status())
                .as("Stripe delivers an event again until it is acknowledged")
                .isEqualTo(200);

        String id = processing.text("id");
        JsonNode after = api.get("/v1/payments/" + id).json();
        assertThat(after.get("status").asString()).isEqualTo("captured");
        assertThat(after.get("psp_reference").asString()).isEqualTo(intent);
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
        assertThat(jdbc.sql("SELECT count(*) FROM psp_notifications WHERE event_id = :e")
                        .param("e", StripeResponses.parse(event).path("id").asString())
                        .query(Long.class)
                        .single())
                .as("the replayed event is one notification")
                .isEqualTo(1);
        assertThat(recorder.typesFor(id)).as("announced once").containsOnlyOnce("payment.captured");

        String dispute = STRIPE.event("charge.dispute.created", STRIPE.dispute(intent, "needs_response"));
        assertThat(deliver(dispute).status()).isEqualTo(200);
        assertThat(deliver(dispute).status()).isEqualTo(200);
        assertThat(api.get("/v1/payments/" + id).text("status")).isEqualTo("disputed");
        assertThat(api.get("/v1/payments/" + id).text("amount_disputed"))
                .as("a replayed dispute counts once")
                .isEqualTo("1500");
    }

    /**
     * Issue 15: 3-D Secure is a status the merchant acts on, not a failure. With KOPEK_STRIPE_RETURN_URL set, Kopek
     * confirms with return_url, so the payment answers requires_action with Stripe's redirect, is announced as payment.requires_action, keeps its reference taken (L2), and Stripe's event
     * after the customer finished settles it.
     */
    @Test
    void threeDSecureRequiresActionWithTheRedirectUntilStripesEventSettlesIt() {
        Api api = newMerchant();
        String reference = newReference();

        Api.Response waiting = api.pay(
                Api.newKey(), payment(reference, 3_000, "EUR", StripeStub.THREE_D_SECURE_REDIRECT, "automatic"));
        Api.Response second = api.pay(Api.newKey(), payment(reference, 3_000, "EUR", StripeStub.OK, "automatic"));

        assertThat(waiting.status()).isEqualTo(202);
        assertThat(waiting.text("status")).isEqualTo("requires_action");
        JsonNode action = waiting.json().get("next_action");
        assertThat(action.get("type").asString()).isEqualTo("redirect_to_url");
        assertThat(action.get("redirect_url").asString()).startsWith("https://hooks.stripe.com/3d_secure_2/");
        assertThat(STRIPE.requests().stream()
                        .filter(r -> r.path().equals("/v1/payment_intents"))
                        .filter(r -> reference.equals(r.form().get("metadata[kopek_reference]")))
                        .findFirst()
                        .orElseThrow()
                        .form()
                        .get("return_url"))
                .as("Kopek sent its configured return URL, so Stripe answers a redirect")
                .isEqualTo(RETURN_URL);
        assertThat(second.status()).as("the intent is not freed").isEqualTo(409);
        String id = waiting.text("id");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE resource_id = :id AND event_type = :t")
                        .param(
                                "id",
                                dev.kopek.money.PaymentId.parse(id)
                                        .orElseThrow()
                                        .value())
                        .param("t", "payment.requires_action")
                        .query(Long.class)
                        .single())
                .isEqualTo(1);

        String intent = STRIPE.intents().values().stream()
                .filter(pi -> reference.equals(
                        pi.path("metadata").path("kopek_reference").asString(null)))
                .findFirst()
                .orElseThrow()
                .path("id")
                .asString();
        assertThat(deliver(STRIPE.event("payment_intent.succeeded", STRIPE.completeAction(intent)))
                        .status())
                .isEqualTo(200);

        JsonNode after = api.get("/v1/payments/" + id).json();
        assertThat(after.get("status").asString()).isEqualTo("captured");
        assertThat(after.get("next_action").isNull()).isTrue();
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
    }

    /** The same, settled by the reconciler's lookup (by the PaymentIntent's id, kept in psp_references). */
    @Test
    void threeDSecureIsSettledByALookupOnceTheCustomerFinished() {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response waiting =
                api.pay(Api.newKey(), payment(reference, 900, "EUR", StripeStub.THREE_D_SECURE, "manual"));
        assertThat(waiting.text("status")).isEqualTo("requires_action");
        assertThat(waiting.json().get("next_action").get("type").asString()).isEqualTo("redirect_to_url");

        STRIPE.lagSearch();
        String intent = STRIPE.intents().values().stream()
                .filter(pi -> reference.equals(
                        pi.path("metadata").path("kopek_reference").asString(null)))
                .findFirst()
                .orElseThrow()
                .path("id")
                .asString();
        STRIPE.completeAction(intent);
        clock.advance(Duration.ofMinutes(5));
        STRIPE_TIME.offset = clock.offset();
        reconciler.reconcileOnce();

        JsonNode after = api.get("/v1/payments/" + waiting.text("id")).json();
        assertThat(after.get("status").asString()).isEqualTo("authorized");
        assertThat(after.get("psp_reference").asString()).isEqualTo(intent);
    }

    /**
     * Issue 15: an inquiry (Stripe's dispute fixture: {@code warning_needs_response}, case type inquiry) withdraws
     * nothing. It is recorded and announced, the payment, its amounts, the ledger and the balance stay as they were,
     * and Stripe's {@code warning_closed} closes it.
     */
    @Test
    void anInquiryMovesNoMoneyAndItsClosingClosesIt() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), payment(newReference(), 2_500, "EUR", StripeStub.OK, "automatic"));
        String intent = paid.text("psp_reference");
        String balance = api.get("/v1/balance").body();
        var inquiry = STRIPE.dispute(intent, "warning_needs_response");
        assertThat(inquiry.path("payment_method_details")
                        .path("card")
                        .path("case_type")
                        .asString())
                .as("the fixture is an inquiry")
                .isEqualTo("inquiry");
        String dispute = inquiry.path("id").asString();

        assertThat(deliver(STRIPE.event("charge.dispute.created", inquiry)).status())
                .isEqualTo(200);
        assertThat(deliver(STRIPE.event(
                                "charge.dispute.updated", inquiry.deepCopy().put("status", "warning_under_review")))
                        .status())
                .isEqualTo(200);

        JsonNode during = api.get("/v1/payments/" + paid.text("id")).json();
        assertThat(during.get("status").asString()).isEqualTo("captured");
        assertThat(during.get("amount_disputed").asLong()).isZero();
        assertThat(inquiryStatus(dispute)).isEqualTo("OPEN");
        assertThat(jdbc.sql("SELECT count(*) FROM disputes WHERE psp_dispute_id = :d")
                        .param("d", dispute)
                        .query(Long.class)
                        .single())
                .as("no chargeback")
                .isZero();
        assertThat(api.get("/v1/balance").body())
                .as("an inquiry moves no money")
                .isEqualTo(balance);

        assertThat(deliver(STRIPE.event(
                                "charge.dispute.closed", inquiry.deepCopy().put("status", "warning_closed")))
                        .status())
                .isEqualTo(200);

        assertThat(inquiryStatus(dispute)).isEqualTo("CLOSED");
        assertThat(api.get("/v1/payments/" + paid.text("id"))
                        .json()
                        .get("amount_disputed")
                        .asLong())
                .isZero();
        assertThat(kinds(paid.text("id"))).doesNotContain(dev.kopek.events.MoneyMovement.Kind.CHARGEBACK_WITHDRAWN);
        assertThat(api.get("/v1/balance").body()).isEqualTo(balance);
        assertThat(outboxTypes(dispute)).containsExactly("dispute.inquiry_opened", "dispute.inquiry_closed");
    }

    /**
     * An inquiry the issuer escalates becomes a chargeback then, once: the same dispute's funds withdrawn
     * ({@code charge.dispute.funds_withdrawn}, status needs_response) records it, a repeat of the escalation changes
     * nothing, and its loss charges the payment back.
     */
    @Test
    void anEscalatedInquiryIsRecordedAsAChargebackWhenTheFundsAreWithdrawn() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), payment(newReference(), 4_000, "EUR", StripeStub.OK, "automatic"));
        String intent = paid.text("psp_reference");
        var inquiry = STRIPE.dispute(intent, "warning_needs_response");
        String dispute = inquiry.path("id").asString();
        assertThat(deliver(STRIPE.event("charge.dispute.created", inquiry)).status())
                .isEqualTo(200);
        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("captured");

        var chargeback = inquiry.deepCopy().put("status", "needs_response");
        assertThat(deliver(STRIPE.event("charge.dispute.funds_withdrawn", chargeback))
                        .status())
                .isEqualTo(200);
        assertThat(deliver(STRIPE.event("charge.dispute.updated", chargeback)).status())
                .isEqualTo(200);

        JsonNode disputed = api.get("/v1/payments/" + paid.text("id")).json();
        assertThat(disputed.get("status").asString()).isEqualTo("disputed");
        assertThat(disputed.get("amount_disputed").asLong()).isEqualTo(4_000);
        assertThat(inquiryStatus(dispute)).isEqualTo("ESCALATED");
        assertThat(kinds(paid.text("id"))).containsOnlyOnce(dev.kopek.events.MoneyMovement.Kind.CHARGEBACK_WITHDRAWN);

        assertThat(deliver(STRIPE.event(
                                "charge.dispute.closed", chargeback.deepCopy().put("status", "lost")))
                        .status())
                .isEqualTo(200);
        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("charged_back");
        assertThat(outboxTypes(dispute)).containsExactly("dispute.inquiry_opened");
    }

    /**
     * An inquiry's closing that arrives before its opening records it closed, and the late opening changes nothing;
     * a chargeback Stripe sends as a new dispute object is recorded as any other, whatever the inquiry's state.
     */
    @Test
    void aReorderedInquiryStaysClosedAndANewDisputeObjectIsTheChargeback() {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), payment(newReference(), 3_000, "EUR", StripeStub.OK, "automatic"));
        String intent = paid.text("psp_reference");
        var inquiry = STRIPE.dispute(intent, "warning_needs_response");
        String dispute = inquiry.path("id").asString();

        assertThat(deliver(STRIPE.event(
                                "charge.dispute.closed", inquiry.deepCopy().put("status", "warning_closed")))
                        .status())
                .isEqualTo(200);
        assertThat(deliver(STRIPE.event("charge.dispute.created", inquiry)).status())
                .isEqualTo(200);
        assertThat(inquiryStatus(dispute)).isEqualTo("CLOSED");
        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("captured");

        var chargeback = STRIPE.dispute(intent, "needs_response");
        assertThat(deliver(STRIPE.event("charge.dispute.created", chargeback)).status())
                .isEqualTo(200);
        assertThat(api.get("/v1/payments/" + paid.text("id")).text("status")).isEqualTo("disputed");
        assertThat(inquiryStatus(dispute))
                .as("another dispute object: this inquiry ended")
                .isEqualTo("CLOSED");
        assertThat(outboxTypes(dispute)).containsExactly("dispute.inquiry_closed");
    }

    private String inquiryStatus(String pspDispute) {
        return jdbc.sql("SELECT status FROM dispute_inquiries WHERE psp_dispute_id = :d")
                .param("d", pspDispute)
                .query(String.class)
                .single();
    }

    private java.util.List<String> outboxTypes(String pspDispute) {
        return jdbc.sql("""
                SELECT o.event_type FROM outbox o JOIN dispute_inquiries q ON q.id = o.resource_id
                 WHERE q.psp_dispute_id = :d ORDER BY o.log_position
                """).param("d", pspDispute).query(String.class).list();
    }

    /** The payment's money movements as the journal posted them, in order (phase 3 posts in its own statement). */
    private java.util.List<dev.kopek.events.MoneyMovement.Kind> kinds(String paymentId) {
        return jdbc
                .sql("SELECT kind FROM ledger_transactions WHERE payment_id = :id ORDER BY id")
                .param(
                        "id",
                        dev.kopek.money.PaymentId.parse(paymentId).orElseThrow().value())
                .query(String.class)
                .list()
                .stream()
                .map(dev.kopek.events.MoneyMovement.Kind::valueOf)
                .toList();
    }

    @Test
    void anEventWithABadSignatureIsRefused() {
        String event = STRIPE.event(
                "payment_intent.succeeded",
                tools.jackson.databind.json.JsonMapper.builder()
                        .build()
                        .createObjectNode()
                        .put("id", "pi_none"));
        Api anonymous = new Api(baseUri(), null);
        Api.Response refused = anonymous.send(anonymous
                .request("/v1/psp/stripe/webhooks")
                .header("Content-Type", "application/json")
                .header("Stripe-Signature", "t=1,v1=00")
                .POST(HttpRequest.BodyPublishers.ofString(event))
                .build());
        assertThat(refused.status()).isEqualTo(401);
    }

    private Api.Response deliver(String event) {
        Api anonymous = new Api(baseUri(), null);
        return anonymous.send(anonymous
                .request("/v1/psp/stripe/webhooks")
                .header("Content-Type", "application/json")
                .header("Stripe-Signature", STRIPE.signature(event))
                .POST(HttpRequest.BodyPublishers.ofString(event))
                .build());
    }
}
