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
        Optional<OperationStore.Fenced> moved = switch (outcome) {
            case ChargeOutcome.Succeeded s -> {
                LogContext.put(LogContext.PSP_REFERENCE, s.pspReference());
                yield operations.fencedTransition(fence, op, OperationStatus.SUCCEEDED, s.pspReference(), null);
            }
            case ChargeOutcome.Declined d ->
                operations.fencedTransition(fence, op, OperationStatus.FAILED, null, "declined: " + d.declineCode());
            case ChargeOutcome.Failed f ->
                operations.fencedTransition(fence, op, OperationStatus.FAILED, null, f.reason());
            case ChargeOutcome.Authorized a ->
                operations.fencedTransition(
                        fence,
                        op,
                        OperationStatus.UNKNOWN,
                        null,
                        "psp answered a " + op.kind().apiName() + " with an authorization");
            case ChargeOutcome.Unknown u ->
                operations.fencedTransition(fence, op, OperationStatus.UNKNOWN, null, u.reason());
        };
        return moved.map(m -> new Moved<>(m.operation(), m.operation().status().isFinal(), m.keyLeaseUntil()));
    }

    @Override
    public Settled settle(PaymentOperation done) {
        OperationStrategy strategy = strategies.get(done.kind());
        Payment after = done.status() == OperationStatus.SUCCEEDED ? strategy.confirm(done) : strategy.release(done);
        StoredAnswer answer = strategy.answer(done, after);
        log.info(
                "{} {}: {} payment={} psp_ref={}",
                done.kind().apiName(),
                done.status().apiName(),
                done.id(),
                done.payment(),
                done.pspReference());
        return new Settled(answer.status(), answer.body(), strategy.event(done));
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
