package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.OperationStrategy.StoredAnswer;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.PaymentMoves;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A capture's, void's or refund's part of phase 3: the operation moves (an authorization in answer to one of them
 * proves nothing and stays unknown), and its kind's {@link OperationStrategy} moves the payment's amounts, posts the
 * money and gives the stored answer. A final outcome its kind batches ({@link OperationStrategy#batched}) also goes
 * through a batch of concurrent operations ({@link PhaseThreeBatches}), from arrays.
 */
@Component
class OperationRecording implements BatchRecording<PaymentOperation> {

    private static final Logger log = LoggerFactory.getLogger(OperationRecording.class);

    private final PaymentStore payments;
    private final OperationStore operations;
    private final EventStatements events;
    private final PaymentMoves moves;
    private final PaymentEffects paymentEffects;
    private final Map<OperationKind, OperationStrategy> strategies = new EnumMap<>(OperationKind.class);

    OperationRecording(
            PaymentStore payments,
            OperationStore operations,
            EventStatements events,
            PaymentMoves moves,
            PaymentEffects paymentEffects,
            List<OperationStrategy> strategies) {
        this.payments = payments;
        this.operations = operations;
        this.events = events;
        this.moves = moves;
        this.paymentEffects = paymentEffects;
        strategies.forEach(strategy -> this.strategies.put(strategy.kind(), strategy));
    }

    @Override
    public String subject(PaymentOperation op) {
        return op.kind().apiName();
    }

    @Override
    public UUID subjectId(PaymentOperation op) {
        return op.id();
    }

    @Override
    public Optional<Moved<PaymentOperation>> move(PaymentOperation op, SqlPart fence, ChargeOutcome outcome) {
        Target target = targetOf(op, outcome);
        if (outcome instanceof ChargeOutcome.Succeeded s) {
            LogContext.put(LogContext.PSP_REFERENCE, s.pspReference());
        }
        return move(fence, op, target.next(), target.pspReference(), target.reason());
    }

    /** Where an outcome moves an operation: its status, the PSP's reference, and why it failed or is unknown. */
    private record Target(OperationStatus next, String pspReference, String reason) {}

    private static Target targetOf(PaymentOperation op, ChargeOutcome outcome) {
        return switch (outcome) {
            case ChargeOutcome.Succeeded s -> new Target(OperationStatus.SUCCEEDED, s.pspReference(), null);
            case ChargeOutcome.Declined d -> new Target(OperationStatus.FAILED, null, "declined: " + d.declineCode());
            case ChargeOutcome.Failed f -> new Target(OperationStatus.FAILED, null, f.reason());
            case ChargeOutcome.Authorized a ->
                new Target(
                        OperationStatus.UNKNOWN,
                        null,
                        "psp answered a " + op.kind().apiName() + " with an authorization");
            case ChargeOutcome.Unknown u -> new Target(OperationStatus.UNKNOWN, null, u.reason());
        };
    }

    /**
     * One statement: the fence, the operation's move and — for a final one — the payment's side of it, which must
     * have found the payment where the operation's reservation left it.
     */
    private Optional<Moved<PaymentOperation>> move(
            SqlPart fence, PaymentOperation op, OperationStatus next, String pspReference, String reason) {
        SqlPart payment =
                next.isFinal() ? strategies.get(op.kind()).paymentPart(op.moveTo(next, pspReference, reason)) : null;
        return operations
                .fencedTransition(fence, op, next, pspReference, reason, payment)
                .map(m -> {
                    if (payment != null && m.payment() == null) {
                        throw new IllegalStateException(op.kind().apiName() + " " + op.id() + " moved to " + next
                                + " but payment " + op.payment() + " was not where its reservation left it");
                    }
                    return new Moved<>(m.operation(), next.isFinal(), m.keyLeaseUntil(), m.payment());
                });
    }

    @Override
    public Settled settle(Moved<PaymentOperation> moved) {
        PaymentOperation done = moved.resource();
        OperationStrategy strategy = strategies.get(done.kind());
        OperationStrategy.Effects effects = strategy.effects(done, moved.payment());
        StoredAnswer answer = strategy.answer(done, effects.payment());
        logSettled(done);
        return new Settled(answer.status(), answer.body(), strategy.event(done), effects);
    }

    private static void logSettled(PaymentOperation done) {
        log.info(
                "{} {}: {} payment={} psp_ref={}",
                done.kind().apiName(),
                done.status().apiName(),
                done.id(),
                done.payment(),
                done.pspReference());
    }

    /**
     * A final outcome whose kind batches it ({@link OperationStrategy#batched}); an operation that cannot move there
     * (the table refuses it) runs alone and meets the refusal there.
     */
    @Override
    public boolean batches(PaymentOperation op, ChargeOutcome outcome) {
        Target target = targetOf(op, outcome);
        return target.next().isFinal()
                && op.status().canMoveTo(target.next())
                && strategies
                        .get(op.kind())
                        .batched(op.moveTo(target.next(), target.pspReference(), target.reason()))
                        .isPresent();
    }

    @Override
    public PaymentId paymentOf(PaymentOperation op) {
        return op.payment();
    }

    /**
     * Every key fenced, every operation moved by the same compare-and-set, and each one's payment by its kind's
     * amounts ({@link OperationStore#fencedTransitionEach}); a moved operation whose payment was not where its
     * reservation left it is a bug, as alone.
     */
    @Override
    public Map<UUID, Moved<PaymentOperation>> moveEach(SqlPart fence, List<Recordable<PaymentOperation>> requests) {
        List<OperationStore.Transition> transitions = new ArrayList<>(requests.size());
        List<PaymentMoves.AmountMove> amounts = new ArrayList<>(requests.size());
        for (Recordable<PaymentOperation> r : requests) {
            PaymentOperation op = r.resource();
            Target target = targetOf(op, r.outcome());
            transitions.add(new OperationStore.Transition(op, target.next(), target.pspReference(), target.reason()));
            amounts.add(batched(op.moveTo(target.next(), target.pspReference(), target.reason()))
                    .amounts());
        }
        Map<UUID, Moved<PaymentOperation>> moved = new HashMap<>();
        operations
                .fencedTransitionEach(fence, transitions, moves.moveEachPart(amounts))
                .forEach((id, fenced) -> {
                    if (fenced.payment() == null) {
                        throw new IllegalStateException(
                                fenced.operation().kind().apiName() + " " + id
                                        + " moved but payment "
                                        + fenced.operation().payment()
                                        + " was not where its reservation left it");
                    }
                    moved.put(id, new Moved<>(fenced.operation(), true, fenced.keyLeaseUntil(), fenced.payment()));
                });
        return moved;
    }

    /** Each operation's stored answer and event, and its payment's status, event and postings. */
    @Override
    public Answers answerEach(List<Moved<PaymentOperation>> moved) {
        List<Answered> answers = new ArrayList<>(moved.size());
        List<UUID> ids = new ArrayList<>(moved.size());
        List<PaymentEffects.Paid> paid = new ArrayList<>(moved.size());
        for (Moved<PaymentOperation> m : moved) {
            PaymentOperation done = m.resource();
            OperationStrategy strategy = strategies.get(done.kind());
            PaymentEffects.Paid effects = batched(done).paid().apply(m.payment());
            StoredAnswer answer = strategy.answer(done, effects.after());
            List<BusinessEvent> events = new ArrayList<>(List.of(strategy.event(done)));
            events.addAll(effects.events());
            answers.add(new Answered(answer.status(), answer.body(), events));
            ids.add(done.id());
            paid.add(effects);
        }
        PaymentEffects.Parts parts = paymentEffects.partsEach(ids, paid);
        return new Answers(answers, parts.parts(), parts.required());
    }

    private OperationStrategy.Batched batched(PaymentOperation done) {
        return strategies
                .get(done.kind())
                .batched(done)
                .orElseThrow(() -> new IllegalStateException(done.kind().apiName() + " " + done.id() + " moved to "
                        + done.status() + " in a batch, which its kind does not batch"));
    }

    @Override
    public void settled(PaymentOperation done, ChargeOutcome outcome) {
        if (outcome instanceof ChargeOutcome.Succeeded s) {
            LogContext.put(LogContext.PSP_REFERENCE, s.pspReference());
        }
        logSettled(done);
    }

    @Override
    public Payment unknown(PaymentOperation before, PaymentOperation unknown, ChargeOutcome outcome) {
        if (unknown.version() != before.version()) {
            events.write(strategies.get(unknown.kind()).event(unknown));
        }
        log.warn(
                "{} outcome unknown: payment={} operation={} reason={}",
                unknown.kind().apiName(),
                unknown.payment(),
                unknown.id(),
                unknown.failureReason());
        return payments.find(unknown.payment()).orElseThrow();
    }

    @Override
    public ManualReviewRequired review(PaymentOperation op, String reason) {
        return new ManualReviewRequired(
                op.payment(), op.merchant(), reason, op.kind().apiName(), op.id());
    }
}
