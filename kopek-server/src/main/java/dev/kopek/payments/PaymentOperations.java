package dev.kopek.payments;

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
import dev.kopek.platform.LogContext;
import dev.kopek.psp.PaymentProviders;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Phase 1 of captures, voids and refunds: reserve the amount with one conditional UPDATE on the payment and insert
 * the PENDING operation. A capture or void then runs at once under the client's key ({@link OperationRunner}); a
 * refund's client is answered 202 and its run gets a key of its own, opened here in the same transaction.
 */
@Service
public class PaymentOperations {

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final OperationStore operations;
    private final OperationRunner runner;
    private final PaymentBalances balances;
    private final PaymentEvents events;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final PaymentProviders psps;

    PaymentOperations(
            IdempotencyKeys keys,
            PaymentStore payments,
            OperationStore operations,
            OperationRunner runner,
            PaymentBalances balances,
            PaymentEvents events,
            TransactionTemplate tx,
            Clock clock,
            PaymentProviders psps) {
        this.keys = keys;
        this.payments = payments;
        this.operations = operations;
        this.runner = runner;
        this.balances = balances;
        this.events = events;
        this.tx = tx;
        this.clock = clock;
        this.psps = psps;
    }

    /** Captures {@code amount} (or all that remains) of an authorization; {@code finalCapture} releases the rest. */
    public PaymentAnswer capture(MerchantId merchant, PaymentId id, String key, Long amount, boolean finalCapture) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(
                new ClientKey(merchant, OperationKind.CAPTURE.keySpace(), key),
                Fingerprint.of(
                        id.toString(), amount == null ? null : amount.toString(), Boolean.toString(finalCapture)),
                (opId, ck) -> reserveCapture(ck, id, opId, amount, finalCapture));
    }

    public PaymentAnswer voidAuthorization(MerchantId merchant, PaymentId id, String key) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(
                new ClientKey(merchant, OperationKind.VOID.keySpace(), key),
                Fingerprint.of(id.toString()),
                (opId, ck) -> reserveVoid(ck, id, opId));
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

    private interface Reservation {
        PaymentAnswer.Refused reserve(UUID opId, ClientKey ck);
    }

    private PaymentAnswer run(ClientKey ck, String fingerprint, Reservation reservation) {
        UUID opId = TimeOrderedIds.next(clock);
        Object phaseOne = tx.execute(status -> {
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
        return switch (phaseOne) {
            case PaymentAnswer.Refused refused -> refused;
            case Claim.Owned owned
            when owned.reclaimed() -> runner.resume(ck, owned.attempt(), runner.operation(owned.resourceId()));
            case Claim.Owned owned -> runner.start(runner.operation(owned.resourceId()), ck, owned.attempt());
            case Claim.Replay replay -> new PaymentAnswer.Final(replay.status(), replay.body(), true);
            case Claim.InFlight inFlight -> new PaymentAnswer.InFlight(inFlight.retryAfter());
            case Claim.Awaiting awaiting ->
                new PaymentAnswer.Processing(runner.paymentOf(runner.operation(awaiting.resourceId())));
            case Claim.Mismatch mismatch -> new PaymentAnswer.KeyReused();
            default -> throw new IllegalStateException("unexpected phase-one result " + phaseOne);
        };
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
        if (amount > 0 && payments.reserveCapture(merchant, id, amount, closing).isPresent()) {
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
        Optional<Payment> reserved = payments.reserveVoid(merchant, id);
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
