package dev.kopek.payments.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.support.Gen;
import dev.kopek.support.Property;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of moves over the two state machines' tables, through the domain types' own transition
 * methods: a final state is never left, a refused move changes nothing, versions move by one per status change,
 * and the payment's amounts keep L7 (the {@link Payment.Amounts} constructor refuses anything else). The amount
 * moves below apply the guards of the conditional UPDATEs in {@code PaymentStore}, whose status sets
 * ({@link PaymentStatus#CAPTURABLE}, {@code VOIDABLE}, {@code REFUNDABLE}, {@code HOLDING}) that store writes into its
 * SQL; the statuses come only from the domain ({@link Payment#moveTo}, {@link Payment#paidStatus}, the dispute
 * rules).
 */
class TransitionPropertyTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private static final CurrencyCode EUR = CurrencyCode.of("EUR");

    // ---- operations (capture, void, refund): one table

    @Test
    void anOperationNeverLeavesAFinalStateAndCountsEachChangeOnce() {
        Property.check(500, operationMoves(), TransitionPropertyTest::operationNeverLeavesAFinalState);
    }

    private static void operationNeverLeavesAFinalState(List<OperationStatus> moves) {
        PaymentOperation op = new PaymentOperation(
                UUID.randomUUID(),
                new PaymentId(UUID.randomUUID()),
                new MerchantId(UUID.randomUUID()),
                OperationKind.REFUND,
                100,
                EUR,
                false,
                null,
                OperationStatus.PENDING,
                0,
                "kpk_x",
                null,
                null,
                T,
                T);
        int changes = 0;
        for (OperationStatus next : moves) {
            OperationStatus before = op.status();
            if (before.isFinal()) {
                PaymentOperation stuck = op;
                assertThatThrownBy(() -> stuck.moveTo(next, "psp_1", null)).isInstanceOf(IllegalTransition.class);
                continue;
            }
            op = op.moveTo(next, next == OperationStatus.SUCCEEDED ? "psp_1" : null, "why");
            changes += before == next ? 0 : 1;
            assertThat(op.version()).isEqualTo(changes);
            assertThat(op.amount()).isEqualTo(100);
        }
        assertThat(OperationStatus.predecessorsOf(OperationStatus.SUCCEEDED))
                .allSatisfy(s -> assertThat(s.isFinal()).isFalse());
    }

    /** The tables' final states are these and no others: a table edit that reopens one fails here first. */
    @Test
    void finalStatesAreExactlyTheseAndHaveNoWayOut() {
        assertThat(Arrays.stream(PaymentStatus.values()).filter(PaymentStatus::isFinal))
                .containsExactlyInAnyOrder(
                        PaymentStatus.CHARGED_BACK,
                        PaymentStatus.DECLINED,
                        PaymentStatus.FAILED,
                        PaymentStatus.VOIDED,
                        PaymentStatus.EXPIRED);
        assertThat(Arrays.stream(OperationStatus.values()).filter(OperationStatus::isFinal))
                .containsExactlyInAnyOrder(OperationStatus.SUCCEEDED, OperationStatus.FAILED);
    }

    /**
     * The guards' status sets agree with the table: a capture or a void is reserved only where the move its success
     * makes is allowed, a refund only on a paid payment, and a hold is released at expiry wherever one may be left.
     */
    @Test
    void theReservationGuardsAgreeWithTheTable() {
        assertThat(PaymentStatus.CAPTURABLE)
                .allSatisfy(s -> assertThat(s.isFinal()).isFalse())
                .allSatisfy(s -> assertThat(
                                s == PaymentStatus.CAPTURED || s.canMoveTo(PaymentStatus.CAPTURED) || s.isPaid())
                        .as("%s", s)
                        .isTrue());
        assertThat(PaymentStatus.VOIDABLE)
                .allSatisfy(s -> assertThat(s.canMoveTo(PaymentStatus.VOIDED)).isTrue());
        assertThat(PaymentStatus.REFUNDABLE)
                .allSatisfy(s -> assertThat(s.isPaid()).isTrue())
                .allSatisfy(s -> assertThat(s.canMoveTo(PaymentStatus.REFUNDED))
                        .as("%s", s)
                        .isTrue());
        assertThat(PaymentStatus.HOLDING)
                .containsAll(PaymentStatus.CAPTURABLE)
                .containsAll(PaymentStatus.VOIDABLE)
                .as("every paid state: a partial capture's rest may be held in any of them")
                .containsAll(Arrays.stream(PaymentStatus.values())
                        .filter(PaymentStatus::isPaid)
                        .toList());
    }

    private static Gen<List<OperationStatus>> operationMoves() {
        return Gen.of(OperationStatus.UNKNOWN, OperationStatus.SUCCEEDED, OperationStatus.FAILED)
                .list(1, 8);
    }

    // ---- payments

    enum Move {
        UNKNOWN,
        AUTHORIZE,
        CHARGE,
        DECLINE,
        RESERVE_CAPTURE,
        FINAL_CAPTURE,
        CONFIRM_CAPTURE,
        RELEASE_CAPTURE,
        VOID,
        EXPIRE,
        RESERVE_REFUND,
        CONFIRM_REFUND,
        RELEASE_REFUND,
        DISPUTE,
        DISPUTE_WON,
        DISPUTE_LOST,
        ANY_STATUS
    }

    record Step(Move move, int percent, PaymentStatus target) {}

    private static Gen<List<Step>> paymentLives() {
        Gen<Move> moves = Gen.of(Move.class);
        Gen<Integer> percents = Gen.ints(1, 100);
        Gen<PaymentStatus> targets = Gen.of(PaymentStatus.class);
        Gen<Step> steps = c -> new Step(moves.draw(c), percents.draw(c), targets.draw(c));
        return steps.list(1, 40);
    }

    /** The in-flight reservations a life has open, so that confirm and release act on what was reserved. */
    private static final class Life {
        Payment payment = payment(PaymentStatus.PENDING, new Payment.Amounts(0, 0, 0, 0, 0, 0, 0), 0, false);
        long pendingCapture;
        boolean pendingFinal;
        long pendingRefund;
        long openDispute;
        boolean lost;
        int changes;
    }

    @Test
    void aPaymentNeverLeavesAFinalStateAndKeepsItsAmounts() {
        Property.check(1_000, paymentLives(), TransitionPropertyTest::paymentNeverLeavesAFinalState);
    }

    private static void paymentNeverLeavesAFinalState(List<Step> steps) {
        Life life = new Life();
        for (Step step : steps) {
            PaymentStatus before = life.payment.status();
            Payment.Amounts amountsBefore = life.payment.amounts();
            boolean moved = apply(life, step);
            Payment after = life.payment;
            if (before.isFinal()) {
                assertThat(after.status()).as("%s left final %s", step, before).isEqualTo(before);
            }
            if (!moved) {
                assertThat(after.amounts()).isEqualTo(amountsBefore);
                assertThat(after.status()).isEqualTo(before);
            }
            assertThat(after.version()).as("one version per status change").isEqualTo(life.changes);
            if (after.status() == PaymentStatus.REFUNDED) {
                assertThat(after.amounts().refunded()).isEqualTo(after.amounts().captured());
                assertThat(after.amounts().refundPending()).isZero();
            }
        }
    }

    /** One step; false when the domain (or the reservation's guard) refused it and nothing changed. */
    private static boolean apply(Life life, Step step) {
        Payment p = life.payment;
        Payment.Amounts a = p.amounts();
        long total = p.amount().minor();
        try {
            return switch (step.move()) {
                case UNKNOWN -> open(p) && move(life, p.moveTo(PaymentStatus.UNKNOWN));
                case AUTHORIZE ->
                    open(p)
                            && move(
                                    life,
                                    with(p, new Payment.Amounts(total, 0, 0, 0, 0, 0, 0))
                                            .moveTo(PaymentStatus.AUTHORIZED));
                case CHARGE ->
                    open(p)
                            && move(
                                    life,
                                    with(p, new Payment.Amounts(total, total, 0, 0, 0, 0, 0))
                                            .moveTo(PaymentStatus.CAPTURED));
                case DECLINE -> open(p) && move(life, p.moveTo(PaymentStatus.DECLINED));
                case RESERVE_CAPTURE, FINAL_CAPTURE ->
                    reserveCapture(life, share(a.capturable(), step.percent()), step.move() == Move.FINAL_CAPTURE);
                case CONFIRM_CAPTURE ->
                    life.pendingCapture > 0
                            && settle(
                                    life,
                                    new Payment.Amounts(
                                            a.authorized(),
                                            a.captured() + life.pendingCapture,
                                            a.capturePending() - life.pendingCapture,
                                            a.released(),
                                            a.refunded(),
                                            a.refundPending(),
                                            a.disputed()),
                                    p.captureFinalized(),
                                    () -> life.pendingCapture = 0);
                case RELEASE_CAPTURE ->
                    life.pendingCapture > 0
                            && settle(
                                    life,
                                    new Payment.Amounts(
                                            a.authorized(),
                                            a.captured(),
                                            a.capturePending() - life.pendingCapture,
                                            life.pendingFinal ? 0 : a.released(),
                                            a.refunded(),
                                            a.refundPending(),
                                            a.disputed()),
                                    p.captureFinalized() && !life.pendingFinal,
                                    () -> life.pendingCapture = 0);
                case VOID, EXPIRE ->
                    PaymentStatus.VOIDABLE.contains(p.status())
                            && !p.captureFinalized()
                            && a.captured() == 0
                            && a.capturePending() == 0
                            && move(
                                    life,
                                    with(p, new Payment.Amounts(a.authorized(), 0, 0, a.authorized(), 0, 0, 0))
                                            .moveTo(
                                                    step.move() == Move.VOID
                                                            ? PaymentStatus.VOIDED
                                                            : PaymentStatus.EXPIRED));
                case RESERVE_REFUND -> reserveRefund(life, share(a.refundable(), step.percent()));
                case CONFIRM_REFUND ->
                    life.pendingRefund > 0
                            && settle(
                                    life,
                                    new Payment.Amounts(
                                            a.authorized(),
                                            a.captured(),
                                            a.capturePending(),
                                            a.released(),
                                            a.refunded() + life.pendingRefund,
                                            a.refundPending() - life.pendingRefund,
                                            a.disputed()),
                                    p.captureFinalized(),
                                    () -> life.pendingRefund = 0);
                case RELEASE_REFUND ->
                    life.pendingRefund > 0
                            && settle(
                                    life,
                                    new Payment.Amounts(
                                            a.authorized(),
                                            a.captured(),
                                            a.capturePending(),
                                            a.released(),
                                            a.refunded(),
                                            a.refundPending() - life.pendingRefund,
                                            a.disputed()),
                                    p.captureFinalized(),
                                    () -> life.pendingRefund = 0);
                case DISPUTE ->
                    life.openDispute == 0 && a.captured() > 0 && dispute(life, share(a.captured(), step.percent()));
                case DISPUTE_WON, DISPUTE_LOST ->
                    life.openDispute > 0 && closeDispute(life, step.move() == Move.DISPUTE_LOST);
                case ANY_STATUS -> refused(p, step.target());
            };
        } catch (IllegalTransition refused) {
            return false;
        }
    }

    private static boolean reserveCapture(Life life, long amount, boolean finalCapture) {
        Payment p = life.payment;
        Payment.Amounts a = p.amounts();
        boolean capturable = PaymentStatus.CAPTURABLE.contains(p.status());
        if (!capturable
                || p.captureFinalized()
                || life.pendingCapture > 0
                || amount <= 0
                || amount > a.capturable()
                || (finalCapture && a.capturePending() > 0)) {
            return false;
        }
        long released = finalCapture ? a.authorized() - a.captured() - a.capturePending() - amount : a.released();
        life.pendingCapture = amount;
        life.pendingFinal = finalCapture;
        life.payment = payment(
                p.status(),
                new Payment.Amounts(
                        a.authorized(),
                        a.captured(),
                        a.capturePending() + amount,
                        released,
                        a.refunded(),
                        a.refundPending(),
                        a.disputed()),
                p.version(),
                finalCapture);
        return true;
    }

    private static boolean reserveRefund(Life life, long amount) {
        Payment p = life.payment;
        Payment.Amounts a = p.amounts();
        boolean refundable = PaymentStatus.REFUNDABLE.contains(p.status());
        if (!refundable || life.pendingRefund > 0 || amount <= 0 || amount > a.refundable()) {
            return false;
        }
        life.pendingRefund = amount;
        life.payment = payment(
                p.status(),
                new Payment.Amounts(
                        a.authorized(),
                        a.captured(),
                        a.capturePending(),
                        a.released(),
                        a.refunded(),
                        a.refundPending() + amount,
                        a.disputed()),
                p.version(),
                p.captureFinalized());
        return true;
    }

    private static boolean dispute(Life life, long amount) {
        Payment p = life.payment;
        Payment.Amounts a = p.amounts();
        Payment withAmount = payment(
                p.status(),
                new Payment.Amounts(
                        a.authorized(),
                        a.captured(),
                        a.capturePending(),
                        a.released(),
                        a.refunded(),
                        a.refundPending(),
                        a.disputed() + amount),
                p.version(),
                p.captureFinalized());
        life.openDispute = amount;
        return move(life, withAmount.moveTo(withAmount.statusAfterDisputeOpened()));
    }

    private static boolean closeDispute(Life life, boolean lost) {
        Payment p = life.payment;
        Payment.Amounts a = p.amounts();
        long back = lost ? 0 : life.openDispute;
        life.lost |= lost;
        life.openDispute = 0;
        Payment withAmount = payment(
                p.status(),
                new Payment.Amounts(
                        a.authorized(),
                        a.captured(),
                        a.capturePending(),
                        a.released(),
                        a.refunded(),
                        a.refundPending(),
                        a.disputed() - back),
                p.version(),
                p.captureFinalized());
        return move(life, withAmount.moveTo(withAmount.statusAfterDisputeClosed(false, life.lost)));
    }

    /** A confirmed or released reservation: new amounts, then the status they call for (the domain's rule). */
    private static boolean settle(Life life, Payment.Amounts amounts, boolean finalized, Runnable done) {
        Payment p = life.payment;
        Payment withAmounts = payment(p.status(), amounts, p.version(), finalized);
        done.run();
        return move(life, withAmounts.moveTo(withAmounts.paidStatus()));
    }

    /** A PSP outcome of the payment's own attempt applies only while that attempt is open. */
    private static boolean open(Payment p) {
        return p.status() == PaymentStatus.PENDING || p.status() == PaymentStatus.UNKNOWN;
    }

    /** Any move the table forbids is refused by the domain and changes nothing; allowed ones need their amounts. */
    private static boolean refused(Payment p, PaymentStatus target) {
        if (target != p.status() && !p.status().canMoveTo(target)) {
            assertThatThrownBy(() -> p.moveTo(target)).isInstanceOf(IllegalTransition.class);
        }
        return false;
    }

    private static boolean move(Life life, Payment next) {
        if (next.status() != life.payment.status()) {
            life.changes++;
        }
        life.payment = next;
        return true;
    }

    private static Payment with(Payment p, Payment.Amounts amounts) {
        return payment(p.status(), amounts, p.version(), p.captureFinalized());
    }

    private static long share(long of, int percent) {
        return of * percent / 100;
    }

    private static Payment payment(PaymentStatus status, Payment.Amounts amounts, int version, boolean finalized) {
        return new Payment(
                new PaymentId(new UUID(0, 1)),
                new MerchantId(new UUID(0, 2)),
                "ref",
                "key",
                "kpk_1",
                new Money(10_000, EUR),
                amounts,
                "pm_ok",
                "manual",
                null,
                null,
                status,
                version,
                null,
                null,
                null,
                T.plusSeconds(3600),
                finalized,
                T,
                T,
                null,
                null);
    }
}
