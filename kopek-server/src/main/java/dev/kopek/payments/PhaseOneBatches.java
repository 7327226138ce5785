package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.payments.jdbc.PendingBatch;
import dev.kopek.platform.ConnectionWait;
import dev.kopek.platform.DatabaseFailures;
import dev.kopek.platform.GroupCommit;
import dev.kopek.platform.LogContext;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Phase 1 of concurrent new payments as one statement and one commit (issue 25 §3): the database's cost per
 * statement and per commit is paid once per batch. A request that finds a lane free goes at once, with whatever is
 * queued ({@link GroupCommit}: no timer), so a lone request is a batch of one and waits for nothing; one that arrives
 * while the lanes' batches are in the database waits for the next batch.
 *
 * <p>Each request keeps its own answer and its own failure. A request whose key or intent an earlier request of its
 * batch already carries runs the one-payment statement from its own thread after the batch: two requests with one
 * key, or two attempts of one intent, never meet in one statement. A key that exists gives the answer the
 * one-payment statement gives (nothing written; the caller decides on the key's state). If the batch statement
 * fails as a whole — a second live attempt of an intent (L2), any refused row, a deadlock between two batches —
 * nothing of it was written and every request runs alone, to get its own answer. Only a database outage is every
 * request's failure at once, as it would be alone.
 */
@Component
class PhaseOneBatches {

    private static final Logger log = LoggerFactory.getLogger(PhaseOneBatches.class);

    /** Batches in the database at once: a second lane fills while the first one's statement runs. */
    static final int LANES = 2;

    /** The most requests in one statement; the rest queue for the next batch. */
    static final int MAX_BATCH = 64;

    private static final Comparator<Admission> BY_KEY =
            Comparator.comparing((Admission a) -> a.ck().merchant().value()).thenComparing(a -> a.ck().key());

    private final PendingBatch batch;
    private final PaymentStore payments;
    private final Clock clock;
    private final IdempotencyKeys keys;
    private final PaymentEvents events;
    private final EventStatements eventStatements;
    private final ConnectionWait connectionWait;
    private final GroupCommit<Admission, Admitted> commit;

    PhaseOneBatches(
            PendingBatch batch,
            PaymentStore payments,
            Clock clock,
            IdempotencyKeys keys,
            PaymentEvents events,
            EventStatements eventStatements,
            ConnectionWait connectionWait,
            MeterRegistry meters) {
        this.batch = batch;
        this.payments = payments;
        this.clock = clock;
        this.keys = keys;
        this.events = events;
        this.eventStatements = eventStatements;
        this.connectionWait = connectionWait;
        this.commit = new GroupCommit<>(LANES, MAX_BATCH, this::run, batchSizes(meters, "1")::record);
    }

    /**
     * The histogram {@code kopek_batch_size} of one phase's batches: requests per batch (phase 1's batch is one
     * statement, phase 3's one transaction of two).
     */
    static DistributionSummary batchSizes(MeterRegistry meters, String phase) {
        return DistributionSummary.builder("kopek.batch.size")
                .description("requests per batch (phase 1: one statement; phase 3: one transaction of two)")
                .tag("phase", phase)
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64)
                .register(meters);
    }

    /**
     * {@link PaymentStore#claimAndInsertPending}'s answer for one request, reached through a batch: the PENDING
     * attempt it inserted (its created event written with it), or empty when its key exists. A second live attempt
     * of the intent (L2) is a {@code DuplicateKeyException}, as from that statement.
     */
    Optional<Payment> claimAndInsert(
            ClientKey ck,
            String fingerprint,
            PaymentId id,
            MerchantId merchant,
            PaymentRequest request,
            String idempotencyKey) {
        // The request's own log lines name its merchant and key, whichever thread runs its batch.
        LogContext.put(LogContext.MERCHANT, ck.merchant());
        LogContext.put(LogContext.KEY_HASH, ck.hash());
        Admission admission = admission(ck, fingerprint, id, merchant, request, idempotencyKey);
        return switch (commit.submit(admission)) {
            case Admitted.Inserted inserted -> {
                events.recorded(admission.created());
                yield Optional.of(inserted.payment());
            }
            case Admitted.KeyExists exists -> Optional.empty();
            case Admitted.Alone runAlone -> alone(admission, request);
        };
    }

    /** The one-payment statement ({@link PaymentStore#claimAndInsertPending}), for a request the batch left alone. */
    private Optional<Payment> alone(Admission admission, PaymentRequest request) {
        Payment pending = admission.pending();
        return connectionWait.patiently(() -> {
            BusinessEvent[] created = new BusinessEvent[1];
            Optional<Payment> inserted = payments.claimAndInsertPending(
                    keys.claimPart(
                            admission.ck(),
                            admission.fingerprint(),
                            pending.id().value(),
                            clock.instant()),
                    pending.id(),
                    pending.merchant(),
                    request,
                    pending.idempotencyKey(),
                    pending.providerKey(),
                    row -> {
                        created[0] = events.created(row);
                        return eventStatements.append(created[0], "payment");
                    });
            inserted.ifPresent(p -> events.recorded(created[0]));
            return inserted;
        });
    }

    /** The attempt, with its created event, that phase 1 of this request would insert. */
    Admission admission(
            ClientKey ck,
            String fingerprint,
            PaymentId id,
            MerchantId merchant,
            PaymentRequest request,
            String idempotencyKey) {
        Payment pending = batch.pending(id, merchant, request, idempotencyKey, ck.providerKey(id.value()));
        return new Admission(ck, fingerprint, pending, events.created(pending));
    }

    /** One request waiting for a batch: its key and the attempt (with its event) that phase 1 would insert. */
    record Admission(ClientKey ck, String fingerprint, Payment pending, BusinessEvent created) {}

    /** What a batch decided for one request. */
    sealed interface Admitted {
        record Inserted(Payment payment) implements Admitted {}

        record KeyExists() implements Admitted {}

        /** Not decided by the batch: the request runs the one-payment statement itself. */
        record Alone() implements Admitted {}
    }

    /** Requests that have entered phase 1 so far: for tests that hold a batch in the database. */
    long submitted() {
        return commit.submitted();
    }

    /** One batch: an answer for each admission, in order. */
    List<Admitted> run(List<Admission> admissions) {
        List<Admitted> answers = new ArrayList<>(admissions.size());
        List<Admission> together = new ArrayList<>(admissions.size());
        Set<ClientKey> seenKeys = new HashSet<>();
        Set<List<Object>> seenIntents = new HashSet<>();
        for (Admission a : admissions) {
            boolean sharesKey = !seenKeys.add(a.ck());
            boolean sharesIntent =
                    !seenIntents.add(List.of(a.pending().merchant(), a.pending().reference()));
            answers.add(sharesKey || sharesIntent ? new Admitted.Alone() : null);
            if (!sharesKey && !sharesIntent) {
                together.add(a);
            }
        }
        // The first admission always goes in: a batch's statement has at least one row. Keys are claimed in one
        // order in every batch, so two batches holding the same keys wait for each other instead of deadlocking.
        together.sort(BY_KEY);
        Map<PaymentId, Payment> inserted = insertTogether(together);
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i) == null) {
                Payment row = inserted == null
                        ? null
                        : inserted.get(admissions.get(i).pending().id());
                answers.set(
                        i,
                        inserted == null
                                ? new Admitted.Alone()
                                : row == null ? new Admitted.KeyExists() : new Admitted.Inserted(row));
            }
        }
        log.debug("phase 1 batch of {}: {} in one statement", admissions.size(), together.size());
        return answers;
    }

    /**
     * Rethrows a batch's failure when it is a database outage, every request's failure as it would be alone (none of
     * them knows more); returns when the batch was refused as a whole and each request may run alone. A deadlock is
     * the batch's own: one statement or transaction holding several keys.
     */
    static void throwIfOutage(RuntimeException e) {
        if (DatabaseFailures.of(e).filter(u -> !u.reason().equals("deadlock")).isPresent()) {
            throw e;
        }
    }

    /** The batch's statement; null when it failed as a whole (nothing written) and each request must run alone. */
    private Map<PaymentId, Payment> insertTogether(List<Admission> together) {
        try {
            return connectionWait.patiently(() -> batch.claimAndInsertAll(
                    keys.claimAllPart(together.stream()
                            .map(a -> new IdempotencyKeys.NewClaim(
                                    a.ck(),
                                    a.fingerprint(),
                                    a.pending().id().value(),
                                    a.pending().createdAt()))
                            .toList()),
                    together.stream().map(Admission::pending).toList(),
                    eventStatements.appendEach(
                            together.stream().map(Admission::created).toList(), "payment")));
        } catch (RuntimeException e) {
            throwIfOutage(e);
            log.debug(
                    "phase 1 batch of {} refused as a whole ({} {}); each request runs alone",
                    together.size(),
                    e.getClass().getSimpleName(),
                    ConstraintNames.of(e));
            return null;
        }
    }
}
