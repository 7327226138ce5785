package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.Money;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.PspNotification;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspRequest;
import dev.kopek.psp.SettlementRow;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the contract kit cannot say for every adapter: Stripe's wire format, its idempotency semantics (through the
 * stateful stub), the meaning of each of its error types, {@code requires_action}, the eventual consistency of its
 * search, its events and its balance transactions.
 */
class StripeAdapterTest {

    private static final StripeStub STUB = new StripeStub(Clock.systemUTC());
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The PSP client's limits of the Stripe adapter tests: short timeouts and pauses. */
    static final PspProperties LIMITS = new PspProperties(
            null,
            0,
            Duration.ofSeconds(1),
            Duration.ofSeconds(1),
            Duration.ofMillis(20),
            Duration.ofMillis(40),
            Duration.ofSeconds(3),
            Duration.ofHours(24),
            "unused",
            Duration.ofMinutes(5));

    private final StripePaymentProvider stripe = new StripePaymentProvider(
            StripeHarness.properties(STUB), LIMITS, Clock.systemUTC(), dev.kopek.psp.OutboundHeaders.none());

    @AfterEach
    void reset() {
        STUB.reset();
    }

    @AfterAll
    static void stop() {
        STUB.close();
    }

    private static PspRequest.Charge charge(String method, long amount, String currency, boolean capture) {
        return new PspRequest.Charge(
                "kpk_" + UUID.randomUUID(), Money.of(amount, currency), method, "order-" + UUID.randomUUID(), capture);
    }

    @Test
    void aPaymentIntentIsCreatedAndConfirmedInOneCallUnderTheDerivedKey() {
        PspRequest.Charge request = charge(StripeStub.OK, 5_000, "JPY", false);

        assertThat(stripe.execute(request)).isInstanceOf(ChargeOutcome.Authorized.class);

        StripeStub.Request sent = STUB.requests().getLast();
        assertThat(sent.idempotencyKey()).isEqualTo("kopek_" + request.providerKey());
        assertThat(sent.form())
                .containsEntry("confirm", "true")
                .containsEntry("capture_method", "manual")
                .containsEntry("amount", "5000")
                .containsEntry("currency", "jpy")
                .containsEntry("metadata[kopek_provider_key]", request.providerKey());
    }

    @Test
    void theSameKeyWithTheSameBodyGetsTheFirstAnswerAndMovesMoneyOnce() {
        PspRequest.Charge request = charge(StripeStub.OK, 1_000, "USD", true);

        var first = (ChargeOutcome.Succeeded) stripe.executeOnce(request);
        var again = (ChargeOutcome.Succeeded) stripe.executeOnce(request);

        assertThat(again.pspReference()).isEqualTo(first.pspReference());
        assertThat(STUB.chargedIntents(request.reference())).isEqualTo(1);
    }

    @Test
    void theSameKeyWithAnotherBodyIsUnknownBecauseTheFirstUseMayHaveMovedMoney() {
        PspRequest.Charge request = charge(StripeStub.OK, 1_000, "USD", true);
        stripe.executeOnce(request);

        ChargeOutcome other = stripe.executeOnce(new PspRequest.Charge(
                request.providerKey(), Money.of(2_000, "USD"), StripeStub.OK, request.reference(), true));

        assertThat(other)
                .isInstanceOfSatisfying(
                        ChargeOutcome.Unknown.class, u -> assertThat(u.reason()).contains("idempotency_error"));
    }

    @Test
    void aConcurrentDuplicateIsUnknownNeverFailed() throws Exception {
        PspRequest.Charge request = charge(StripeStub.HELD_AFTER_CHARGE, 1_000, "USD", true);
        var patient = new StripePaymentProvider(
                StripeHarness.properties(STUB),
                new PspProperties(
                        null,
                        0,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(10),
                        Duration.ofMillis(20),
                        Duration.ofMillis(40),
                        Duration.ofSeconds(20),
                        Duration.ofHours(24),
                        "unused",
                        Duration.ofMinutes(5)),
                Clock.systemUTC(),
                dev.kopek.psp.OutboundHeaders.none());
        CompletableFuture<ChargeOutcome> first = CompletableFuture.supplyAsync(() -> patient.executeOnce(request));
        STUB.awaitHeld();

        ChargeOutcome duplicate = patient.executeOnce(request);
        STUB.releaseHeld();

        assertThat(duplicate)
                .isInstanceOfSatisfying(
                        ChargeOutcome.Unknown.class,
                        u -> assertThat(u.reason()).contains("409").contains("idempotency_key_in_use"));
        assertThat(first.get())
                .as("the first request, once Stripe finishes it")
                .isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(STUB.chargedIntents(request.reference())).isEqualTo(1);
    }

    @Test
    void everyErrorTypeMeansWhatStripeDocuments() {
        assertThat(error(402, "card_error", "card_declined", "insufficient_funds"))
                .isEqualTo(new ChargeOutcome.Declined("insufficient_funds", null));
        assertThat(error(402, "card_error", "expired_card", null))
                .isEqualTo(new ChargeOutcome.Declined("expired_card", null));
        assertThat(error(400, "invalid_request_error", "parameter_missing", null))
                .isInstanceOf(ChargeOutcome.Failed.class);
        assertThat(error(404, "invalid_request_error", "resource_missing", null))
                .isInstanceOf(ChargeOutcome.Failed.class);
        assertThat(error(401, "invalid_request_error", null, null))
                .as("a wrong API key")
                .isInstanceOf(ChargeOutcome.Failed.class);
        assertThat(error(409, "invalid_request_error", "idempotency_key_in_use", null))
                .isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(error(400, "idempotency_error", null, null)).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(error(429, "invalid_request_error", "rate_limit", null)).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(error(429, "invalid_request_error", "lock_timeout", null)).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(error(500, "api_error", null, null)).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(error(502, "", null, null)).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(StripeResponses.intent(200, "<html>", StripeResponses.Expect.CHARGE))
                .isInstanceOf(ChargeOutcome.Unknown.class);
    }

    private static ChargeOutcome error(int status, String type, String code, String decline) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode error = body.putObject("error").put("type", type);
        if (code != null) {
            error.put("code", code);
        }
        if (decline != null) {
            error.put("decline_code", decline);
        }
        return StripeResponses.intent(status, body.toString(), StripeResponses.Expect.CHARGE);
    }

    @Test
    void threeDSecureIsAStatusToActOnNotAFailureAndLookupWaitsForIt() {
        PspRequest.Charge request = charge(StripeStub.THREE_D_SECURE, 1_000, "EUR", true);

        ChargeOutcome outcome = stripe.execute(request);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        ChargeOutcome.Unknown.class,
                        u -> assertThat(u.reason())
                                .startsWith(StripeResponses.REQUIRES_ACTION)
                                .contains("use_stripe_sdk"));
        assertThat(stripe.lookup(request)).isInstanceOf(LookupResult.Inconclusive.class);
        assertThat(STUB.requests().getLast().path())
                .as("looked up by the PaymentIntent id it already knows")
                .startsWith("/v1/payment_intents/pi_");
    }

    /**
     * Without a return URL Stripe answers {@code use_stripe_sdk} (only Stripe.js with the client secret completes it:
     * no URL to hand on); with {@code kopek.psp.stripe.return-url} Kopek sends {@code return_url} and the answer is a
     * redirect whose URL the payment carries.
     */
    @Test
    void aReturnUrlMakesThreeDSecureARedirectKopekCanHandOn() {
        StripeProperties base = StripeHarness.properties(STUB);
        StripePaymentProvider withReturn = new StripePaymentProvider(
                new StripeProperties(
                        base.apiBase(),
                        base.secretKey(),
                        base.webhookSecrets(),
                        base.webhookTolerance(),
                        base.apiVersion(),
                        "https://shop.example/back",
                        base.multicapture()),
                LIMITS,
                Clock.systemUTC(),
                dev.kopek.psp.OutboundHeaders.none());
        PspRequest.Charge request = charge(StripeStub.THREE_D_SECURE, 1_000, "EUR", true);

        ChargeOutcome withUrl = withReturn.execute(request);
        ChargeOutcome without = stripe.execute(charge(StripeStub.THREE_D_SECURE, 1_000, "EUR", true));

        assertThat(withUrl).isInstanceOfSatisfying(ChargeOutcome.Unknown.class, u -> {
            assertThat(u.nextAction().type()).isEqualTo("redirect_to_url");
            assertThat(u.nextAction().redirectUrl()).startsWith("https://hooks.stripe.com/3d_secure_2/");
        });
        assertThat(STUB.requests().stream()
                        .filter(r -> r.path().equals("/v1/payment_intents"))
                        .filter(r -> StripePaymentProvider.stripeKey(request.providerKey())
                                .equals(r.idempotencyKey()))
                        .findFirst()
                        .orElseThrow()
                        .form()
                        .get("return_url"))
                .isEqualTo("https://shop.example/back");
        assertThat(without).isInstanceOfSatisfying(ChargeOutcome.Unknown.class, u -> {
            assertThat(u.nextAction().type()).isEqualTo("use_stripe_sdk");
            assertThat(u.nextAction().redirectUrl()).isNull();
        });
    }

    @Test
    void anEmptySearchIsInconclusiveUntilStripesSearchCatchesUp() {
        STUB.lagSearch();
        PspRequest.Charge request = charge(StripeStub.HELD_AFTER_CHARGE, 1_000, "EUR", true);
        ChargeOutcome lost = stripe.execute(request);
        STUB.releaseHeld();
        StripePaymentProvider restarted = new StripePaymentProvider(
                StripeHarness.properties(STUB),
                new PspProperties(
                        null,
                        0,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ofMillis(20),
                        Duration.ofMillis(40),
                        Duration.ofSeconds(3),
                        Duration.ofHours(24),
                        "unused",
                        Duration.ofMinutes(5)),
                Clock.systemUTC(),
                dev.kopek.psp.OutboundHeaders.none());

        assertThat(lost).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(restarted.lookup(request))
                .as("not found yet is not 'no charge'")
                .isInstanceOf(LookupResult.Inconclusive.class);
        STUB.catchUpSearch();
        assertThat(restarted.lookup(request))
                .isInstanceOfSatisfying(
                        LookupResult.Found.class,
                        f -> assertThat(f.outcome()).isInstanceOf(ChargeOutcome.Succeeded.class));
    }

    @Test
    void capturesVoidsAndRefundsAreLookedUpByThePaymentIntent() {
        var authorized = (ChargeOutcome.Authorized) stripe.execute(charge(StripeStub.OK, 1_000, "EUR", false));
        String pi = authorized.pspReference();
        var capture = new PspRequest.Capture("kpk_cap_" + UUID.randomUUID(), pi, Money.of(700, "EUR"), true);
        assertThat(stripe.lookup(capture)).as("not captured yet").isInstanceOf(LookupResult.NotFound.class);
        assertThat(stripe.execute(capture)).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(STUB.requests().getLast().form()).containsEntry("amount_to_capture", "700");
        assertThat(stripe.lookup(capture)).isInstanceOf(LookupResult.Found.class);

        var refund = new PspRequest.Refund("kpk_rf_" + UUID.randomUUID(), pi, Money.of(300, "EUR"));
        assertThat(stripe.lookup(refund)).isInstanceOf(LookupResult.NotFound.class);
        var refunded = (ChargeOutcome.Succeeded) stripe.execute(refund);
        assertThat(stripe.lookup(refund)).isEqualTo(new LookupResult.Found(refunded));
        assertThat(stripe.providerKeyOf(refunded.pspReference())).contains(refund.providerKey());
        assertThat(STUB.refunded(pi)).isEqualTo(300);

        var voidable = (ChargeOutcome.Authorized) stripe.execute(charge(StripeStub.OK, 1_000, "EUR", false));
        var cancel =
                new PspRequest.Release("kpk_vd_" + UUID.randomUUID(), voidable.pspReference(), Money.of(1_000, "EUR"));
        assertThat(stripe.lookup(cancel)).isInstanceOf(LookupResult.NotFound.class);
        assertThat(stripe.execute(cancel)).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(stripe.lookup(cancel)).isInstanceOf(LookupResult.Found.class);
    }

    @Test
    void eventsAreMappedOntoKopeksNotifications() {
        var paid = (ChargeOutcome.Succeeded) stripe.execute(charge(StripeStub.OK, 2_000, "EUR", true));
        String pi = paid.pspReference();

        PspNotification opened = read(STUB.event("charge.dispute.created", STUB.dispute(pi, "needs_response")));
        assertThat(opened.type()).isEqualTo("dispute.opened");
        assertThat(opened.chargeId()).isEqualTo(pi);
        assertThat(opened.amountMinor()).isEqualTo(2_000);
        assertThat(read(STUB.event("charge.dispute.closed", STUB.dispute(pi, "lost")))
                        .type())
                .isEqualTo("dispute.lost");
        assertThat(read(STUB.event("charge.dispute.closed", STUB.dispute(pi, "won")))
                        .type())
                .isEqualTo("dispute.won");
        // Inquiries (warning_*) withdraw nothing: never dispute.opened, and warning_closed closes them.
        assertThat(read(STUB.event("charge.dispute.created", STUB.dispute(pi, "warning_needs_response")))
                        .type())
                .isEqualTo("dispute.inquiry_opened");
        assertThat(read(STUB.event("charge.dispute.updated", STUB.dispute(pi, "warning_under_review")))
                        .type())
                .isEqualTo("dispute.inquiry_opened");
        assertThat(read(STUB.event("charge.dispute.closed", STUB.dispute(pi, "warning_closed")))
                        .type())
                .isEqualTo("dispute.inquiry_closed");
        assertThat(read(STUB.event("charge.dispute.funds_withdrawn", STUB.dispute(pi, "needs_response")))
                        .type())
                .as("an escalated inquiry")
                .isEqualTo("dispute.opened");
        assertThat(read(STUB.event("charge.dispute.updated", STUB.dispute(pi, "under_review")))
                        .type())
                .isEqualTo("dispute.opened");

        ObjectNode failed = STUB.intents().get(pi).deepCopy().put("status", "requires_payment_method");
        failed.putObject("last_payment_error").put("type", "card_error").put("decline_code", "stolen_card");
        PspNotification declined = read(STUB.event("payment_intent.payment_failed", failed));
        assertThat(declined.type()).isEqualTo("charge.declined");
        assertThat(declined.outcome()).isEqualTo(new ChargeOutcome.Declined("stolen_card", pi));

        var refund = (ChargeOutcome.Succeeded)
                stripe.execute(new PspRequest.Refund("kpk_rf_" + UUID.randomUUID(), pi, Money.of(500, "EUR")));
        ObjectNode charge = JSON.createObjectNode()
                .put("id", "ch_x")
                .put("object", "charge")
                .put("payment_intent", pi)
                .put("currency", "eur");
        charge.putObject("refunds").putArray("data").add(JSON.readTree(refundJson(refund.pspReference())));
        PspNotification refunded = read(STUB.event("charge.refunded", charge));
        assertThat(refunded.type()).isEqualTo("refund.succeeded");
        assertThat(refunded.objectId()).isEqualTo(refund.pspReference());
        assertThat(refunded.providerKey()).startsWith("kpk_rf_");
        assertThat(refunded.amountMinor()).isEqualTo(500);
    }

    private String refundJson(String refundId) {
        try {
            return stripe.get("/v1/refunds/" + refundId).body();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private PspNotification read(String body) {
        return ((NotificationCheck.Valid) stripe.verifyNotification(STUB.signature(body), body)).notification();
    }

    @Test
    void aSecretBeingRolledAndItsSuccessorBothVerify() {
        String body =
                STUB.event("payment_intent.created", JSON.createObjectNode().put("id", "pi_x"));
        long now = Clock.systemUTC().instant().getEpochSecond();

        assertThat(stripe.verifyNotification(StripeNotifications.sign("whsec_old_being_rolled", now, body), body))
                .isInstanceOf(NotificationCheck.Valid.class);
        String both = StripeNotifications.sign("whsec_unknown", now, body) + ","
                + StripeNotifications.sign(StripeStub.WEBHOOK_SECRET, now, body).split(",")[1];
        assertThat(stripe.verifyNotification(both, body)).isInstanceOf(NotificationCheck.Valid.class);
    }

    @Test
    void balanceTransactionsAreTheSettlementSource() {
        var paid = (ChargeOutcome.Succeeded) stripe.execute(charge(StripeStub.OK, 1_000, "ISK", true));
        var refund = (ChargeOutcome.Succeeded) stripe.execute(
                new PspRequest.Refund("kpk_rf_" + UUID.randomUUID(), paid.pspReference(), Money.of(400, "ISK")));

        List<SettlementRow> rows =
                stripe.settlementReport(LocalDate.now(ZoneOffset.UTC)).rows();

        assertThat(rows)
                .filteredOn(r -> r.pspReference().equals(paid.pspReference()))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.type()).isEqualTo("charge");
                    assertThat(r.amountMinor())
                            .as("ISK: Stripe's hundredths back to whole krónur")
                            .isEqualTo(1_000);
                });
        assertThat(rows)
                .filteredOn(r -> r.pspReference().equals(refund.pspReference()))
                .singleElement()
                .satisfies(r -> assertThat(r.type()).isEqualTo("refund"));
        assertThat(rows).anySatisfy(r -> assertThat(r.type()).isEqualTo("fee"));
    }
}
