package dev.kopek.payments;

import dev.kopek.platform.LogContext;
import dev.kopek.idempotency.Claim;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.OperationRequest;
import dev.kopek.psp.PaymentProvider;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Captures and voids, in the same three phases as payments: claim the operation's key and reserve its amount in
 * one short transaction, call the PSP with nothing held, settle fenced by the attempt number.
 */
@Service
public class PaymentOperations {

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final OperationStore operations;
    private final OperationSettlement settlement;
    private final PaymentProvider psp;
    private final KeyWindow keyWindow;
    private final PaymentEvents events;
    private final AfterPspCall afterPspCall;
    private final TransactionTemplate tx;
    private final Clock clock;

    PaymentOperations(IdempotencyKeys keys, PaymentStore payments, OperationStore operations,
            OperationSettlement settlement, PaymentProvider psp, KeyWindow keyWindow, PaymentEvents events,
            Optional<AfterPspCall> afterPspCall, TransactionTemplate tx, Clock clock) {
        this.keys = keys;
        this.payments = payments;
        this.operations = operations;
        this.settlement = settlement;
        this.psp = psp;
        this.keyWindow = keyWindow;
        this.events = events;
        this.afterPspCall = afterPspCall.orElse((payment, outcome) -> { });
        this.tx = tx;
        this.clock = clock;
    }

    /** Captures {@code amount} (or all that remains) of an authorization; {@code finalCapture} releases the rest. */
    public PaymentAnswer capture(MerchantId merchant, PaymentId id, String key, Long amount, boolean finalCapture) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(new ClientKey(merchant, OperationKind.CAPTURE.keySpace(), key),
                Fingerprint.of(id.toString(), amount == null ? null : amount.toString(), Boolean.toString(finalCapture)),
                (opId, ck) -> reserveCapture(ck, id, opId, amount, finalCapture));
    }

    public PaymentAnswer voidAuthorization(MerchantId merchant, PaymentId id, String key) {
        LogContext.put(LogContext.PAYMENT, id);
        return run(new ClientKey(merchant, OperationKind.VOID.keySpace(), key), Fingerprint.of(id.toString()),
                (opId, ck) -> reserveVoid(ck, id, opId));
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
            case Claim.Owned owned when owned.reclaimed() -> resume(ck, owned.attempt(), operation(owned.resourceId()));
            case Claim.Owned owned -> {
                PaymentOperation op = operation(owned.resourceId());
                ChargeOutcome outcome = psp.execute(requestOf(op));
                afterPspCall.accept(op.payment(), outcome);
                yield settleOrReport(op, ck, owned.attempt(), outcome, null);
            }
            case Claim.Replay replay -> new PaymentAnswer.Final(replay.status(), replay.body(), true);
            case Claim.InFlight inFlight -> new PaymentAnswer.InFlight(inFlight.retryAfter());
            case Claim.Awaiting awaiting -> new PaymentAnswer.Processing(paymentOf(operation(awaiting.resourceId())));
            case Claim.Mismatch mismatch -> new PaymentAnswer.KeyReused();
            default -> throw new IllegalStateException("unexpected phase-one result " + phaseOne);
        };
    }

    private PaymentAnswer.Refused reserveCapture(ClientKey ck, PaymentId id, UUID opId, Long requested,
            boolean finalCapture) {
        MerchantId merchant = ck.merchant();
        Optional<Payment> found = payments.find(merchant, id);
        if (found.isEmpty()) {
            return new PaymentAnswer.Refused(404, "not_found", "payment " + id + " not found");
        }
        long remaining = found.get().amounts().capturable();
        long amount = requested == null ? remaining : requested;
        boolean closing = finalCapture || amount == remaining;
        if (amount > 0 && payments.reserveCapture(merchant, id, amount, closing).isPresent()) {
            events.operationChanged(operations.insert(opId, id, merchant, OperationKind.CAPTURE, amount, closing,
                    ck.providerKey(opId)), found.get().amount().currency());
            return null;
        }
        return OperationRefusals.capture(found.get(), amount, closing, clock.instant());
    }

    private PaymentAnswer.Refused reserveVoid(ClientKey ck, PaymentId id, UUID opId) {
        MerchantId merchant = ck.merchant();
        Optional<Payment> found = payments.find(merchant, id);
        if (found.isEmpty()) {
            return new PaymentAnswer.Refused(404, "not_found", "payment " + id + " not found");
        }
        Optional<Payment> reserved = payments.reserveVoid(merchant, id);
        if (reserved.isPresent()) {
            events.operationChanged(operations.insert(opId, id, merchant, OperationKind.VOID,
                    reserved.get().amounts().authorized(), true, ck.providerKey(opId)), found.get().amount().currency());
            return null;
        }
        return OperationRefusals.voiding(found.get(), clock.instant());
    }

    /** Applies a PSP notification about a capture or void through the fenced settlement. */
    public NotificationResult applyNotification(String providerKey, ChargeOutcome outcome) {
        Optional<PaymentOperation> found = operations.findByProviderKey(providerKey);
        if (found.isEmpty()) {
            return NotificationResult.UNMATCHED;
        }
        PaymentOperation op = found.get();
        if (op.status() == PaymentOperation.OperationStatus.SUCCEEDED
                || op.status() == PaymentOperation.OperationStatus.FAILED) {
            boolean agrees = (op.status() == PaymentOperation.OperationStatus.SUCCEEDED)
                    == (outcome instanceof ChargeOutcome.Succeeded);
            return agrees ? NotificationResult.IGNORED : NotificationResult.CONFLICT;
        }
        if (outcome instanceof ChargeOutcome.Unknown) {
            return NotificationResult.IGNORED;
        }
        Optional<KeyRecord> key = keys.findByResource(op.kind().keySpace(), op.id());
        Optional<Integer> attempt = key.flatMap(keys::takeOverUnlessOwned);
        if (attempt.isEmpty()) {
            return NotificationResult.RETRY;
        }
        settleOrReport(op, key.get().clientKey(), attempt.get(), outcome, null);
        return NotificationResult.APPLIED;
    }

    /** A person's decision on a capture or void parked for review, through the same fenced settlement. */
    public Optional<PaymentAnswer> resolveManually(UUID operationId, ChargeOutcome decided) {
        PaymentOperation op = operation(operationId);
        return keys.findByResource(op.kind().keySpace(), op.id())
                .flatMap(key -> keys.takeOverWithAnswer(key)
                        .map(attempt -> settleOrReport(op, key.clientKey(), attempt, decided, null)));
    }

    /** Takes over a stuck capture or void if no one else has; empty when another worker or a retry won. */
    public Optional<PaymentAnswer> recover(KeyRecord stuck) {
        return keys.takeOver(stuck, clock.instant())
                .map(attempt -> resume(stuck.clientKey(), attempt, operation(stuck.resourceId())));
    }

    private PaymentAnswer resume(ClientKey ck, int attempt, PaymentOperation op) {
        OperationRequest request = requestOf(op);
        return switch (psp.lookup(request)) {
            case LookupResult.Found f -> settleOrReport(op, ck, attempt, f.outcome(), null);
            case LookupResult.Inconclusive i -> settleOrReport(op, ck, attempt, new ChargeOutcome.Unknown(i.reason()), null);
            case LookupResult.NotFound n -> !keyWindow.isOpen(op.createdAt())
                    ? settleOrReport(op, ck, attempt, new ChargeOutcome.Unknown("no record at the PSP"),
                            KeyWindow.CLOSED_REASON)
                    : settleOrReport(op, ck, attempt, keys.properties().maySend(attempt) ? psp.executeOnce(request)
                            : new ChargeOutcome.Failed(KeyWindow.nothingAfterTries(attempt - 1)), null);
        };
    }

    private PaymentAnswer settleOrReport(PaymentOperation op, ClientKey ck, int attempt, ChargeOutcome outcome,
            String review) {
        try {
            return settlement.settle(op, ck, attempt, outcome, review);
        } catch (PaymentSettlement.StaleAttempt stale) {
            KeyRecord key = keys.find(ck).orElseThrow();
            return switch (key.status()) {
                case COMPLETED -> new PaymentAnswer.Final(key.responseCode(), key.responseBody(), true);
                case AWAITING_RESULT -> new PaymentAnswer.Processing(paymentOf(op));
                case IN_PROGRESS -> new PaymentAnswer.InFlight(IdempotencyKeys.retryAfter(key.leaseUntil(),
                        clock.instant()));
            };
        }
    }

    private OperationRequest requestOf(PaymentOperation op) {
        Payment payment = paymentOf(op);
        OperationRequest.Kind kind = switch (op.kind()) {
            case CAPTURE -> OperationRequest.Kind.CAPTURE;
            case VOID -> OperationRequest.Kind.VOID;
        };
        return new OperationRequest(kind, op.providerKey(), payment.pspReference(),
                new dev.kopek.money.Money(op.amount(), payment.amount().currency()), op.finalCapture());
    }

    private PaymentOperation operation(UUID id) {
        return operations.find(id).orElseThrow(() -> new IllegalStateException("key points at missing operation " + id));
    }

    private Payment paymentOf(PaymentOperation op) {
        return payments.find(op.payment()).orElseThrow();
    }
}
