package dev.kopek.payments;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.payments.OperationStrategy.StoredAnswer;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.LogContext;
import dev.kopek.psp.ChargeOutcome;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Phase 3 of a capture, void or refund: one short transaction fenced by the attempt of the operation's key (L4).
 * It moves the operation, lets the kind's strategy move the payment's amounts and post the money, announces the
 * change, and stores the final answer — or marks the key as awaiting a result (or parked for a person).
 */
@Component
class OperationRecorder {

    private static final Logger log = LoggerFactory.getLogger(OperationRecorder.class);

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final OperationStore operations;
    private final Map<dev.kopek.payments.domain.OperationKind, OperationStrategy> strategies;
    private final ApplicationEventPublisher publisher;
    private final TransactionTemplate tx;

    OperationRecorder(
            IdempotencyKeys keys,
            PaymentStore payments,
            OperationStore operations,
            List<OperationStrategy> strategies,
            ApplicationEventPublisher publisher,
            TransactionTemplate tx) {
        this.keys = keys;
        this.payments = payments;
        this.operations = operations;
        this.strategies = strategies.stream().collect(Collectors.toMap(OperationStrategy::kind, Function.identity()));
        this.publisher = publisher;
        this.tx = tx;
    }

    PaymentAnswer record(PaymentOperation op, ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
        try {
            return tx.execute(status -> {
                boolean parked = keys.holdAsOwner(ck, attempt).orElseThrow(() -> new StaleAttempt(ck, attempt));
                if (parked
                        && !(outcome instanceof ChargeOutcome.Unknown)
                        && !(outcome instanceof ChargeOutcome.Authorized)) {
                    publisher.publishEvent(new ParkedOutcomeRecorded(
                            op.kind().apiName(),
                            op.id(),
                            outcome instanceof ChargeOutcome.Succeeded ? "succeeded" : "failed"));
                }
                return switch (outcome) {
                    case ChargeOutcome.Succeeded s -> succeeded(op, ck, attempt, s.pspReference());
                    case ChargeOutcome.Declined d -> failed(op, ck, attempt, "declined: " + d.declineCode());
                    case ChargeOutcome.Failed f -> failed(op, ck, attempt, f.reason());
                    case ChargeOutcome.Authorized a ->
                        unknown(
                                op,
                                ck,
                                attempt,
                                "psp answered a " + op.kind().apiName() + " with an authorization",
                                reviewReason);
                    case ChargeOutcome.Unknown u -> unknown(op, ck, attempt, u.reason(), reviewReason);
                };
            });
        } catch (StaleAttempt stale) {
            log.warn("stale owner refused: {}={} key#={} attempt={}", op.kind().apiName(), op.id(), ck.hash(), attempt);
            throw stale;
        }
    }

    private PaymentAnswer succeeded(PaymentOperation op, ClientKey ck, int attempt, String pspReference) {
        LogContext.put(LogContext.PSP_REFERENCE, pspReference);
        PaymentOperation done = move(op, ck, OperationStatus.SUCCEEDED, pspReference, null);
        OperationStrategy strategy = strategies.get(op.kind());
        Payment after = strategy.confirm(done);
        return finish(strategy, done, after, ck, attempt);
    }

    private PaymentAnswer failed(PaymentOperation op, ClientKey ck, int attempt, String reason) {
        PaymentOperation failed = move(op, ck, OperationStatus.FAILED, null, reason);
        OperationStrategy strategy = strategies.get(op.kind());
        Payment after = strategy.release(failed);
        return finish(strategy, failed, after, ck, attempt);
    }

    private PaymentOperation move(
            PaymentOperation op, ClientKey ck, OperationStatus next, String pspReference, String reason) {
        // The fence holds the key: nobody else can have finished this operation (every writer owns the key first).
        return operations
                .transition(op, next, pspReference, reason)
                .orElseThrow(() -> new IllegalStateException("owner of " + ck + " found " + op.id() + " final"));
    }

    private PaymentAnswer finish(
            OperationStrategy strategy, PaymentOperation done, Payment after, ClientKey ck, int attempt) {
        strategy.announce(done);
        StoredAnswer answer = strategy.answer(done, after);
        if (!keys.complete(ck, attempt, answer.status(), answer.body())) {
            throw new StaleAttempt(ck, attempt);
        }
        log.info(
                "{} {}: {} payment={} key#={} attempt={} psp_ref={}",
                done.kind().apiName(),
                done.status().apiName(),
                done.id(),
                done.payment(),
                ck.hash(),
                attempt,
                done.pspReference());
        return new PaymentAnswer.Final(answer.status(), answer.body(), false);
    }

    private PaymentAnswer unknown(PaymentOperation op, ClientKey ck, int attempt, String reason, String reviewReason) {
        operations
                .transition(op, OperationStatus.UNKNOWN, null, reason)
                .filter(unknown -> unknown.version() != op.version())
                .ifPresent(strategies.get(op.kind())::announce);
        boolean marked = reviewReason == null ? keys.awaitResult(ck, attempt) : keys.park(ck, attempt);
        if (!marked) {
            throw new StaleAttempt(ck, attempt);
        }
        if (reviewReason != null) {
            publisher.publishEvent(new ManualReviewRequired(
                    op.payment(), op.merchant(), reviewReason, op.kind().apiName(), op.id()));
        }
        log.warn(
                "{} outcome unknown: payment={} operation={} key#={} attempt={} reason={}",
                op.kind().apiName(),
                op.payment(),
                op.id(),
                ck.hash(),
                attempt,
                reason);
        return new PaymentAnswer.Processing(payments.find(op.payment()).orElseThrow());
    }
}
