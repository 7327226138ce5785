package dev.kopek.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.chaos.Evidence.Answer;
import dev.kopek.chaos.Evidence.ClientAnswers;
import dev.kopek.chaos.Evidence.LedgerTotals;
import dev.kopek.chaos.Evidence.Operation;
import dev.kopek.chaos.Evidence.OutboxEvent;
import dev.kopek.chaos.Evidence.Payment;
import dev.kopek.chaos.Evidence.PspCharge;
import dev.kopek.chaos.Evidence.PspMovement;
import dev.kopek.chaos.Evidence.Review;
import dev.kopek.chaos.Evidence.StuckKey;
import dev.kopek.chaos.Evidence.TopicEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Each check of the auditor passes on consistent evidence and fails on evidence that breaks its law. */
class AuditorTest {

    private static final UUID PAYMENT = UUID.fromString("0190f3a0-0000-7000-8000-000000000001");
    private static final UUID REFUND = UUID.fromString("0190f3a0-0000-7000-8000-000000000002");
    private static final String PAY = PublicIds.payment(PAYMENT);
    private static final String RE = PublicIds.refund(REFUND);
    private static final String BODY = "{\"id\":\"" + PAY + "\",\"status\":\"captured\"}";

    /** An automatic payment of 1000 captured, 400 of it refunded: what every record agrees on. */
    private static Evidence consistent() {
        List<TopicEvent> topic = List.of(
                new TopicEvent("evt_p1", PAY, 1, 0, 0, "captured"),
                new TopicEvent("evt_p2", PAY, 2, 0, 1, "partially_refunded"),
                new TopicEvent("evt_r1", RE, 1, 1, 0, "pending"),
                new TopicEvent("evt_r2", RE, 2, 1, 1, "succeeded"));
        return new Evidence(
                List.of(new PspCharge("ch_1", "pk1", "order-1", "succeeded")),
                List.of(
                        new PspMovement("ch_1", "ch_1", "charge", 1000, "pk1", true),
                        new PspMovement("re_1", "ch_1", "refund", 400, "rk1", true)),
                List.of(payment("PARTIALLY_REFUNDED", 1000, 400)),
                List.of(new Operation(REFUND, PAYMENT, "refund", 400, "SUCCEEDED", "rk1")),
                List.of(),
                List.of(),
                List.of(new LedgerTotals(PAYMENT, 1000, 400, 0)),
                List.of(),
                List.of(),
                List.of(
                        new OutboxEvent("evt_p1", "payment", PAY, 1), new OutboxEvent("evt_p2", "payment", PAY, 2),
                        new OutboxEvent("evt_r1", "refund", RE, 1), new OutboxEvent("evt_r2", "refund", RE, 2)),
                topic,
                List.of(new ClientAnswers(
                        "payment",
                        "order-1-pay",
                        List.of(
                                new Answer(201, false, BODY),
                                new Answer(409, false, "{\"code\":\"request_in_progress\"}"),
                                new Answer(201, true, BODY)))));
    }

    private static Payment payment(String status, long captured, long refunded) {
        return new Payment(PAYMENT, "order-1", "pk1", "ch_1", status, 1000, 1000, captured, refunded, 0, 0, 0, 3);
    }

    @Test
    void consistentEvidenceHasNoViolations() {
        Auditor.Report report = Auditor.audit(consistent());
        assertThat(report.violations())
                .allSatisfy((check, found) -> assertThat(found).as(check).isEmpty());
        assertThat(report.total()).isZero();
    }

    @Test
    void aSecondChargeUnderOneKeyOrOneIntentIsADoubleCharge() {
        Auditor.Report sameKey = audit(e -> with(
                e,
                movements(e, new PspMovement("ch_2", "ch_2", "charge", 1000, "pk1", true)),
                charges(e, new PspCharge("ch_2", "pk1", "order-1", "succeeded"))));
        assertThat(sameKey.count(Auditor.DOUBLE_CHARGES)).isEqualTo(2);

        Auditor.Report sameIntent = audit(e -> with(
                e,
                movements(e, new PspMovement("ch_3", "ch_3", "charge", 1000, "pk-other", true)),
                charges(e, new PspCharge("ch_3", "pk-other", "order-1", "succeeded"))));
        assertThat(sameIntent.examples(Auditor.DOUBLE_CHARGES))
                .singleElement()
                .asString()
                .contains("order-1");
    }

    @Test
    void aDeclinedRetryIsNotADoubleCharge() {
        Auditor.Report report = audit(e -> with(
                e,
                movements(e, new PspMovement("ch_2", "ch_2", "charge", 1000, "pk1", false)),
                charges(e, new PspCharge("ch_2", "pk1", "order-1", "declined"))));
        assertThat(report.count(Auditor.DOUBLE_CHARGES)).isZero();
    }

    @Test
    void aPspMovementKopekDoesNotKnowIsAViolationUnlessParkedForAPerson() {
        UnaryOperator<Evidence> unknownVoid = e ->
                with(e, movements(e, new PspMovement("void_1", "ch_1", "void", 1000, "vk1", true)), e.pspCharges());
        assertThat(audit(unknownVoid).count(Auditor.UNKNOWN_PSP_MOVEMENTS)).isEqualTo(1);

        Auditor.Report parked =
                audit(e -> withReviews(unknownVoid.apply(e), List.of(new Review(PAYMENT, "payment", PAYMENT, true))));
        assertThat(parked.count(Auditor.UNKNOWN_PSP_MOVEMENTS)).isZero();
        assertThat(parked.openReviews()).isEqualTo(1);

        Auditor.Report resolved =
                audit(e -> withReviews(unknownVoid.apply(e), List.of(new Review(PAYMENT, "payment", PAYMENT, false))));
        assertThat(resolved.count(Auditor.UNKNOWN_PSP_MOVEMENTS)).isEqualTo(1);
    }

    @Test
    void kopekAmountsDifferentFromThePspAreAViolation() {
        Auditor.Report report = audit(e -> withPayments(e, List.of(payment("PARTIALLY_REFUNDED", 900, 400))));
        assertThat(report.count(Auditor.AMOUNT_MISMATCHES)).isEqualTo(1);
    }

    @Test
    void refundedMoreThanCapturedIsAViolationAtThePspAndInKopek() {
        Auditor.Report atPsp = audit(e ->
                with(e, movements(e, new PspMovement("re_2", "ch_1", "refund", 700, "rk2", true)), e.pspCharges()));
        assertThat(atPsp.examples(Auditor.REFUNDED_OVER_CAPTURED)).anyMatch(x -> x.contains("PSP charge ch_1"));

        Auditor.Report inKopek = audit(e -> withPayments(
                e,
                List.of(new Payment(
                        PAYMENT,
                        "order-1",
                        "pk1",
                        "ch_1",
                        "PARTIALLY_REFUNDED",
                        1000,
                        1000,
                        1000,
                        400,
                        700,
                        0,
                        0,
                        3))));
        assertThat(inKopek.examples(Auditor.REFUNDED_OVER_CAPTURED)).anyMatch(x -> x.contains("pending 700"));
    }

    @Test
    void anUnbalancedLedgerTransactionIsAViolation() {
        Auditor.Report report = audit(e -> new Evidence(
                e.pspCharges(),
                e.pspMovements(),
                e.payments(),
                e.operations(),
                e.disputes(),
                e.reviews(),
                e.ledgerTotals(),
                List.of("ledger transaction x EUR debits minus credits 5"),
                e.stuckKeys(),
                e.outbox(),
                e.topic(),
                e.answers()));
        assertThat(report.count(Auditor.UNBALANCED_LEDGER)).isEqualTo(1);
    }

    @Test
    void aLedgerThatDiffersFromThePspIsAViolation() {
        Auditor.Report report = audit(e -> new Evidence(
                e.pspCharges(),
                e.pspMovements(),
                e.payments(),
                e.operations(),
                e.disputes(),
                e.reviews(),
                List.of(new LedgerTotals(PAYMENT, 2000, 400, 0)),
                e.unbalancedLedgerTransactions(),
                e.stuckKeys(),
                e.outbox(),
                e.topic(),
                e.answers()));
        assertThat(report.count(Auditor.LEDGER_VS_PSP)).isEqualTo(1);
        Auditor.Report missing = audit(e -> new Evidence(
                e.pspCharges(),
                e.pspMovements(),
                e.payments(),
                e.operations(),
                e.disputes(),
                e.reviews(),
                List.of(),
                e.unbalancedLedgerTransactions(),
                e.stuckKeys(),
                e.outbox(),
                e.topic(),
                e.answers()));
        assertThat(missing.count(Auditor.LEDGER_VS_PSP)).isEqualTo(1);
    }

    @Test
    void somethingUndecidedOutsideReviewIsStuck() {
        UnaryOperator<Evidence> stuckKey = e -> new Evidence(
                e.pspCharges(),
                e.pspMovements(),
                e.payments(),
                e.operations(),
                e.disputes(),
                e.reviews(),
                e.ledgerTotals(),
                e.unbalancedLedgerTransactions(),
                List.of(new StuckKey("refund", "rk3", REFUND, "AWAITING_RESULT")),
                e.outbox(),
                e.topic(),
                e.answers());
        assertThat(audit(stuckKey).count(Auditor.STUCK)).isEqualTo(1);
        assertThat(audit(e -> withReviews(stuckKey.apply(e), List.of(new Review(PAYMENT, "refund", REFUND, true))))
                        .count(Auditor.STUCK))
                .isZero();

        Auditor.Report unknownPayment = audit(e -> withPayments(
                e,
                List.of(new Payment(PAYMENT, "order-1", "pk1", "ch_1", "UNKNOWN", 1000, 1000, 1000, 400, 0, 0, 0, 3))));
        assertThat(unknownPayment.count(Auditor.STUCK)).isEqualTo(1);
    }

    @Test
    void aStateChangeWhoseEventNeverReachedTheTopicIsAViolation() {
        Auditor.Report report = audit(e -> withTopic(e, e.topic().subList(0, 3)));
        assertThat(report.examples(Auditor.EVENTS_MISSING))
                .anyMatch(x -> x.contains("evt_r2") && x.contains("never reached the topic"))
                .anyMatch(x -> x.contains(RE + " is succeeded but its last event"));
    }

    @Test
    void eventsOfOneResourceOutOfSequenceAreAViolationAndDuplicatesAreOnlyCounted() {
        List<TopicEvent> swapped = List.of(
                new TopicEvent("evt_p2", PAY, 2, 0, 0, "partially_refunded"),
                new TopicEvent("evt_p1", PAY, 1, 0, 1, "captured"),
                new TopicEvent("evt_r1", RE, 1, 1, 0, "pending"),
                new TopicEvent("evt_r2", RE, 2, 1, 1, "succeeded"));
        assertThat(audit(e -> withTopic(e, swapped)).count(Auditor.EVENTS_OUT_OF_ORDER))
                .isEqualTo(1);

        List<TopicEvent> redelivered = new ArrayList<>(consistent().topic());
        redelivered.add(new TopicEvent("evt_p1", PAY, 1, 0, 2, "captured"));
        redelivered.add(new TopicEvent("evt_p2", PAY, 2, 0, 3, "partially_refunded"));
        Auditor.Report report = audit(e -> withTopic(e, redelivered));
        assertThat(report.total()).isZero();
        assertThat(report.duplicateEvents()).isEqualTo(2);
    }

    @Test
    void aReplayThatDiffersFromTheFirstAnswerIsAViolation() {
        Auditor.Report report = audit(e -> withAnswers(
                e,
                List.of(new ClientAnswers(
                        "payment",
                        "order-1-pay",
                        List.of(
                                new Answer(201, false, BODY),
                                new Answer(201, true, BODY.replace("captured", "declined")))))));
        assertThat(report.count(Auditor.REPLAY_MISMATCHES)).isEqualTo(1);

        Auditor.Report twoReplays = audit(e -> withAnswers(
                e,
                List.of(new ClientAnswers(
                        "capture",
                        "k",
                        List.of(
                                new Answer(202, false, "{}"),
                                new Answer(200, true, "{\"a\":1}"),
                                new Answer(200, true, "{\"a\":2}"))))));
        assertThat(twoReplays.count(Auditor.REPLAY_MISMATCHES)).isEqualTo(1);
    }

    private static Auditor.Report audit(UnaryOperator<Evidence> change) {
        return Auditor.audit(change.apply(consistent()));
    }

    private static List<PspMovement> movements(Evidence e, PspMovement extra) {
        List<PspMovement> all = new ArrayList<>(e.pspMovements());
        all.add(extra);
        return all;
    }

    private static List<PspCharge> charges(Evidence e, PspCharge extra) {
        List<PspCharge> all = new ArrayList<>(e.pspCharges());
        all.add(extra);
        return all;
    }

    private static Evidence with(Evidence e, List<PspMovement> movements, List<PspCharge> charges) {
        return new Evidence(
                charges,
                movements,
                e.payments(),
                e.operations(),
                e.disputes(),
                e.reviews(),
                e.ledgerTotals(),
                e.unbalancedLedgerTransactions(),
                e.stuckKeys(),
                e.outbox(),
                e.topic(),
                e.answers());
    }

    private static Evidence withPayments(Evidence e, List<Payment> payments) {
        return new Evidence(
                e.pspCharges(),
                e.pspMovements(),
                payments,
                e.operations(),
                e.disputes(),
                e.reviews(),
                e.ledgerTotals(),
                e.unbalancedLedgerTransactions(),
                e.stuckKeys(),
                e.outbox(),
                e.topic(),
                e.answers());
    }

    private static Evidence withReviews(Evidence e, List<Review> reviews) {
        return new Evidence(
                e.pspCharges(),
                e.pspMovements(),
                e.payments(),
                e.operations(),
                e.disputes(),
                reviews,
                e.ledgerTotals(),
                e.unbalancedLedgerTransactions(),
                e.stuckKeys(),
                e.outbox(),
                e.topic(),
                e.answers());
    }

    private static Evidence withTopic(Evidence e, List<TopicEvent> topic) {
        return new Evidence(
                e.pspCharges(),
                e.pspMovements(),
                e.payments(),
                e.operations(),
                e.disputes(),
                e.reviews(),
                e.ledgerTotals(),
                e.unbalancedLedgerTransactions(),
                e.stuckKeys(),
                e.outbox(),
                topic,
                e.answers());
    }

    private static Evidence withAnswers(Evidence e, List<ClientAnswers> answers) {
        return new Evidence(
                e.pspCharges(),
                e.pspMovements(),
                e.payments(),
                e.operations(),
                e.disputes(),
                e.reviews(),
                e.ledgerTotals(),
                e.unbalancedLedgerTransactions(),
                e.stuckKeys(),
                e.outbox(),
                e.topic(),
                answers);
    }
}
