package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.RecordedEvent;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.BatchRecording.Answered;
import dev.kopek.payments.BatchRecording.Recordable;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.platform.ConnectionWait;
import dev.kopek.platform.GroupCommit;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Phase 3 of concurrent requests with a final outcome as one transaction of two statements and one commit per batch
 * (issue 25 §3), as phase 1 is ({@link PhaseOneBatches}): what PostgreSQL pays per statement and per commit is paid
 * once per batch. One batch for every kind, each kind's part a {@link BatchRecording}: payments go together, and
 * operations (captures, voids, refunds, as far as their kind batches the outcome) go together. A request that finds
 * a lane free goes at once with whatever is queued ({@link GroupCommit}: no timer), so a lone request is a batch of
 * one.
 *
 * <p>One batch: the first statement fences every key (locked in one order) and moves every resource whose key its
 * attempt still owns; the second stores each moved resource's answer, writes its events and the rest of its effects.
 * Each request keeps its own answer and its own failure. A row the batch did not move — a stale owner, a key parked
 * for a person, a resource outside the move's predecessors, a second request for one payment — runs the one-request
 * path ({@link OutcomeRecorder}) from its own thread after the batch, and meets there exactly what it would have met
 * alone. If the batch's transaction fails as a whole (a deadlock between batches, a bug), nothing of it was written
 * and every request runs alone; only a database outage is every request's failure at once, as it would be alone,
 * and each caller's retry through the outage (AttemptRunner.recordOrReport) decides it again from the key. An
 * unknown outcome, a person's review, and an outcome its kind does not batch stay on the one-request path.
 */
@Component
class PhaseThreeBatches {

    private static final Logger log = LoggerFactory.getLogger(PhaseThreeBatches.class);

    /** Batches in the database at once, per kind: a second lane fills while the first one's transaction runs. */
    static final int LANES = 2;

    /** The most requests in one batch; the rest queue for the next. */
    static final int MAX_BATCH = 64;

    /** The CTE of the answer's statement: every resource whose event it writes, once its request's answer is stored. */
    private static final String ANNOUNCED = "announced";

    private final OutcomeRecorder recorder;
    private final IdempotencyKeys keys;
    private final EventStatements eventStatements;
    private final TransactionTemplate tx;
    private final ConnectionWait connectionWait;
    private final ApplicationEventPublisher publisher;
    private final Lane<Payment> payments;
    private final Lane<PaymentOperation> operations;

    PhaseThreeBatches(
            PaymentRecording paymentRecording,
            OperationRecording operationRecording,
            OutcomeRecorder recorder,
            IdempotencyKeys keys,
            EventStatements eventStatements,
            TransactionTemplate tx,
            ConnectionWait connectionWait,
            ApplicationEventPublisher publisher,
            MeterRegistry meters) {
        this.recorder = recorder;
        this.keys = keys;
        this.eventStatements = eventStatements;
        this.tx = tx;
        this.connectionWait = connectionWait;
        this.publisher = publisher;
        this.payments = new Lane<>(paymentRecording, meters, "3");
        this.operations = new Lane<>(operationRecording, meters, "3op");
    }

    /**
     * Phase 3 of {@code payment} as the owner of {@code attempt}, as {@link OutcomeRecorder#record} gives it: through
     * a batch for a final outcome, alone otherwise. Throws {@link StaleAttempt} when someone else owns the key.
     */
    PaymentAnswer record(Payment payment, ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
        return payments.record(new Recordable<>(payment, ck, attempt, outcome), reviewReason);
    }

    /** {@link #record(Payment, ClientKey, int, ChargeOutcome, String)} for a capture, a void or a refund. */
    PaymentAnswer record(PaymentOperation op, ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
        return operations.record(new Recordable<>(op, ck, attempt, outcome), reviewReason);
    }

    /** What a batch decided for one request. */
    sealed interface Recorded<R> {
        /** Moved (to {@code resource}), answered and posted by the batch, committed. */
        record Settled<R>(R resource, int status, String body, List<BusinessEvent> events) implements Recorded<R> {}

        /** Not moved by the batch: the request runs the one-request path itself. */
        record Alone<R>() implements Recorded<R> {}
    }

    /** Payments that have entered a batch so far: for tests that hold a batch in the database. */
    long submitted() {
        return payments.commit.submitted();
    }

    /** Operations that have entered a batch so far. */
    long operationsSubmitted() {
        return operations.commit.submitted();
    }

    /** One batch of payments: an answer for each request, in order. */
    List<Recorded<Payment>> runPayments(List<Recordable<Payment>> requests) {
        return payments.run(requests);
    }

    /** One batch of operations: an answer for each request, in order. */
    List<Recorded<PaymentOperation>> runOperations(List<Recordable<PaymentOperation>> requests) {
        return operations.run(requests);
    }

    /** One kind's batches: its group commit, and the kind's part of each batch. */
    private final class Lane<R> {

        private final BatchRecording<R> kind;
        private final GroupCommit<Recordable<R>, Recorded<R>> commit;

        Lane(BatchRecording<R> kind, MeterRegistry meters, String phase) {
            this.kind = kind;
            this.commit =
                    new GroupCommit<>(LANES, MAX_BATCH, this::run, PhaseOneBatches.batchSizes(meters, phase)::record);
        }

        PaymentAnswer record(Recordable<R> r, String reviewReason) {
            if (reviewReason != null
                    || r.outcome() instanceof ChargeOutcome.Unknown
                    || !kind.batches(r.resource(), r.outcome())) {
                return alone(r, reviewReason);
            }
            return switch (commit.submit(r)) {
                case Recorded.Settled<R> settled -> {
                    // What the one-request path does after its commit, from the request's own thread.
                    kind.settled(settled.resource(), r.outcome());
                    settled.events().forEach(event -> publisher.publishEvent(new RecordedEvent(event)));
                    yield new PaymentAnswer.Final(settled.status(), settled.body(), false);
                }
                case Recorded.Alone<R> alone -> alone(r, null);
            };
        }

        private PaymentAnswer alone(Recordable<R> r, String reviewReason) {
            return recorder.record(kind, r.resource(), r.ck(), r.attempt(), r.outcome(), reviewReason);
        }

        List<Recorded<R>> run(List<Recordable<R>> requests) {
            List<Recordable<R>> together = new ArrayList<>(requests.size());
            Set<PaymentId> seen = new HashSet<>();
            for (Recordable<R> r : requests) {
                // Two requests for one payment (a stale owner and its successor, a capture and a void) never meet in
                // one statement.
                if (seen.add(kind.paymentOf(r.resource()))) {
                    together.add(r);
                }
            }
            Map<UUID, Recorded.Settled<R>> settled = recordTogether(together);
            List<Recorded<R>> answers = new ArrayList<>(requests.size());
            Set<UUID> answered = new HashSet<>();
            for (Recordable<R> r : requests) {
                UUID id = kind.subjectId(r.resource());
                Recorded.Settled<R> mine = settled.get(id);
                boolean first = answered.add(id);
                answers.add(mine != null && first ? mine : new Recorded.Alone<>());
            }
            log.debug("phase 3 batch of {}: {} recorded together", requests.size(), settled.size());
            return answers;
        }

        /** The batch's transaction; empty when it wrote nothing (refused as a whole) and each request runs alone. */
        private Map<UUID, Recorded.Settled<R>> recordTogether(List<Recordable<R>> together) {
            try {
                return connectionWait.patiently(() -> tx.execute(status -> moveAndAnswer(together)));
            } catch (RuntimeException e) {
                PhaseOneBatches.throwIfOutage(e);
                log.warn(
                        "phase 3 batch of {} refused as a whole ({} {}); each request runs alone",
                        together.size(),
                        e.getClass().getSimpleName(),
                        ConstraintNames.of(e));
                return Map.of();
            }
        }

        /** The two statements: the fenced moves, then every moved resource's answer, events and effects. */
        private Map<UUID, Recorded.Settled<R>> moveAndAnswer(List<Recordable<R>> together) {
            Map<UUID, Recording.Moved<R>> moved = kind.moveEach(
                    IdempotencyKeys.fenceEachPart(together.stream()
                            .map(r -> new IdempotencyKeys.Owner(r.ck(), r.attempt()))
                            .toList()),
                    together);
            if (moved.isEmpty()) {
                return Map.of();
            }
            List<Recordable<R>> movedRequests = new ArrayList<>(moved.size());
            List<Recording.Moved<R>> moves = new ArrayList<>(moved.size());
            for (Recordable<R> r : together) {
                Recording.Moved<R> m = moved.get(kind.subjectId(r.resource()));
                if (m != null) {
                    movedRequests.add(r);
                    moves.add(m);
                }
            }
            BatchRecording.Answers answers = kind.answerEach(moves);
            Map<UUID, Recorded.Settled<R>> settled = new HashMap<>();
            List<IdempotencyKeys.Answer> stored = new ArrayList<>(moves.size());
            List<BusinessEvent> announced = new ArrayList<>();
            List<UUID> announcedKeys = new ArrayList<>();
            for (int i = 0; i < moves.size(); i++) {
                Recordable<R> r = movedRequests.get(i);
                Answered answer = answers.answers().get(i);
                UUID id = kind.subjectId(r.resource());
                stored.add(new IdempotencyKeys.Answer(
                        new IdempotencyKeys.Owner(r.ck(), r.attempt()), answer.status(), answer.body()));
                for (BusinessEvent event : answer.events()) {
                    announced.add(event);
                    announcedKeys.add(id);
                }
                settled.put(
                        id,
                        new Recorded.Settled<>(
                                moves.get(i).resource(), answer.status(), answer.body(), answer.events()));
            }
            List<SqlPart> alongside = new ArrayList<>(answers.parts());
            alongside.add(announcedPart(announcedKeys, announced));
            alongside.add(eventStatements.appendEach(announced, ANNOUNCED));
            int written = keys.completeEachWith(stored, OutcomeRecorder.joined(alongside), answers.required());
            if (written != stored.size()) {
                // Every key was locked as its owner's by the first statement: an answer not stored is a bug.
                throw new IllegalStateException("stored " + written + " of " + stored.size() + " answers of a batch");
            }
            return settled;
        }
    }

    /**
     * The CTE {@code announced}: the resource of each event, when the answer of the key at the same index
     * ({@code keys}, its resource) was stored.
     */
    private static SqlPart announcedPart(List<UUID> keys, List<BusinessEvent> events) {
        return new SqlPart(
                ANNOUNCED + """
                 AS (
                    SELECT a.id
                      FROM unnest(CAST(:ans_key AS uuid[]), CAST(:ans_id AS uuid[])) AS a(key, id)
                     WHERE a.key IN (SELECT id FROM %s)
                )""".formatted(IdempotencyKeys.COMPLETED_EACH),
                Map.of(
                        "ans_key", keys.toArray(UUID[]::new),
                        "ans_id", events.stream().map(BusinessEvent::resourceId).toArray(UUID[]::new)));
    }
}
