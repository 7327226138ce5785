package dev.kopek.payments;

import dev.kopek.events.EventStatements;
import dev.kopek.payments.OperationStrategy.StoredAnswer;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import java.util.EnumMap;
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
 * money and gives the stored answer.
 */
@Component
class OperationRecording implements Recording<PaymentOperation> {

    private static final Logger log = LoggerFactory.getLogger(OperationRecording.class);

    private final PaymentStore payments;
    private final OperationStore operations;
    private final EventStatements events;
    private final Map<OperationKind, OperationStrategy> strategies = new EnumMap<>(OperationKind.class);

    OperationRecording(
            PaymentStore payments,
            OperationStore operations,
            EventStatements events,
            List<OperationStrategy> strategies) {
        this.payments = payments;
        this.operations = operations;
        this.events = events;
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
        return switch (outcome) {
            case ChargeOutcome.Succeeded s -> {
                LogContext.put(LogContext.PSP_REFERENCE, s.pspReference());
                yield move(fence, op, OperationStatus.SUCCEEDED, s.pspReference(), null);
            }
            case ChargeOutcome.Declined d ->
                move(fence, op, OperationStatus.FAILED, null, "declined: " + d.declineCode());
            case ChargeOutcome.Failed f -> move(fence, op, OperationStatus.FAILED, null, f.reason());
            case ChargeOutcome.Authorized a ->
                move(
                        fence,
                        op,
                        OperationStatus.UNKNOWN,
                        null,
                        "psp answered a " + op.kind().apiName() + " with an authorization");
            case ChargeOutcome.Unknown u -> move(fence, op, OperationStatus.UNKNOWN, null, u.reason());
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
        log.info(
                "{} {}: {} payment={} psp_ref={}",
                done.kind().apiName(),
                done.status().apiName(),
                done.id(),
                done.payment(),
                done.pspReference());
        return new Settled(answer.status(), answer.body(), strategy.event(done), effects);
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
