package dev.kopek.payments;

import dev.kopek.platform.LogContext;
import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.domain.PaymentOperation.OperationStatus;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.Problems;
import dev.kopek.psp.ChargeOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Phase 3 of a capture or void: fenced by the operation key's attempt number (L4), it moves the operation and
 * the payment's amounts together, posts the money movements and events, and stores the final answer.
 */
@Component
class OperationSettlement {

    private static final Logger log = LoggerFactory.getLogger(OperationSettlement.class);

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final OperationStore operations;
    private final PaymentEvents events;
    private final ApplicationEventPublisher publisher;
    private final TransactionTemplate tx;

    OperationSettlement(IdempotencyKeys keys, PaymentStore payments, OperationStore operations, PaymentEvents events,
            ApplicationEventPublisher publisher, TransactionTemplate tx) {
        this.keys = keys;
        this.payments = payments;
        this.operations = operations;
        this.events = events;
        this.publisher = publisher;
        this.tx = tx;
    }

    PaymentAnswer settle(PaymentOperation op, ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
        try {
            return tx.execute(status -> {
                boolean parked = keys.holdAsOwner(ck, attempt)
                        .orElseThrow(() -> new PaymentSettlement.StaleAttempt(ck, attempt));
                if (parked && !(outcome instanceof ChargeOutcome.Unknown)
                        && !(outcome instanceof ChargeOutcome.Authorized)) {
                    publisher.publishEvent(new ReviewSettled(op.kind().name().toLowerCase(java.util.Locale.ROOT),
                            op.id(), outcome instanceof ChargeOutcome.Succeeded ? "succeeded" : "failed"));
                }
                return switch (outcome) {
                    case ChargeOutcome.Succeeded s -> succeeded(op, ck, attempt, s.pspReference());
                    case ChargeOutcome.Declined d -> refused(op, ck, attempt, "declined: " + d.declineCode());
                    case ChargeOutcome.Failed f -> refused(op, ck, attempt, f.reason());
                    case ChargeOutcome.Authorized a -> unknown(op, ck, attempt,
                            "psp answered a " + op.kind() + " with an authorization", reviewReason);
                    case ChargeOutcome.Unknown u -> unknown(op, ck, attempt, u.reason(), reviewReason);
                };
            });
        } catch (PaymentSettlement.StaleAttempt stale) {
            log.warn("stale owner refused: operation={} key#={} attempt={}", op.id(), ck.hash(), attempt);
            throw stale;
        }
    }

    private PaymentAnswer succeeded(PaymentOperation op, ClientKey ck, int attempt, String pspReference) {
        LogContext.put(LogContext.PSP_REFERENCE, pspReference);
        PaymentOperation done = operations.transition(op.id(), OperationStatus.SUCCEEDED, pspReference, null)
                .orElseThrow(() -> new IllegalStateException("owner of " + ck + " found " + op.id() + " final"));
        Payment settled = switch (op.kind()) {
            case CAPTURE -> captured(op);
            case VOID -> voided(op);
        };
        events.operationChanged(done, settled.amount().currency());
        return complete(ck, attempt, 200, PaymentJson.render(settled));
    }

    private Payment captured(PaymentOperation op) {
        Payment before = payments.confirmCapture(op.payment(), op.amount());
        Payment after = payments.settleStatus(before);
        events.changed(after, "captured");
        events.moved(op.id(), MoneyMovement.Kind.CAPTURED, after, op.amount());
        if (op.finalCapture() && after.amounts().released() > 0) {
            events.moved(op.id(), MoneyMovement.Kind.AUTHORIZATION_RELEASED, after, after.amounts().released());
        }
        return after;
    }

    private Payment voided(PaymentOperation op) {
        Payment after = payments.transition(op.payment(), PaymentStatus.VOIDED,
                new PaymentStore.Outcome(null, null, null, null)).orElseThrow(() -> new IllegalStateException(
                        "void reserved on " + op.payment() + " but it is no longer authorized"));
        events.changed(after);
        events.moved(op.id(), MoneyMovement.Kind.AUTHORIZATION_RELEASED, after, after.amounts().released());
        return after;
    }

    private PaymentAnswer refused(PaymentOperation op, ClientKey ck, int attempt, String reason) {
        PaymentOperation failed = operations.transition(op.id(), OperationStatus.FAILED, null, reason)
                .orElseThrow(() -> new IllegalStateException("owner of " + ck + " found " + op.id() + " final"));
        Payment released = switch (op.kind()) {
            case CAPTURE -> payments.releaseCapture(op.payment(), op.amount(), op.finalCapture());
            case VOID -> payments.releaseVoid(op.payment());
        };
        events.operationChanged(failed, released.amount().currency());
        String code = op.kind() == OperationKind.CAPTURE ? "capture_declined" : "void_declined";
        return complete(ck, attempt, 402, Problems.json(402, code, "The PSP refused the " + op.kind().name()
                .toLowerCase(java.util.Locale.ROOT) + " (" + reason + "); nothing changed."));
    }

    private PaymentAnswer complete(ClientKey ck, int attempt, int status, String body) {
        if (!keys.complete(ck, attempt, status, body)) {
            throw new PaymentSettlement.StaleAttempt(ck, attempt);
        }
        return new PaymentAnswer.Final(status, body, false);
    }

    private PaymentAnswer unknown(PaymentOperation op, ClientKey ck, int attempt, String reason, String reviewReason) {
        Payment payment = payments.find(op.payment()).orElseThrow();
        operations.transition(op.id(), OperationStatus.UNKNOWN, null, reason)
                .filter(unknown -> unknown.version() != op.version())
                .ifPresent(unknown -> events.operationChanged(unknown, payment.amount().currency()));
        boolean marked = reviewReason == null ? keys.awaitResult(ck, attempt) : keys.park(ck, attempt);
        if (!marked) {
            throw new PaymentSettlement.StaleAttempt(ck, attempt);
        }
        if (reviewReason != null) {
            publisher.publishEvent(new ManualReviewRequired(payment.id(), payment.merchant(), reviewReason,
                    op.kind().name().toLowerCase(java.util.Locale.ROOT), op.id()));
        }
        log.warn("{} outcome unknown: payment={} operation={} key#={} attempt={} reason={}", op.kind(),
                payment.id(), op.id(), ck.hash(), attempt, reason);
        return new PaymentAnswer.Processing(payment);
    }
}
