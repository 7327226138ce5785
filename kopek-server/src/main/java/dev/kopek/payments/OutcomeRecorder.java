package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.RecordedEvent;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.payments.domain.Payment;
import dev.kopek.platform.ConnectionWait;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Phase 3 of every kind — payment, capture, void, refund ("recording" an outcome; "settlement" means only the PSP's
 * settlement file): one short transaction, fenced by the attempt number (L4). The resource moves by compare-and-set
 * in the statement that locks the key as its owner ({@link IdempotencyKeys#fencePart}), with the payment's amounts
 * for an operation, so a stale owner stops there and changes nothing; a final outcome then stores its answer with its
 * event and the rest of its effects (the payment's status and event, the ledger's postings) in a second statement;
 * an unknown one marks the key as awaiting a result, or parked for a person. What differs per kind is a
 * {@link Recording}.
 */
@Component
class OutcomeRecorder {

    private static final Logger log = LoggerFactory.getLogger(OutcomeRecorder.class);

    private final IdempotencyKeys keys;
    private final TransactionTemplate tx;
    private final ApplicationEventPublisher publisher;
    private final ConnectionWait connectionWait;
    private final EventStatements eventStatements;

    OutcomeRecorder(
            IdempotencyKeys keys,
            TransactionTemplate tx,
            ApplicationEventPublisher publisher,
            ConnectionWait connectionWait,
            EventStatements eventStatements) {
        this.keys = keys;
        this.tx = tx;
        this.publisher = publisher;
        this.connectionWait = connectionWait;
        this.eventStatements = eventStatements;
    }

    /**
     * Records {@code outcome} for {@code resource} as the owner of {@code attempt}. With {@code reviewReason} set, an
     * unknown outcome is parked for a person instead of waiting for reconciliation. Throws {@link StaleAttempt} when
     * someone else owns the key by now.
     */
    <R> PaymentAnswer record(
            Recording<R> kind, R resource, ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
        try {
            // The PSP has answered: its money may have moved, so recording it waits for a connection, never fails
            // for want of one.
            return connectionWait.patiently(() -> tx.execute(status -> {
                Recording.Moved<R> moved = moveAsOwner(kind, resource, ck, attempt, outcome);
                return moved.settled()
                        ? settled(kind, moved, ck, attempt, outcome)
                        : unknown(kind, resource, moved.resource(), ck, attempt, outcome, reviewReason);
            }));
        } catch (StaleAttempt stale) {
            log.warn(
                    "stale owner refused: {}={} key#={} attempt={} outcome={}",
                    kind.subject(resource),
                    kind.subjectId(resource),
                    ck.hash(),
                    attempt,
                    outcome);
            throw stale;
        }
    }

    /**
     * Fence and compare-and-set in one statement. Only when it moved nothing does a second read tell a stale owner
     * (the key is no longer this attempt's) from a resource outside the move's predecessors (a bug).
     */
    private <R> Recording.Moved<R> moveAsOwner(
            Recording<R> kind, R resource, ClientKey ck, int attempt, ChargeOutcome outcome) {
        return kind.move(resource, IdempotencyKeys.fencePart(ck, attempt), outcome)
                .orElseGet(() -> {
                    if (keys.holdAsOwner(ck, attempt).isEmpty()) {
                        throw new StaleAttempt(ck, attempt);
                    }
                    throw new IllegalStateException("owner of " + ck + " found " + kind.subject(resource) + " "
                            + kind.subjectId(resource) + " outside the predecessors of what " + outcome + " means");
                });
    }

    private <R> PaymentAnswer settled(
            Recording<R> kind, Recording.Moved<R> moved, ClientKey ck, int attempt, ChargeOutcome outcome) {
        // One rule for every kind: a final outcome recorded while a person was asked closes that person's review,
        // in the decision's own words.
        if (IdempotencyKeys.isParked(moved.keyLeaseUntil())) {
            publisher.publishEvent(new ParkedOutcomeRecorded(
                    kind.subject(moved.resource()),
                    kind.subjectId(moved.resource()),
                    ParkedOutcomeRecorded.resolutionOf(kind.subject(moved.resource()), outcome)));
        }
        Recording.Settled settled = kind.settle(moved);
        OperationStrategy.Effects effects = settled.effects();
        // The final answer, its event and the rest of the outcome's effects in one statement: one round trip, and
        // none of them without the others.
        List<BusinessEvent> announced = new ArrayList<>(effects.events());
        announced.add(settled.event());
        List<SqlPart> parts = new ArrayList<>(effects.parts());
        parts.add(announcedPart(announced));
        parts.add(eventStatements.appendEach(announced, "announced"));
        if (!keys.completeWith(ck, attempt, settled.status(), settled.body(), joined(parts), effects.required())) {
            throw new StaleAttempt(ck, attempt);
        }
        announced.forEach(event -> publisher.publishEvent(new RecordedEvent(event)));
        return new PaymentAnswer.Final(settled.status(), settled.body(), false);
    }

    /** The CTE {@code announced}: the resources whose events the answer's statement writes, once it stored it. */
    private static SqlPart announcedPart(List<BusinessEvent> events) {
        return new SqlPart(
                "announced AS (SELECT unnest(CAST(:an_ids AS uuid[])) AS id FROM " + IdempotencyKeys.COMPLETED + ")",
                Map.of("an_ids", events.stream().map(BusinessEvent::resourceId).toArray(UUID[]::new)));
    }

    /** Parts of one statement, joined as its common table expressions. */
    static SqlPart joined(List<SqlPart> parts) {
        Map<String, Object> params = new HashMap<>();
        parts.forEach(part -> params.putAll(part.params()));
        return new SqlPart(String.join(",\n", parts.stream().map(SqlPart::sql).toList()), params);
    }

    private <R> PaymentAnswer unknown(
            Recording<R> kind,
            R before,
            R moved,
            ClientKey ck,
            int attempt,
            ChargeOutcome outcome,
            String reviewReason) {
        Payment shown = kind.unknown(before, moved, outcome);
        boolean marked = reviewReason == null ? keys.awaitResult(ck, attempt) : keys.park(ck, attempt);
        if (!marked) {
            throw new StaleAttempt(ck, attempt);
        }
        if (reviewReason != null) {
            publisher.publishEvent(kind.review(moved, reviewReason));
        }
        return new PaymentAnswer.Processing(shown);
    }
}
