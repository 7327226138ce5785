package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.ledger.Ledger;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.OperationStrategy.StoredAnswer;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.payments.jdbc.Reservations;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.PaymentProviders;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

/**
 * Phase 1 of captures, voids and refunds: reserve the amount with one conditional UPDATE on the payment and insert
 * the PENDING operation — when the key is new, in one statement in autocommit with the key's claim, the event and
 * what else the kind writes ({@link OperationStore#reserveAndInsert}), otherwise in a transaction that decides on
 * the key's committed state. A capture or void then runs at once under the client's key ({@link OperationRunner}); a
 * refund's client is answered 202 at once and its run, fenced by a key of its own opened in the same statement, is
 * started on a virtual thread (or, if that is lost, by the reconciler).
 */
@Service
public class PaymentOperations {

    private static final Logger log = LoggerFactory.getLogger(PaymentOperations.class);

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final Reservations reservations;
    private final OperationStore operations;
    private final OperationRunner runner;
    private final PaymentEvents events;
    private final EventStatements eventStatements;
    private final Ledger ledger;
    private final PhaseOne phaseOne;
    private final Clock clock;
    private final PaymentProviders psps;
    private final Map<OperationKind, OperationStrategy> strategies = new EnumMap<>(OperationKind.class);
    private final boolean dispatch;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    PaymentOperations(
            IdempotencyKeys keys,
            PaymentStore payments,
            Reservations reservations,
            OperationStore operations,
            OperationRunner runner,
            PaymentEvents events,
            EventStatements eventStatements,
            Ledger ledger,
            PhaseOne phaseOne,
            Clock clock,
            PaymentProviders psps,
            List<OperationStrategy> strategies,
            @Value("${kopek.refunds.dispatch:true}") boolean dispatch) {
        this.keys = keys;
        this.payments = payments;
        this.reservations = reservations;
        this.operations = operations;
        this.runner = runner;
        this.events = events;
        this.eventStatements = eventStatements;
        this.ledger = ledger;
        this.phaseOne = phaseOne;
        this.clock = clock;
        this.psps = psps;
        strategies.forEach(strategy -> this.strategies.put(strategy.kind(), strategy));
        this.dispatch = dispatch;
    }

    /** Captures {@code amount} (or all that remains) of an authorization; {@code finalCapture} releases the rest. */
    public PaymentAnswer capture(MerchantId merchant, PaymentId id, String key, Long amount, boolean finalCapture) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(
                new ClientKey(merchant, OperationKind.CAPTURE.requestKeySpace(), key),
                Fingerprint.of(
                        id.toString(), amount == null ? null : amount.toString(), Boolean.toString(finalCapture)),
                new Reservation() {
                    @Override
                    public Optional<Planned> plan(UUID opId, ClientKey ck) {
                        return planCapture(ck, id, opId, amount, finalCapture);
                    }

                    @Override
                    public Reserved reserve(UUID opId, ClientKey ck) {
                        return reserveCapture(ck, id, opId, amount, finalCapture);
                    }
                });
    }

    public PaymentAnswer voidAuthorization(MerchantId merchant, PaymentId id, String key) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(
                new ClientKey(merchant, OperationKind.VOID.requestKeySpace(), key),
                Fingerprint.of(id.toString()),
                new Reservation() {
                    @Override
                    public Optional<Planned> plan(UUID opId, ClientKey ck) {
                        return planVoid(ck, id, opId);
                    }

                    @Override
                    public Reserved reserve(UUID opId, ClientKey ck) {
                        return reserveVoid(ck, id, opId);
                    }
                });
    }

    /**
     * Refunds {@code amount} of what was captured: 202 with the PENDING refund once its amount is reserved (L7), or
     * 404/409 with nothing stored. The refund then runs under its own key.
     */
    public PaymentAnswer refund(MerchantId merchant, PaymentId id, String key, long amount, String reason) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(
                new ClientKey(merchant, OperationKind.REFUND.requestKeySpace(), key),
                Fingerprint.of(id.toString(), Long.toString(amount), reason),
                new Reservation() {
                    @Override
                    public Optional<Planned> plan(UUID opId, ClientKey ck) {
                        return planRefund(ck, id, opId, amount, reason);
                    }

                    @Override
                    public Reserved reserve(UUID opId, ClientKey ck) {
                        return reserveRefund(ck, id, opId, amount, reason);
                    }
                });
    }

    public Optional<PaymentOperation> find(UUID id) {
        return operations.find(id);
    }

    public Optional<PaymentOperation> find(MerchantId merchant, OperationKind kind, UUID id) {
        return operations.find(merchant, kind, id);
    }

    public List<PaymentOperation> forPayment(MerchantId merchant, PaymentId payment, OperationKind kind) {
        return operations.findByPayment(merchant, payment, kind);
    }

    /** What differs between the kinds' phase 1: the reservation, planned or made. */
    private interface Reservation {

        /**
         * The operation and its reservation for the one-statement phase 1, from the payment as it reads now; empty
         * when the transactional phase 1 must decide (no such payment, nothing to reserve, a refusal to explain).
         */
        Optional<Planned> plan(UUID opId, ClientKey ck);

        /** Reserves and inserts inside the transactional phase 1; a refusal says why, and nothing is stored. */
        Reserved reserve(UUID opId, ClientKey ck);
    }

    /** A reservation made in the transactional phase 1: the operation inserted, or why not. */
    private sealed interface Reserved {

        /** The phase-1 outcome, {@code then} applied to an inserted operation. */
        default PhaseOne.Admitted<Accepted> map(Function<PaymentOperation, Accepted> then) {
            return switch (this) {
                case Inserted inserted -> new PhaseOne.Inserted<>(then.apply(inserted.operation()));
                case Refused refused -> new PhaseOne.Refused<>(refused.answer());
            };
        }
    }

    private record Inserted(PaymentOperation operation) implements Reserved {}

    private record Refused(PaymentAnswer.Refused answer) implements Reserved {}

    /**
     * A planned operation and its reservation (the CTE {@code reserved}, which requires {@code key_free}), and the
     * money movement the reservation opens, if any (a refund's), posted in the same statement.
     */
    private record Planned(OperationStore.NewOperation operation, SqlPart reservation, MoneyMovement opened) {}

    /** A new operation after phase 1, and the answer its client got in phase 1 already (a refund's 202), if any. */
    private record Accepted(PaymentOperation operation, Optional<StoredAnswer> answer) {}

    private PaymentAnswer run(ClientKey ck, String fingerprint, Reservation reservation) {
        return phaseOne.admit(ck, fingerprint, TimeOrderedIds.next(clock), new PhaseOne.Kind<Accepted>() {
            @Override
            public Optional<PhaseOne.Admitted<Accepted>> fused(UUID opId) {
                // After one read of the payment, all of phase 1's writes in one statement.
                return reservation.plan(opId, ck).flatMap(plan -> PaymentOperations.this.fused(ck, fingerprint, plan));
            }

            @Override
            public PhaseOne.Admitted<Accepted> claimed(UUID opId) {
                return reservation.reserve(opId, ck).map(op -> announce(ck, op));
            }

            @Override
            public PaymentAnswer started(Accepted accepted, ClientKey key) {
                return PaymentOperations.this.started(accepted, key);
            }

            @Override
            public Attempt attemptOf(UUID resourceId) {
                return runner.attemptOf(resourceId);
            }
        });
    }

    /**
     * The one statement of a new key's phase 1: the key is new, the reservation fits, the operation is inserted
     * with its event (and a refund's posting and run key), the key is claimed — or, for a refund, stored with its
     * 202. Empty when nothing was written: the key exists (or a racing request with it claimed it first, which fails
     * the statement on the key), or the reservation no longer fits.
     */
    private Optional<PhaseOne.Admitted<Accepted>> fused(ClientKey ck, String fingerprint, Planned plan) {
        OperationStrategy strategy = strategies.get(plan.operation().kind());
        UUID opId = plan.operation().id();
        Instant now = clock.instant();
        // What the statement stores is rendered from the operation it inserts, and answered as stored.
        BusinessEvent[] created = new BusinessEvent[1];
        StoredAnswer[] accepted = new StoredAnswer[1];
        try {
            Optional<PaymentOperation> inserted = operations.reserveAndInsert(
                    IdempotencyKeys.freePart(ck), plan.reservation(), plan.operation(), pending -> {
                        accepted[0] = strategy.accepted(pending).orElse(null);
                        List<SqlPart> parts = new ArrayList<>();
                        if (accepted[0] == null) {
                            parts.add(keys.claimAfterPart(ck, fingerprint, opId, now, "operation"));
                        } else {
                            parts.add(keys.answeredAfterPart(
                                    ck, fingerprint, opId, now, "operation", accepted[0].status(), accepted[0].body()));
                            parts.add(keys.openAfterPart(OperationRunner.runKey(pending), opId, "operation"));
                        }
                        if (plan.opened() != null) {
                            parts.add(ledger.openingPart(plan.opened(), "operation"));
                        }
                        created[0] = strategy.event(pending);
                        parts.add(eventStatements.append(created[0], "claimed"));
                        return parts;
                    });
            inserted.ifPresent(op -> events.recorded(created[0]));
            return inserted.map(op -> new PhaseOne.Inserted<>(new Accepted(op, Optional.ofNullable(accepted[0]))));
        } catch (DuplicateKeyException raced) {
            return Optional.empty();
        }
    }

    /**
     * The rest of phase 1 in its transaction, after the operation was inserted: its event, and for a kind that
     * answers at once (a refund) the answer stored under the key and the run's own key opened.
     */
    private Accepted announce(ClientKey ck, PaymentOperation op) {
        OperationStrategy strategy = strategies.get(op.kind());
        eventStatements.write(strategy.event(op));
        Optional<StoredAnswer> accepted = strategy.accepted(op);
        if (accepted.isPresent()) {
            keys.open(OperationRunner.runKey(op), op.id());
            if (!keys.complete(ck, 1, accepted.get().status(), accepted.get().body())) {
                throw new IllegalStateException("lost a key claimed in this transaction: " + ck);
            }
        }
        return new Accepted(op, accepted);
    }

    /**
     * After phase 1 committed: a capture or void runs now, under the client's key; a refund answers its 202 and
     * runs on a virtual thread under its own key (the reconciler takes that key over if the thread is lost, or
     * when {@code kopek.refunds.dispatch} is off).
     */
    private PaymentAnswer started(Accepted started, ClientKey ck) {
        PaymentOperation op = started.operation();
        Optional<StoredAnswer> accepted = started.answer();
        IdempotencyKeys.logContext(ck, 1, op.id());
        if (accepted.isEmpty()) {
            return runner.start(op, ck, 1);
        }
        if (dispatch) {
            threads.execute(() -> {
                try {
                    runner.dispatch(op);
                } catch (RuntimeException e) {
                    log.warn(
                            "{} {} not started here; the reconciler will run it",
                            op.kind().apiName(),
                            op.id(),
                            e);
                }
            });
        }
        return new PaymentAnswer.Final(accepted.get().status(), accepted.get().body(), false);
    }

    private Optional<Planned> planCapture(ClientKey ck, PaymentId id, UUID opId, Long requested, boolean finalCapture) {
        Optional<Payment> found = payments.find(ck.merchant(), id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        long remaining = found.get().amounts().capturable();
        long amount = requested == null ? remaining : requested;
        boolean closing = finalCapture || amount == remaining;
        if (amount <= 0 || amount > remaining || (!closing && !capturesInParts(found.get()))) {
            return Optional.empty();
        }
        return Optional.of(new Planned(
                newOperation(ck, found.get(), opId, OperationKind.CAPTURE, amount, closing, null),
                reservations.capturePart(ck.merchant(), id, amount, closing, "key_free"),
                null));
    }

    private Optional<Planned> planVoid(ClientKey ck, PaymentId id, UUID opId) {
        return payments.find(ck.merchant(), id)
                .filter(payment -> payment.amounts().authorized() > 0)
                .map(payment -> new Planned(
                        newOperation(
                                ck,
                                payment,
                                opId,
                                OperationKind.VOID,
                                payment.amounts().authorized(),
                                true,
                                null),
                        reservations.releasePart(ck.merchant(), id, "key_free"),
                        null));
    }

    private Optional<Planned> planRefund(ClientKey ck, PaymentId id, UUID opId, long amount, String reason) {
        return payments.find(ck.merchant(), id)
                .filter(payment -> payment.status().isPaid()
                        && amount > 0
                        && amount <= payment.amounts().refundable())
                .map(payment -> new Planned(
                        newOperation(ck, payment, opId, OperationKind.REFUND, amount, false, reason),
                        reservations.refundPart(ck.merchant(), id, amount, "key_free"),
                        refundReserved(payment, opId, amount)));
    }

    private Reserved reserveCapture(ClientKey ck, PaymentId id, UUID opId, Long requested, boolean finalCapture) {
        MerchantId merchant = ck.merchant();
        Optional<Payment> found = payments.find(merchant, id);
        if (found.isEmpty()) {
            return notFound(id);
        }
        long remaining = found.get().amounts().capturable();
        long amount = requested == null ? remaining : requested;
        boolean closing = finalCapture || amount == remaining;
        if (!closing && amount > 0 && amount < remaining && !capturesInParts(found.get())) {
            return new Refused(new PaymentAnswer.Refused(
                    422,
                    "partial_capture_unsupported",
                    "The PSP account of this payment captures an authorization once: capture all that remains ("
                            + remaining + "), or send \"final\": true to capture " + amount
                            + " and release the rest."));
        }
        if (amount > 0 && reservations.capture(merchant, id, amount, closing).isPresent()) {
            return new Inserted(operations.insert(
                    newOperation(ck, found.get(), opId, OperationKind.CAPTURE, amount, closing, null)));
        }
        return new Refused(OperationRefusals.capture(found.get(), amount, closing, clock.instant()));
    }

    /** Whether the account the payment went through can leave the rest of it capturable after a capture. */
    private boolean capturesInParts(Payment payment) {
        return psps.forPayment(payment.merchant(), payment.pspAccount()).capturesInParts();
    }

    private Reserved reserveVoid(ClientKey ck, PaymentId id, UUID opId) {
        Optional<Payment> found = payments.find(ck.merchant(), id);
        if (found.isEmpty()) {
            return notFound(id);
        }
        return reservations
                .release(ck.merchant(), id)
                .<Reserved>map(reserved -> new Inserted(operations.insert(newOperation(
                        ck,
                        found.get(),
                        opId,
                        OperationKind.VOID,
                        reserved.amounts().authorized(),
                        true,
                        null))))
                .orElseGet(() -> new Refused(OperationRefusals.voiding(found.get(), clock.instant())));
    }

    private Reserved reserveRefund(ClientKey ck, PaymentId id, UUID opId, long amount, String reason) {
        Optional<Payment> found = payments.find(ck.merchant(), id);
        if (found.isEmpty()) {
            return notFound(id);
        }
        Optional<Payment> reserved = reservations.refund(ck.merchant(), id, amount);
        if (reserved.isEmpty()) {
            return new Refused(OperationRefusals.refund(found.get(), amount));
        }
        events.moved(refundReserved(reserved.get(), opId, amount));
        return new Inserted(
                operations.insert(newOperation(ck, found.get(), opId, OperationKind.REFUND, amount, false, reason)));
    }

    private static Refused notFound(PaymentId id) {
        return new Refused(new PaymentAnswer.Refused(404, "not_found", "payment " + id + " not found"));
    }

    private MoneyMovement refundReserved(Payment payment, UUID refundId, long amount) {
        return new MoneyMovement(
                refundId,
                MoneyMovement.Kind.REFUND_RESERVED,
                payment.merchant(),
                payment.id().value(),
                new Money(amount, payment.amount().currency()),
                clock.instant());
    }

    private static OperationStore.NewOperation newOperation(
            ClientKey ck,
            Payment payment,
            UUID opId,
            OperationKind kind,
            long amount,
            boolean finalCapture,
            String reason) {
        return new OperationStore.NewOperation(
                opId,
                payment.id(),
                payment.merchant(),
                kind,
                new Money(amount, payment.amount().currency()),
                finalCapture,
                reason,
                ck.providerKey(opId));
    }
}
