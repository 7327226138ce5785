package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.MoneyMovement;
import dev.kopek.events.RecordedEvent;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.ledger.Ledger;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.jdbc.PaymentStore;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Phase 3 of concurrent payments with a final outcome as one transaction of two statements and one commit per batch
 * (issue 25 §3), as phase 1 is ({@link PhaseOneBatches}): what PostgreSQL pays per statement and per commit is paid
 * once per batch. A request that finds a lane free goes at once with whatever is queued ({@link GroupCommit}: no
 * timer), so a lone request is a batch of one.
 *
 * <p>One batch: the first statement fences every key (locked in one order) and moves every payment whose key its
 * attempt still owns; the second stores each moved payment's answer, writes its event and posts its money. Each
 * request keeps its own answer and its own failure. A row the batch did not move — a stale owner, a key parked for a
 * person, a payment outside the move's predecessors, a second request for one payment — runs the one-payment path
 * ({@link OutcomeRecorder}) from its own thread after the batch, and meets there exactly what it would have met
 * alone. If the batch's transaction fails as a whole (a deadlock between batches, a bug), nothing of it was written
 * and every request runs alone; only a database outage is every request's failure at once, as it would be alone,
 * and each caller's retry through the outage (AttemptRunner.recordOrReport) decides it again from the key. An
 * unknown outcome, and a person's review, stay on the one-payment path.
 */
@Component
class PhaseThreeBatches {

    private static final Logger log = LoggerFactory.getLogger(PhaseThreeBatches.class);

    /** Batches in the database at once: a second lane fills while the first one's transaction runs. */
    static final int LANES = 2;

    /** The most payments in one batch; the rest queue for the next. */
    static final int MAX_BATCH = 64;

    private final PaymentStore payments;
    private final PaymentRecording recording;
    private final OutcomeRecorder recorder;
    private final IdempotencyKeys keys;
    private final EventStatements eventStatements;
    private final Ledger ledger;
    private final TransactionTemplate tx;
    private final ConnectionWait connectionWait;
    private final ApplicationEventPublisher publisher;
    private final GroupCommit<Recordable, Recorded> commit;

    PhaseThreeBatches(
            PaymentStore payments,
            PaymentRecording recording,
            OutcomeRecorder recorder,
            IdempotencyKeys keys,
            EventStatements eventStatements,
            Ledger ledger,
            TransactionTemplate tx,
            ConnectionWait connectionWait,
            ApplicationEventPublisher publisher,
            MeterRegistry meters) {
        this.payments = payments;
        this.recording = recording;
        this.recorder = recorder;
        this.keys = keys;
        this.eventStatements = eventStatements;
        this.ledger = ledger;
        this.tx = tx;
        this.connectionWait = connectionWait;
        this.publisher = publisher;
        this.commit = new GroupCommit<>(LANES, MAX_BATCH, this::run, PhaseOneBatches.batchSizes(meters, "3")::record);
    }

    /**
     * Phase 3 of {@code payment} as the owner of {@code attempt}, as {@link OutcomeRecorder#record} gives it: through
     * a batch for a final outcome, alone otherwise. Throws {@link StaleAttempt} when someone else owns the key.
     */
    PaymentAnswer record(Payment payment, ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
        if (reviewReason != null || outcome instanceof ChargeOutcome.Unknown) {
            return recorder.record(recording, payment, ck, attempt, outcome, reviewReason);
        }
        return switch (commit.submit(new Recordable(payment, ck, attempt, outcome))) {
            case Recorded.Settled settled -> {
                // What the one-payment path does after its commit, from the request's own thread.
                recording.countOutcome(outcome);
                recording.logSettled(settled.payment());
                publisher.publishEvent(new RecordedEvent(settled.event()));
                yield new PaymentAnswer.Final(201, settled.body(), false);
            }
            case Recorded.Alone alone -> recorder.record(recording, payment, ck, attempt, outcome, null);
        };
    }

    /** One request waiting for a batch: the payment as its attempt read it, its key, its owner and the outcome. */
    record Recordable(Payment payment, ClientKey ck, int attempt, ChargeOutcome outcome) {}

    /** What a batch decided for one request. */
    sealed interface Recorded {
        /** Moved, answered and posted by the batch, committed. */
        record Settled(Payment payment, String body, BusinessEvent event) implements Recorded {}

        /** Not moved by the batch: the request runs the one-payment path itself. */
        record Alone() implements Recorded {}
    }

    /** Requests that have entered a batch so far: for tests that hold a batch in the database. */
    long submitted() {
        return commit.submitted();
    }

    /** One batch: an answer for each request, in order. */
    List<Recorded> run(List<Recordable> requests) {
        List<Recordable> together = new ArrayList<>(requests.size());
        Set<PaymentId> seen = new HashSet<>();
        for (Recordable r : requests) {
            // Two owners of one payment (a stale one and its successor) never meet in one statement.
            if (seen.add(r.payment().id())) {
                together.add(r);
            }
        }
        Map<PaymentId, Recorded.Settled> settled = recordTogether(together);
        List<Recorded> answers = new ArrayList<>(requests.size());
        Set<PaymentId> answered = new HashSet<>();
        for (Recordable r : requests) {
            Recorded.Settled mine = settled.get(r.payment().id());
            boolean first = answered.add(r.payment().id());
            answers.add(mine != null && first ? mine : new Recorded.Alone());
        }
        log.debug("phase 3 batch of {}: {} recorded together", requests.size(), settled.size());
        return answers;
    }

    /** The batch's transaction; empty when it wrote nothing (refused as a whole) and each request must run alone. */
    private Map<PaymentId, Recorded.Settled> recordTogether(List<Recordable> together) {
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

    /** The two statements: the fenced moves, then every moved payment's answer, event and posting. */
    private Map<PaymentId, Recorded.Settled> moveAndAnswer(List<Recordable> together) {
        Map<PaymentId, PaymentStore.Fenced> moved = payments.fencedTransitionEach(
                IdempotencyKeys.fenceEachPart(together.stream()
                        .map(r -> new IdempotencyKeys.Owner(r.ck(), r.attempt()))
                        .toList()),
                together.stream()
                        .map(r -> new PaymentStore.Transition(
                                r.payment().id(),
                                PaymentRecording.nextOf(r.outcome()),
                                PaymentRecording.recordedOf(r.outcome())))
                        .toList());
        if (moved.isEmpty()) {
            return Map.of();
        }
        Map<PaymentId, Recorded.Settled> settled = new HashMap<>();
        List<IdempotencyKeys.Answer> answers = new ArrayList<>(moved.size());
        List<BusinessEvent> announced = new ArrayList<>(moved.size());
        List<MoneyMovement> movements = new ArrayList<>(moved.size());
        for (Recordable r : together) {
            PaymentStore.Fenced fenced = moved.get(r.payment().id());
            if (fenced == null) {
                continue;
            }
            PaymentRecording.Answer answer = recording.answer(fenced.payment());
            answers.add(new IdempotencyKeys.Answer(new IdempotencyKeys.Owner(r.ck(), r.attempt()), 201, answer.body()));
            announced.add(answer.event());
            answer.movement().ifPresent(movements::add);
            settled.put(r.payment().id(), new Recorded.Settled(fenced.payment(), answer.body(), answer.event()));
        }
        List<SqlPart> alongside = new ArrayList<>(2);
        alongside.add(eventStatements.appendEach(announced, IdempotencyKeys.COMPLETED_EACH));
        if (!movements.isEmpty()) {
            alongside.add(ledger.atOnceEachPart(movements, IdempotencyKeys.COMPLETED_EACH));
        }
        int stored = keys.completeEachWith(answers, OutcomeRecorder.joined(alongside));
        if (stored != answers.size()) {
            // Every key was locked as its owner's by the first statement: an answer not stored is a bug.
            throw new IllegalStateException("stored " + stored + " of " + answers.size() + " answers of a batch");
        }
        return settled;
    }
}
