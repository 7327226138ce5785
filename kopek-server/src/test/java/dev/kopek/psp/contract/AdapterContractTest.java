package dev.kopek.psp.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.Money;
import dev.kopek.payments.KeyWindowRule;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspRequest;
import dev.kopek.psp.contract.AdapterHarness.Answer;
import dev.kopek.psp.stripe.StripeHarness;
import dev.kopek.support.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The adapter contract kit: what every PSP adapter must do, whatever its provider, so Kopek's pipeline can rely on
 * it (docs/adapters.md). Each test runs once per adapter against its PSP (the simulator over HTTP, Stripe against
 * its stub). It checks meaning, not wire format: every kind of answer classified by what it proves (L5: a concurrent
 * duplicate, a refused connection and a payment waiting for the customer included), retries only with the same key
 * and only inside the budget (L6), lookup after an unknown, the declared key window and the rule past it,
 * notification signatures (good, bad, tampered, stale, replayed) and amounts converted exactly at the edge.
 */
class AdapterContractTest {

    private static final List<AdapterHarness> HARNESSES = List.of(new SimulatorHarness(), new StripeHarness());
    private static final Duration TOLERANCE = Duration.ofMinutes(5);

    private final MutableClock clock = new MutableClock();

    static Stream<AdapterHarness> harnesses() {
        return HARNESSES.stream();
    }

    @AfterEach
    void reset() {
        HARNESSES.forEach(AdapterHarness::reset);
    }

    private static PspProperties limits(Duration budget) {
        return new PspProperties(
                null,
                0,
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                Duration.ofMillis(20),
                Duration.ofMillis(40),
                budget,
                Duration.ofHours(24),
                "unused",
                TOLERANCE);
    }

    private PaymentProvider adapter(AdapterHarness harness) {
        return harness.adapter(limits(Duration.ofSeconds(3)), clock);
    }

    private static PspRequest.Charge charge(AdapterHarness harness, Answer answer, boolean capture) {
        return new PspRequest.Charge(
                "kit_" + UUID.randomUUID(),
                Money.of(1_000, "EUR"),
                harness.paymentMethod(answer),
                "order-" + UUID.randomUUID(),
                capture);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void everyAnswerIsClassifiedByWhatItProves(AdapterHarness harness) {
        PaymentProvider psp = adapter(harness);

        PspRequest.Charge approved = charge(harness, Answer.APPROVE, true);
        assertThat(psp.execute(approved))
                .isInstanceOfSatisfying(
                        ChargeOutcome.Succeeded.class,
                        s -> assertThat(s.pspReference()).isNotBlank());
        assertThat(harness.chargesUnder(approved.providerKey())).isEqualTo(1);

        assertThat(psp.execute(charge(harness, Answer.APPROVE, false)))
                .isInstanceOfSatisfying(
                        ChargeOutcome.Authorized.class,
                        a -> assertThat(a.captureBefore()).isAfter(Instant.now()));

        PspRequest.Charge declined = charge(harness, Answer.DECLINE, true);
        assertThat(psp.execute(declined))
                .isInstanceOfSatisfying(
                        ChargeOutcome.Declined.class,
                        d -> assertThat(d.declineCode()).isNotBlank());
        assertThat(harness.chargesUnder(declined.providerKey())).isZero();

        PspRequest.Charge refused = charge(harness, Answer.REFUSE, true);
        assertThat(psp.execute(refused)).isInstanceOf(ChargeOutcome.Failed.class);
        assertThat(harness.chargesUnder(refused.providerKey())).isZero();

        assertThat(psp.execute(charge(harness, Answer.SERVER_ERROR, true))).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(psp.execute(charge(harness, Answer.RATE_LIMIT, true))).isInstanceOf(ChargeOutcome.Unknown.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void anAuthorizationIsCapturedInPartRefundedSeveralTimesOrVoided(AdapterHarness harness) {
        PaymentProvider psp = adapter(harness);
        var authorized = (ChargeOutcome.Authorized) psp.execute(charge(harness, Answer.APPROVE, false));
        String charge = authorized.pspReference();

        assertThat(psp.execute(capture(charge, 600, true))).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(psp.execute(refund(charge, 200))).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(psp.execute(refund(charge, 300))).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(psp.execute(refund(charge, 101)))
                .as("more than what is left to refund is refused, and nothing happened")
                .isInstanceOf(ChargeOutcome.Failed.class);

        var other = (ChargeOutcome.Authorized) psp.execute(charge(harness, Answer.APPROVE, false));
        assertThat(psp.execute(release(other.pspReference(), 1_000))).isInstanceOf(ChargeOutcome.Succeeded.class);
        assertThat(psp.execute(capture(other.pspReference(), 1_000, true)))
                .as("a voided authorization cannot be captured")
                .isInstanceOf(ChargeOutcome.Failed.class);
    }

    private static PspRequest capture(String charge, long amount, boolean last) {
        return new PspRequest.Capture("kit_capture_" + UUID.randomUUID(), charge, Money.of(amount, "EUR"), last);
    }

    private static PspRequest release(String charge, long amount) {
        return new PspRequest.Release("kit_void_" + UUID.randomUUID(), charge, Money.of(amount, "EUR"));
    }

    private static PspRequest refund(String charge, long amount) {
        return new PspRequest.Refund("kit_refund_" + UUID.randomUUID(), charge, Money.of(amount, "EUR"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void aLostAnswerIsRetriedOnceWithTheSameKeyNeverFailsAndIsFoundByLookup(AdapterHarness harness) {
        PaymentProvider psp = adapter(harness);
        PspRequest.Charge lost = charge(harness, Answer.LOST_AFTER_CHARGE, true);

        ChargeOutcome outcome = psp.execute(lost);
        harness.releaseHeld();

        assertThat(outcome).isInstanceOfAny(ChargeOutcome.Succeeded.class, ChargeOutcome.Unknown.class);
        assertThat(harness.chargeRequestsUnder(lost.providerKey()))
                .as("one retry, with the same key")
                .isEqualTo(2);
        assertThat(harness.chargesUnder(lost.providerKey()))
                .as("money moved once")
                .isEqualTo(1);
        assertThat(psp.lookup(lost))
                .isInstanceOfSatisfying(
                        LookupResult.Found.class,
                        f -> assertThat(f.outcome()).isInstanceOf(ChargeOutcome.Succeeded.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void noRetryOnceTheBudgetIsSpentAndTheOutcomeStaysUnknown(AdapterHarness harness) {
        PaymentProvider psp = harness.adapter(limits(Duration.ofSeconds(1)), clock);
        PspRequest.Charge lost = charge(harness, Answer.LOST_AFTER_CHARGE, true);

        ChargeOutcome outcome = psp.execute(lost);
        harness.releaseHeld();

        assertThat(outcome).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(harness.chargeRequestsUnder(lost.providerKey())).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void aConcurrentDuplicateIsUnknownNeverARefusal(AdapterHarness harness) throws Exception {
        PaymentProvider psp = adapter(harness);
        PspRequest.Charge request = charge(harness, Answer.CONCURRENT_DUPLICATE, true);

        CompletableFuture<ChargeOutcome> first = CompletableFuture.supplyAsync(() -> psp.executeOnce(request));
        harness.awaitChargeRequest(request.providerKey());
        ChargeOutcome duplicate = psp.executeOnce(request);
        harness.releaseHeld();

        assertThat(duplicate).as("'in progress' proves nothing").isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(first.get(30, TimeUnit.SECONDS))
                .isInstanceOfAny(ChargeOutcome.Succeeded.class, ChargeOutcome.Unknown.class);
        assertThat(harness.chargeRequestsUnder(request.providerKey())).isEqualTo(2);
        // The first request still runs at the PSP after its answer timed out here (the simulator charges at the end
        // of its pause): wait for it, so money is seen to move exactly once and nothing lands in a later test.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (harness.chargesUnder(request.providerKey()) == 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(harness.chargesUnder(request.providerKey()))
                .as("once, never twice")
                .isEqualTo(1);
    }

    /**
     * A PSP that refuses a request because its key was first used with other parameters (the simulator's 422
     * idempotency_key_reused, Stripe's 400 idempotency_error) proves only that this request did nothing: the key's
     * first use may have moved money, so the outcome is unknown, never failed (a failure would free the payment's
     * intent while its charge may stand), and the lookup by key finds what the first use did.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void aKeyFirstUsedWithOtherParametersIsUnknownNeverFailed(AdapterHarness harness) {
        PaymentProvider psp = adapter(harness);
        PspRequest.Charge first = charge(harness, Answer.APPROVE, true);
        assertThat(psp.execute(first)).isInstanceOf(ChargeOutcome.Succeeded.class);
        PspRequest.Charge other = new PspRequest.Charge(
                first.providerKey(), Money.of(2_000, "EUR"), first.paymentMethod(), first.reference(), true);

        assertThat(psp.executeOnce(other))
                .as("the key's first use may have moved money")
                .isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(psp.execute(other)).as("with its retry too").isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(harness.chargesUnder(first.providerKey()))
                .as("money moved once")
                .isEqualTo(1);
        assertThat(psp.lookup(first))
                .isInstanceOfSatisfying(
                        LookupResult.Found.class,
                        f -> assertThat(f.outcome()).isInstanceOf(ChargeOutcome.Succeeded.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void aRefusedConnectionIsUnknownAndItsLookupInconclusive(AdapterHarness harness) {
        PaymentProvider psp = harness.unreachable(limits(Duration.ofSeconds(3)), clock);
        PspRequest.Charge request = charge(harness, Answer.REFUSED_CONNECTION, true);

        assertThat(psp.execute(request)).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(psp.execute(refund("ch_kit_unreachable", 100))).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(psp.lookup(request)).as("no answer is no proof").isInstanceOf(LookupResult.Inconclusive.class);
        assertThat(harness.chargeRequestsUnder(request.providerKey())).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void aPaymentWaitingForTheCustomerIsUnknownWithItsNextAction(AdapterHarness harness) {
        assumeTrue(
                harness.answers(Answer.REQUIRES_ACTION), harness.name() + " has no answer that waits for the customer");
        PaymentProvider psp = adapter(harness);
        PspRequest.Charge request = charge(harness, Answer.REQUIRES_ACTION, true);

        assertThat(psp.execute(request))
                .isInstanceOfSatisfying(
                        ChargeOutcome.Unknown.class,
                        u -> assertThat(u.nextAction())
                                .as("what the customer must do")
                                .isNotNull()
                                .satisfies(a -> assertThat(a.type()).isNotBlank()));
        assertThat(psp.lookup(request))
                .as("still waiting: not found, not failed")
                .isInstanceOf(LookupResult.Inconclusive.class);
        assertThat(harness.chargesUnder(request.providerKey())).isZero();
    }

    /**
     * L6 for every adapter, with the pipeline's own decision (KeyWindow, LookupDecision): an unknown whose lookup
     * finds no final outcome may be asked about again inside its key window, but once the window less the budget has
     * passed it is never sent again and goes to a person, whatever the adapter's lookup can say.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void pastTheKeyWindowLessTheBudgetAnUnknownIsNeverSentAgainAndGoesToAPerson(AdapterHarness harness) {
        PspProperties limits = limits(Duration.ofSeconds(3));
        PaymentProvider psp = harness.adapter(limits, clock);
        PspRequest.Charge request = charge(harness, Answer.SERVER_ERROR, true);
        assertThat(psp.execute(request)).isInstanceOf(ChargeOutcome.Unknown.class);
        Instant firstSentAt = clock.instant();
        Duration closesAfter = psp.contract().keyWindow().minus(limits.budget());

        clock.advance(closesAfter.minusSeconds(2));
        KeyWindowRule.Decision inside =
                KeyWindowRule.resume(psp, limits, clock, firstSentAt, request, () -> psp.executeOnce(request));
        assertThat(inside.reviewReason())
                .as("inside the window nobody is asked yet")
                .isNull();

        clock.advance(Duration.ofSeconds(2));
        long sent = harness.chargeRequestsUnder(request.providerKey());
        KeyWindowRule.Decision past =
                KeyWindowRule.resume(psp, limits, clock, firstSentAt, request, () -> psp.executeOnce(request));

        assertThat(past.outcome()).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(past.reviewReason()).as("a person decides").isNotBlank();
        assertThat(harness.chargeRequestsUnder(request.providerKey()))
                .as("never sent again")
                .isEqualTo(sent);
        assertThat(harness.chargesUnder(request.providerKey())).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void aKeyNeverSentIsNeverFound(AdapterHarness harness) {
        PspRequest.Charge neverSent = charge(harness, Answer.APPROVE, true);
        assertThat(adapter(harness).lookup(neverSent))
                .isInstanceOfAny(LookupResult.NotFound.class, LookupResult.Inconclusive.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void theKeyWindowIsDeclaredAsThePspDocumentsIt(AdapterHarness harness) {
        var contract = adapter(harness).contract();

        assertThat(contract.keyWindow()).isEqualTo(harness.documentedKeyWindow());
        assertThat(contract.lookupByKey()).isTrue();
        assertThat(contract.concurrentDuplicate()).isNotBlank();
        assertThat(contract.scope()).isNotBlank();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void notificationsAreVerifiedBeforeAnythingIsRead(AdapterHarness harness) {
        PaymentProvider psp = adapter(harness);
        String key = "kit_" + UUID.randomUUID();
        String body = harness.chargeSucceeded(
                "evt_kit_" + UUID.randomUUID(), key, "ref_kit", Money.of(1_000, "EUR"), clock.instant());
        String good = harness.sign(body, clock.instant(), true);

        assertThat(psp.verifyNotification(good, body)).isInstanceOfSatisfying(NotificationCheck.Valid.class, v -> {
            assertThat(v.notification().providerKey()).isEqualTo(key);
            assertThat(v.notification().outcome()).isInstanceOf(ChargeOutcome.Succeeded.class);
        });
        assertThat(psp.verifyNotification(harness.sign(body, clock.instant(), false), body))
                .as("bad secret")
                .isInstanceOf(NotificationCheck.Invalid.class);
        assertThat(psp.verifyNotification(good, body.replace("1000", "1001").replace("10.00", "10.01")))
                .as("tampered body")
                .isInstanceOf(NotificationCheck.Invalid.class);
        assertThat(psp.verifyNotification(null, body)).as("no signature").isInstanceOf(NotificationCheck.Invalid.class);
        assertThat(psp.verifyNotification(harness.sign(body, clock.instant().minus(Duration.ofMinutes(6)), true), body))
                .as("stale")
                .isInstanceOf(NotificationCheck.Invalid.class);
        assertThat(psp.verifyNotification(harness.sign(body, clock.instant().plus(Duration.ofMinutes(6)), true), body))
                .as("from the future")
                .isInstanceOf(NotificationCheck.Invalid.class);

        var first = (NotificationCheck.Valid) psp.verifyNotification(good, body);
        var replayed = (NotificationCheck.Valid) psp.verifyNotification(good, body);
        assertThat(replayed.notification().eventId())
                .as("a replay inside the tolerance is the same event, which the" + " inbox deduplicates")
                .isEqualTo(first.notification().eventId());
        clock.advance(TOLERANCE.plusSeconds(1));
        assertThat(psp.verifyNotification(good, body))
                .as("a replay after the tolerance")
                .isInstanceOf(NotificationCheck.Invalid.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void amountsAreConvertedExactlyAtTheEdgeOrRefusedBeforeAnyCall(AdapterHarness harness) {
        PaymentProvider psp = adapter(harness);
        for (Money money : List.of(
                Money.of(1_099, "EUR"),
                Money.of(5_000, "JPY"),
                Money.of(12_000, "KRW"),
                Money.of(1_230, "KWD"),
                Money.of(1_235, "KWD"),
                Money.of(50, "ISK"),
                Money.of(1_500, "BHD"))) {
            PspRequest.Charge request = new PspRequest.Charge(
                    "kit_" + UUID.randomUUID(),
                    money,
                    harness.paymentMethod(Answer.APPROVE),
                    "order-" + UUID.randomUUID(),
                    true);
            ChargeOutcome outcome = psp.execute(request);
            OptionalLong units = harness.pspUnits(money);
            if (units.isEmpty()) {
                assertThat(outcome).as("%s", money).isInstanceOf(ChargeOutcome.Failed.class);
                assertThat(harness.chargeRequestsUnder(request.providerKey()))
                        .as("%s", money)
                        .isZero();
                continue;
            }
            assertThat(outcome).as("%s", money).isInstanceOf(ChargeOutcome.Succeeded.class);
            assertThat(harness.amountAtPsp(request.providerKey()))
                    .as("%s", money)
                    .isEqualTo(units.getAsLong());
            String body = harness.chargeSucceeded(
                    "evt_kit_" + UUID.randomUUID(), request.providerKey(), "ref_kit", money, clock.instant());
            assertThat(psp.verifyNotification(harness.sign(body, clock.instant(), true), body))
                    .isInstanceOfSatisfying(NotificationCheck.Valid.class, v -> {
                        assertThat(v.notification().amountMinor())
                                .as("%s", money)
                                .isEqualTo(money.minor());
                        assertThat(v.notification().currency())
                                .isEqualTo(money.currency().code());
                    });
        }
    }

    static CurrencyCode currency(String code) {
        return CurrencyCode.of(code);
    }
}
