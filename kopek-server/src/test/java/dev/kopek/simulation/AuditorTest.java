package dev.kopek.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulation.Auditor.Check;
import dev.kopek.simulation.World.DisputeRow;
import dev.kopek.simulation.World.EventRow;
import dev.kopek.simulation.World.Finding;
import dev.kopek.simulation.World.LedgerEntry;
import dev.kopek.simulation.World.NotificationRow;
import dev.kopek.simulation.World.Observation;
import dev.kopek.simulation.World.OperationRow;
import dev.kopek.simulation.World.PaymentRow;
import dev.kopek.simulation.World.PspCharge;
import dev.kopek.simulation.World.PspMovement;
import dev.kopek.simulation.World.RefundRow;
import dev.kopek.simulation.World.ReviewRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The auditor audited: a consistent world passes, and for each check a world that breaks exactly that law makes
 * exactly that check fail. Without this, a check that can never fail would look like a passing law.
 */
class AuditorTest {

    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
    private static final UUID MERCHANT = UUID.randomUUID();
    private static final UUID PAYMENT = UUID.randomUUID();
    private static final UUID CAPTURE = UUID.randomUUID();
    private static final UUID REFUND = UUID.randomUUID();
    private static final UUID DISPUTE = UUID.randomUUID();

    /**
     * A manual payment authorized for 1,000, captured 600 (final, 400 released), refunded 100, disputed 200 — its
     * rows, events, journal and PSP record all agreeing.
     */
    private static World consistent() {
        PaymentRow payment = new PaymentRow(
                PAYMENT,
                MERCHANT,
                "r-1",
                "DISPUTED",
                1_000,
                1_000,
                600,
                0,
                400,
                100,
                0,
                200,
                "ch_1",
                "pk-pay",
                4,
                NOW.plusSeconds(3_600));
        OperationRow capture =
                new OperationRow(CAPTURE, PAYMENT, MERCHANT, "capture", 600, "SUCCEEDED", 1, "cap_1", "pk-cap", null);
        RefundRow refund = new RefundRow(REFUND, PAYMENT, MERCHANT, 100, "SUCCEEDED", 1, "re_1", "pk-re", null);
        DisputeRow dispute = new DisputeRow(DISPUTE, PAYMENT, MERCHANT, "dp_1", 200, "OPEN", 0);
        List<EventRow> events = List.of(
                event(1, "payment.created", PAYMENT, 0), event(2, "payment.authorized", PAYMENT, 1),
                event(3, "payment.captured", PAYMENT, 2), event(4, "refund.pending", REFUND, 0),
                event(5, "payment.partially_refunded", PAYMENT, 3), event(6, "refund.succeeded", REFUND, 1),
                event(7, "dispute.opened", DISPUTE, 0), event(8, "payment.disputed", PAYMENT, 4));
        UUID held = UUID.randomUUID();
        UUID captured = UUID.randomUUID();
        UUID released = UUID.randomUUID();
        UUID reserved = UUID.randomUUID();
        UUID refunded = UUID.randomUUID();
        UUID withdrawn = UUID.randomUUID();
        List<LedgerEntry> ledger = List.of(
                entry(held, "AUTHORIZATION_HELD", "HOLDS_RECEIVABLE", "debit", 1_000),
                entry(held, "AUTHORIZATION_HELD", "HOLDS_PAYABLE", "credit", 1_000),
                entry(captured, "CAPTURED", "PSP_RECEIVABLE", "debit", 600),
                entry(captured, "CAPTURED", "MERCHANT_PAYABLE", "credit", 600),
                entry(captured, "CAPTURED", "HOLDS_PAYABLE", "debit", 600),
                entry(captured, "CAPTURED", "HOLDS_RECEIVABLE", "credit", 600),
                entry(released, "AUTHORIZATION_RELEASED", "HOLDS_PAYABLE", "debit", 400),
                entry(released, "AUTHORIZATION_RELEASED", "HOLDS_RECEIVABLE", "credit", 400),
                entry(reserved, "REFUND_RESERVED", "MERCHANT_PAYABLE", "debit", 100),
                entry(reserved, "REFUND_RESERVED", "REFUNDS_PENDING", "credit", 100),
                entry(refunded, "REFUND_SUCCEEDED", "REFUNDS_PENDING", "debit", 100),
                entry(refunded, "REFUND_SUCCEEDED", "PSP_RECEIVABLE", "credit", 100),
                entry(withdrawn, "CHARGEBACK_WITHDRAWN", "MERCHANT_PAYABLE", "debit", 200),
                entry(withdrawn, "CHARGEBACK_WITHDRAWN", "CHARGEBACKS", "credit", 200));
        List<PspMovement> movements = List.of(
                new PspMovement("ch_1", "ch_1", "authorization", 1_000, "pk-pay", "succeeded"),
                new PspMovement("cap_1", "ch_1", "capture", 600, "pk-cap", "succeeded"),
                new PspMovement("re_1", "ch_1", "refund", 100, "pk-re", "succeeded"),
                new PspMovement("dp_1", "ch_1", "chargeback", 200, null, "succeeded"));
        return new World(
                NOW,
                List.of(payment),
                List.of(capture),
                List.of(refund),
                List.of(dispute),
                List.of(),
                events,
                ledger,
                List.of(new NotificationRow("evt_1", "dispute.opened", "dp_1", "applied")),
                List.of(new PspCharge("ch_1", "pk-pay", "r-1", 1_000, "authorized")),
                movements,
                List.of(new Observation("pay_1", "authorized"), new Observation("pay_1", "captured")),
                List.of());
    }

    private static EventRow event(long position, String type, UUID resource, long sequence) {
        return new EventRow(position, type, type.substring(0, type.indexOf('.')), resource, MERCHANT, sequence, "{}");
    }

    private static LedgerEntry entry(UUID tx, String kind, String account, String side, long amount) {
        return new LedgerEntry(tx, PAYMENT, kind, null, account, side, amount, "EUR");
    }

    private static List<Check> checksFailing(World world) {
        return Auditor.audit(world).stream()
                .map(Auditor.Violation::check)
                .distinct()
                .toList();
    }

    private static World with(UnaryOperator<Builder> change) {
        return change.apply(new Builder(consistent())).build();
    }

    @Test
    void aConsistentWorldPasses() {
        assertThat(Auditor.audit(consistent())).isEmpty();
    }

    @Test
    void anIntentChargedTwiceFails() {
        World w = with(b -> b.charges(List.of(
                new PspCharge("ch_1", "pk-pay", "r-1", 1_000, "authorized"),
                new PspCharge("ch_2", "pk-pay-2", "r-1", 1_000, "succeeded"))));
        assertThat(checksFailing(w)).contains(Check.INTENT_CHARGED_AT_MOST_ONCE);
    }

    @Test
    void aPspRefundKopekDoesNotKnowFailsUnlessAPersonHasIt() {
        World unknown = with(b ->
                b.refunds(List.of(new RefundRow(REFUND, PAYMENT, MERCHANT, 100, "PENDING", 1, null, "pk-re", null))));
        assertThat(checksFailing(unknown)).contains(Check.PSP_MOVEMENT_KNOWN, Check.NOTHING_IN_LIMBO);
        World reviewed = new Builder(unknown)
                .reviews(List.of(new ReviewRow(UUID.randomUUID(), PAYMENT, "refund", REFUND, true)))
                .build();
        assertThat(checksFailing(reviewed)).doesNotContain(Check.PSP_MOVEMENT_KNOWN, Check.NOTHING_IN_LIMBO);
    }

    @Test
    void aCaptureKopekInventedFails() {
        World w = with(b -> b.movements(b.world.pspMovements().stream()
                .filter(m -> !m.type().equals("capture"))
                .toList()));
        assertThat(checksFailing(w)).contains(Check.KOPEK_MOVEMENT_AT_PSP);
    }

    @Test
    void capturedAboveAuthorizedFails() {
        World w = with(b -> b.payment(p -> new PaymentRow(
                p.id(),
                p.merchant(),
                p.reference(),
                p.status(),
                p.amount(),
                p.authorized(),
                900,
                0,
                400,
                p.refunded(),
                0,
                p.disputed(),
                p.pspReference(),
                p.providerKey(),
                p.version(),
                p.captureBefore())));
        assertThat(checksFailing(w)).contains(Check.AMOUNT_LIMITS);
    }

    @Test
    void figuresThatDifferFromThePspFail() {
        World w = with(b -> b.payment(p -> new PaymentRow(
                p.id(),
                p.merchant(),
                p.reference(),
                p.status(),
                p.amount(),
                p.authorized(),
                p.captured(),
                0,
                p.released(),
                p.refunded(),
                0,
                0,
                p.pspReference(),
                p.providerKey(),
                p.version(),
                p.captureBefore())));
        assertThat(checksFailing(w)).contains(Check.FIGURES_EQUAL_PSP);
    }

    @Test
    void anUnbalancedJournalTransactionFails() {
        List<LedgerEntry> ledger = new ArrayList<>(consistent().ledger());
        LedgerEntry last = ledger.removeLast();
        ledger.add(new LedgerEntry(
                last.transaction(), PAYMENT, last.kind(), null, last.accountType(), last.side(), 199, "EUR"));
        assertThat(checksFailing(with(b -> b.ledger(ledger)))).contains(Check.LEDGER_BALANCED);
    }

    @Test
    void aJournalWithoutTheChargebackFails() {
        World w = with(b -> b.ledger(b.world.ledger().stream()
                .filter(e -> !e.kind().equals("CHARGEBACK_WITHDRAWN"))
                .toList()));
        assertThat(checksFailing(w)).containsExactly(Check.JOURNAL_EQUALS_PSP);
    }

    @Test
    void aHoldLeftAfterExpiryFails() {
        World w = with(b -> b.payment(p -> new PaymentRow(
                        p.id(),
                        p.merchant(),
                        p.reference(),
                        p.status(),
                        p.amount(),
                        p.authorized(),
                        p.captured(),
                        0,
                        p.released(),
                        p.refunded(),
                        0,
                        p.disputed(),
                        p.pspReference(),
                        p.providerKey(),
                        p.version(),
                        NOW.minusSeconds(60)))
                .movements(b.world.pspMovements()));
        World holding = new Builder(w)
                .payment(p -> new PaymentRow(
                        p.id(),
                        p.merchant(),
                        p.reference(),
                        p.status(),
                        p.amount(),
                        p.authorized(),
                        p.captured(),
                        0,
                        0,
                        p.refunded(),
                        0,
                        p.disputed(),
                        p.pspReference(),
                        p.providerKey(),
                        p.version(),
                        p.captureBefore()))
                .build();
        assertThat(checksFailing(holding)).contains(Check.HOLD_RELEASED);
    }

    @Test
    void aGapInAResourcesEventSequenceFails() {
        World w = with(b -> b.events(b.world.events().stream()
                .filter(e -> e.sequence() != 2 || !e.resourceId().equals(PAYMENT))
                .toList()));
        assertThat(checksFailing(w)).containsExactly(Check.EVENTS_WITHOUT_GAPS);
    }

    @Test
    void aVersionBumpWithoutAnEventFails() {
        World w = with(b -> b.payment(p -> new PaymentRow(
                p.id(),
                p.merchant(),
                p.reference(),
                p.status(),
                p.amount(),
                p.authorized(),
                p.captured(),
                0,
                p.released(),
                p.refunded(),
                0,
                p.disputed(),
                p.pspReference(),
                p.providerKey(),
                9,
                p.captureBefore())));
        assertThat(checksFailing(w)).containsExactly(Check.EVENTS_WITHOUT_GAPS);
    }

    @Test
    void aDeclinedCaptureWithoutAnEventFails() {
        World w = with(b -> b.operations(List.of(
                new OperationRow(CAPTURE, PAYMENT, MERCHANT, "capture", 600, "SUCCEEDED", 1, "cap_1", "pk-cap", null),
                new OperationRow(
                        UUID.randomUUID(),
                        PAYMENT,
                        MERCHANT,
                        "capture",
                        50,
                        "FAILED",
                        1,
                        null,
                        "pk-cap-2",
                        "declined"))));
        assertThat(checksFailing(w)).containsExactly(Check.OPERATION_OUTCOME_ANNOUNCED);
    }

    @Test
    void leavingAFinalStateFails() {
        World w = with(
                b -> b.observations(List.of(new Observation("pay_1", "voided"), new Observation("pay_1", "captured"))));
        assertThat(checksFailing(w)).containsExactly(Check.FINAL_STAYS_FINAL);
    }

    @Test
    void aRefundUnderAnotherMerchantFails() {
        World w = with(b -> b.refunds(List.of(
                new RefundRow(REFUND, PAYMENT, UUID.randomUUID(), 100, "SUCCEEDED", 1, "re_1", "pk-re", null))));
        assertThat(checksFailing(w)).contains(Check.MERCHANT_ISOLATION);
    }

    @Test
    void disputedAndRefundedAboveCapturedWithoutAReviewFails() {
        UnaryOperator<PaymentRow> overlap = p -> new PaymentRow(
                p.id(),
                p.merchant(),
                p.reference(),
                p.status(),
                p.amount(),
                p.authorized(),
                p.captured(),
                0,
                p.released(),
                500,
                0,
                p.disputed(),
                p.pspReference(),
                p.providerKey(),
                p.version(),
                p.captureBefore());
        assertThat(checksFailing(with(b -> b.payment(overlap)))).contains(Check.OVERLAP_REVIEWED);
        World told = with(b -> b.payment(overlap)
                .reviews(List.of(new ReviewRow(UUID.randomUUID(), PAYMENT, "exposure", DISPUTE, false))));
        assertThat(checksFailing(told)).doesNotContain(Check.OVERLAP_REVIEWED);
    }

    @Test
    void aNotificationLeftWaitingFails() {
        World w = with(b -> b.notifications(List.of(new NotificationRow("evt_1", "dispute.opened", "dp_1", null))));
        assertThat(checksFailing(w)).containsExactly(Check.NOTHING_IN_LIMBO);
    }

    @Test
    void anOpenReviewOfSomethingDecidedFails() {
        World w = with(b -> b.reviews(List.of(new ReviewRow(UUID.randomUUID(), PAYMENT, "capture", CAPTURE, true))));
        assertThat(checksFailing(w)).contains(Check.REVIEW_HAS_A_REASON);
    }

    @Test
    void aSucceededRefundWithAFailureReasonFails() {
        World w = with(b -> b.refunds(List.of(
                new RefundRow(REFUND, PAYMENT, MERCHANT, 100, "SUCCEEDED", 1, "re_1", "pk-re", "psp timed out"))));
        assertThat(checksFailing(w)).containsExactly(Check.SUCCEEDED_IS_CLEAN);
    }

    @Test
    void whatTheDriverSawIsReported() {
        World w = with(b -> b.findings(List.of(new Finding("L11", "another merchant's GET answered 200"))));
        assertThat(checksFailing(w)).containsExactly(Check.API_CONTRACT);
    }

    /** Copies a world with one part replaced. */
    private static final class Builder {
        World world;

        Builder(World world) {
            this.world = world;
        }

        Builder payment(UnaryOperator<PaymentRow> change) {
            return set(new World(
                    world.now(),
                    world.payments().stream().map(change).toList(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    world.ledger(),
                    world.notifications(),
                    world.pspCharges(),
                    world.pspMovements(),
                    world.observations(),
                    world.driverFindings()));
        }

        Builder operations(List<OperationRow> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    rows,
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    world.ledger(),
                    world.notifications(),
                    world.pspCharges(),
                    world.pspMovements(),
                    world.observations(),
                    world.driverFindings()));
        }

        Builder refunds(List<RefundRow> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    rows,
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    world.ledger(),
                    world.notifications(),
                    world.pspCharges(),
                    world.pspMovements(),
                    world.observations(),
                    world.driverFindings()));
        }

        Builder reviews(List<ReviewRow> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    rows,
                    world.events(),
                    world.ledger(),
                    world.notifications(),
                    world.pspCharges(),
                    world.pspMovements(),
                    world.observations(),
                    world.driverFindings()));
        }

        Builder events(List<EventRow> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    rows,
                    world.ledger(),
                    world.notifications(),
                    world.pspCharges(),
                    world.pspMovements(),
                    world.observations(),
                    world.driverFindings()));
        }

        Builder ledger(List<LedgerEntry> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    rows,
                    world.notifications(),
                    world.pspCharges(),
                    world.pspMovements(),
                    world.observations(),
                    world.driverFindings()));
        }

        Builder notifications(List<NotificationRow> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    world.ledger(),
                    rows,
                    world.pspCharges(),
                    world.pspMovements(),
                    world.observations(),
                    world.driverFindings()));
        }

        Builder charges(List<PspCharge> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    world.ledger(),
                    world.notifications(),
                    rows,
                    world.pspMovements(),
                    world.observations(),
                    world.driverFindings()));
        }

        Builder movements(List<PspMovement> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    world.ledger(),
                    world.notifications(),
                    world.pspCharges(),
                    rows,
                    world.observations(),
                    world.driverFindings()));
        }

        Builder observations(List<Observation> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    world.ledger(),
                    world.notifications(),
                    world.pspCharges(),
                    world.pspMovements(),
                    rows,
                    world.driverFindings()));
        }

        Builder findings(List<Finding> rows) {
            return set(new World(
                    world.now(),
                    world.payments(),
                    world.operations(),
                    world.refunds(),
                    world.disputes(),
                    world.openReviews(),
                    world.events(),
                    world.ledger(),
                    world.notifications(),
                    world.pspCharges(),
                    world.pspMovements(),
                    world.observations(),
                    rows));
        }

        private Builder set(World w) {
            this.world = w;
            return this;
        }

        World build() {
            return world;
        }
    }
}
