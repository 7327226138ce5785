package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.idempotency.Claim;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
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
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Phase 1 of captures, voids and refunds: reserve the amount with one conditional UPDATE on the payment and insert
 * the PENDING operation — for a capture or void whose key is new, in one statement with the key's claim and the
 * event ({@link OperationStore#reserveAndInsert}), otherwise in a transaction that decides on the key's state. A capture or void then runs at once under the client's key ({@link OperationRunner}); a
 * refund's client is answered 202 and its run gets a key of its own, opened here in the same transaction.
 */
@Service
public class PaymentOperations {

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final Reservations reservations;
    private final OperationStore operations;
    private final OperationRunner runner;
    private final PaymentBalances balances;
    private final PaymentEvents events;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final PaymentProviders psps;
    private final EventStatements eventStatements;

    PaymentOperations(
            IdempotencyKeys keys,
            PaymentStore payments,
            Reservations reservations,
            OperationStore operations,
            OperationRunner runner,
            PaymentBalances balances,
            PaymentEvents events,
            TransactionTemplate tx,
            Clock clock,
            PaymentProviders psps,
            EventStatements eventStatements) {
        this.keys = keys;
        this.payments = payments;
        this.reservations = reservations;
        this.operations = operations;
        this.runner = runner;
        this.balances = balances;
        this.events = events;
        this.tx = tx;
        this.clock = clock;
        this.psps = psps;
        this.eventStatements = eventStatements;
    }

    /** Captures {@code amount} (or all that remains) of an authorization; {@code finalCapture} releases the rest. */
    public PaymentAnswer capture(MerchantId merchant, PaymentId id, String key, Long amount, boolean finalCapture) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(
                new ClientKey(merchant, OperationKind.CAPTURE.keySpace(), key),
                Fingerprint.of(
                        id.toString(), amount == null ? null : amount.toString(), Boolean.toString(finalCapture)),
                new Reservation() {
                    @Override
                    public Optional<Planned> plan(UUID opId, ClientKey ck) {
                        return planCapture(ck, id, opId, amount, finalCapture);
                    }

                    @Override
                    public PaymentAnswer.Refused reserve(UUID opId, ClientKey ck) {
                        return reserveCapture(ck, id, opId, amount, finalCapture);
                    }
                });
    }

    public PaymentAnswer voidAuthorization(MerchantId merchant, PaymentId id, String key) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(
                new ClientKey(merchant, OperationKind.VOID.keySpace(), key),
                Fingerprint.of(id.toString()),
                new Reservation() {
                    @Override
                    public Optional<Planned> plan(UUID opId, ClientKey ck) {
                        return planVoid(ck, id, opId);
                    }

                    @Override
                    public PaymentAnswer.Refused reserve(UUID opId, ClientKey ck) {
                        return reserveVoid(ck, id, opId);
                    }
                });
    }

    /**
     * A refund's phase 1, inside the caller's transaction: reserves against what is captured and neither refunded
     * nor disputed, inserts the PENDING refund and opens the key its run is fenced by. Empty when it does not fit.
     */
    public Optional<PaymentOperation> reserveRefund(
            ClientKey clientKey, Payment payment, UUID refundId, long amount, String reason) {
        if (balances.reserveRefund(payment.merchant(), payment.id(), refundId, amount)
                .isEmpty()) {
            return Optional.empty();
        }
        PaymentOperation refund = operations.insert(new OperationStore.NewOperation(
                refundId,
                payment.id(),
                payment.merchant(),
                OperationKind.REFUND,
                new Money(amount, payment.amount().currency()),
                false,
                reason,
                clientKey.providerKey(refundId)));
        keys.open(runKey(refund), refundId);
        return Optional.of(refund);
    }

    /** The key a refund's run is fenced by: its own, named by its id (its client's key was answered in phase 1). */
    public static ClientKey runKey(PaymentOperation refund) {
        return new ClientKey(
                refund.merchant(), OperationKind.REFUND.keySpace(), refund.id().toString());
    }

    public Optional<PaymentOperation> find(UUID id) {
        return operations.find(id);
    }

    public Optional<PaymentOperation> find(MerchantId merchant, OperationKind kind, UUID id) {
        return operations.find(merchant, kind, id);
    }

    public java.util.List<PaymentOperation> forPayment(MerchantId merchant, PaymentId payment, OperationKind kind) {
        return operations.findByPayment(merchant, payment, kind);
    }

    /** What differs between a capture's and a void's phase 1: the reservation, planned or made. */
    private interface Reservation {

        /**
         * The operation and its reservation for the one-statement phase 1, from the payment as it reads now; empty
         * when the transactional phase 1 must decide (no such payment, nothing to reserve, a refusal to explain).
         */
        Optional<Planned> plan(UUID opId, ClientKey ck);

        /** Reserves inside the transactional phase 1; a refusal says why, and nothing is stored. */
        PaymentAnswer.Refused reserve(UUID opId, ClientKey ck);
    }

    /** A planned operation and its reservation (the CTE {@code reserved}, which requires {@code key_free}). */
    private record Planned(OperationStore.NewOperation operation, SqlPart reservation) {}

    private PaymentAnswer run(ClientKey ck, String fingerprint, Reservation reservation) {
        UUID opId = TimeOrderedIds.next(clock);
        // A new key, the usual case: after one read of the payment, all of phase 1's writes in one statement in
        // autocommit.
        Optional<PaymentOperation> fresh = reservation.plan(opId, ck).flatMap(plan -> phaseOne(ck, fingerprint, plan));
        if (fresh.isPresent()) {
            IdempotencyKeys.logContext(ck, 1, opId);
            return runner.start(fresh.get(), ck, 1);
        }
        // The key exists, or the reservation did not fit: decided in a transaction on the committed state.
        Object decided = tx.execute(status -> {
            Claim claim = keys.claim(ck, fingerprint, opId);
            if (claim instanceof Claim.Owned owned && !owned.reclaimed()) {
                PaymentAnswer.Refused refused = reservation.reserve(opId, ck);
                if (refused != null) {
                    status.setRollbackOnly();
                    return refused;
                }
            }
            return claim;
        });
        return decided instanceof Claim claim ? runner.afterClaim(claim, ck) : (PaymentAnswer.Refused) decided;
    }

    /**
     * The one statement of a new key's phase 1: the key is new, the reservation fits, the operation is inserted
     * with its event, the key is claimed. Empty when nothing was written: the key exists (or a racing request
     * with it claimed it first, which fails the statement on the key), or the reservation no longer fits.
     */
    private Optional<PaymentOperation> phaseOne(ClientKey ck, String fingerprint, Planned plan) {
        BusinessEvent[] created = new BusinessEvent[1];
        try {
            Optional<PaymentOperation> inserted = operations.reserveAndInsert(
                    IdempotencyKeys.freePart(ck),
                    plan.reservation(),
                    plan.operation(),
                    keys.claimAfterPart(ck, fingerprint, plan.operation().id(), clock.instant(), "operation"),
                    pending -> {
                        created[0] = events.operationEvent(pending);
                        return eventStatements.append(created[0], "claimed");
                    });
            inserted.ifPresent(op -> events.recorded(created[0]));
            return inserted;
        } catch (DuplicateKeyException raced) {
            return Optional.empty();
        }
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
                new OperationStore.NewOperation(
                        opId,
                        id,
                        ck.merchant(),
                        OperationKind.CAPTURE,
                        new Money(amount, found.get().amount().currency()),
                        closing,
                        null,
                        ck.providerKey(opId)),
                reservations.capturePart(ck.merchant(), id, amount, closing, "key_free")));
    }

    private Optional<Planned> planVoid(ClientKey ck, PaymentId id, UUID opId) {
        return payments.find(ck.merchant(), id)
                .filter(payment -> payment.amounts().authorized() > 0)
                .map(payment -> new Planned(
                        new OperationStore.NewOperation(
                                opId,
                                id,
                                ck.merchant(),
                                OperationKind.VOID,
                                new Money(
                                        payment.amounts().authorized(),
                                        payment.amount().currency()),
                                true,
                                null,
                                ck.providerKey(opId)),
                        reservations.releasePart(ck.merchant(), id, "key_free")));
    }

    private PaymentAnswer.Refused reserveCapture(
            ClientKey ck, PaymentId id, UUID opId, Long requested, boolean finalCapture) {
        MerchantId merchant = ck.merchant();
        Optional<Payment> found = payments.find(merchant, id);
        if (found.isEmpty()) {
            return new PaymentAnswer.Refused(404, "not_found", "payment " + id + " not found");
        }
        long remaining = found.get().amounts().capturable();
        long amount = requested == null ? remaining : requested;
        boolean closing = finalCapture || amount == remaining;
        if (!closing && amount > 0 && amount < remaining && !capturesInParts(found.get())) {
            return new PaymentAnswer.Refused(
                    422,
                    "partial_capture_unsupported",
                    "The PSP account of this payment captures an authorization once: capture all that remains ("
                            + remaining + "), or send \"final\": true to capture " + amount + " and release the rest.");
        }
        if (amount > 0 && reservations.capture(merchant, id, amount, closing).isPresent()) {
            events.operationChanged(operations.insert(new OperationStore.NewOperation(
                    opId,
                    id,
                    merchant,
                    OperationKind.CAPTURE,
                    new Money(amount, found.get().amount().currency()),
                    closing,
                    null,
                    ck.providerKey(opId))));
            return null;
        }
        return OperationRefusals.capture(found.get(), amount, closing, clock.instant());
    }

    /** Whether the account the payment went through can leave the rest of it capturable after a capture. */
    private boolean capturesInParts(Payment payment) {
        return psps.forPayment(payment.merchant(), payment.pspAccount()).capturesInParts();
    }

    private PaymentAnswer.Refused reserveVoid(ClientKey ck, PaymentId id, UUID opId) {
        MerchantId merchant = ck.merchant();
        Optional<Payment> found = payments.find(merchant, id);
        if (found.isEmpty()) {
            return new PaymentAnswer.Refused(404, "not_found", "payment " + id + " not found");
        }
        Optional<Payment> reserved = reservations.release(merchant, id);
        if (reserved.isPresent()) {
            events.operationChanged(operations.insert(new OperationStore.NewOperation(
                    opId,
                    id,
                    merchant,
                    OperationKind.VOID,
                    new Money(
                            reserved.get().amounts().authorized(),
                            found.get().amount().currency()),
                    true,
                    null,
                    ck.providerKey(opId))));
            return null;
        }
        return OperationRefusals.voiding(found.get(), clock.instant());
    }
}
