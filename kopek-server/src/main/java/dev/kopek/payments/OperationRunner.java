package dev.kopek.payments;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.money.Money;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.NotificationSource;
import dev.kopek.psp.OperationRequest;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PaymentProviders;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * The one runner of captures, voids and refunds after phase 1 reserved their amount (docs/pipeline.md): the first
 * PSP call, resume by lookup inside the key window, a PSP notification, the reconciler's take-over and a person's
 * decision all end in the same fenced phase 3 ({@link OperationRecorder}), owned through the attempt of the
 * operation's key. What differs per kind is an {@link OperationStrategy}.
 */
@Service
public class OperationRunner {

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final OperationStore operations;
    private final OperationRecorder recorder;
    private final PaymentProviders psps;
    private final KeyWindow keyWindow;
    private final AfterPspCall afterPspCall;
    private final Clock clock;

    OperationRunner(IdempotencyKeys keys, PaymentStore payments, OperationStore operations, OperationRecorder recorder,
            PaymentProviders psps, KeyWindow keyWindow, Optional<AfterPspCall> afterPspCall, Clock clock) {
        this.keys = keys;
        this.payments = payments;
        this.operations = operations;
        this.recorder = recorder;
        this.psps = psps;
        this.keyWindow = keyWindow;
        this.afterPspCall = afterPspCall.orElse((payment, outcome) -> { });
        this.clock = clock;
    }

    /** Phase 2 of the owner of attempt 1: the first PSP call, nothing held (L3), then phase 3. */
    PaymentAnswer start(PaymentOperation op, ClientKey ck, int attempt) {
        ChargeOutcome outcome = pspOf(op).execute(requestOf(op));
        afterPspCall.accept(op.payment(), outcome);
        return recordOrReport(op, ck, attempt, outcome, null);
    }

    /** A later attempt asks the PSP by key before anything else (L5, L6). */
    PaymentAnswer resume(ClientKey ck, int attempt, PaymentOperation op) {
        OperationRequest request = requestOf(op);
        PaymentProvider psp = pspOf(op);
        LookupDecision next = LookupDecision.after(psp.lookup(request), keyWindow.isOpen(psp, op.createdAt()),
                keys.properties().maySend(attempt), attempt, () -> psp.executeOnce(request));
        return recordOrReport(op, ck, attempt, next.outcome(), next.reviewReason());
    }

    /**
     * Takes over a stuck operation if no one else has; empty when another worker or a retry won. Attempt 1 was
     * never sent (a refund's key opened in phase 1), so it sends; every later attempt looks up first.
     */
    public Optional<PaymentAnswer> recover(KeyRecord stuck) {
        return keys.takeOver(stuck, clock.instant()).map(attempt -> {
            PaymentOperation op = operation(stuck.resourceId());
            return attempt == 1 ? start(op, stuck.clientKey(), attempt) : resume(stuck.clientKey(), attempt, op);
        });
    }

    /** Runs an operation whose key phase 1 opened for nobody, now, if no one else has taken it. */
    public Optional<PaymentAnswer> recover(ClientKey ck) {
        return keys.find(ck).flatMap(this::recover);
    }

    /**
     * Applies a PSP notification about a capture, void or refund through the fenced phase 3; one from an account that
     * does not hold the payment changes nothing (L11).
     */
    public NotificationResult applyNotification(NotificationSource source, String providerKey,
            ChargeOutcome outcome) {
        return operations.findByProviderKey(providerKey)
                .map(op -> psps.speaksFor(source, op.merchant()) ? apply(op, outcome)
                        : NotificationResult.FOREIGN)
                .orElse(NotificationResult.UNMATCHED);
    }

    /**
     * An outcome learned outside the call: a final operation changes nothing (agreeing or conflicting), nor does a
     * notification without an outcome; a live owner is never displaced (try again later, L4).
     */
    public NotificationResult apply(PaymentOperation op, ChargeOutcome outcome) {
        if (op.status() == OperationStatus.SUCCEEDED || op.status() == OperationStatus.FAILED) {
            boolean agrees = (op.status() == OperationStatus.SUCCEEDED) == (outcome instanceof ChargeOutcome.Succeeded);
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
        PaymentAnswer answer = recordOrReport(op, key.get().clientKey(), attempt.get(), outcome, null);
        // Displaced by another writer before phase 3: not ours to report as applied; the retry will see it final.
        return answer instanceof PaymentAnswer.Final f && !f.replayed() ? NotificationResult.APPLIED
                : NotificationResult.RETRY;
    }

    /** A person's decision on an operation parked for review, through the same fenced phase 3. */
    public Optional<PaymentAnswer> resolveManually(UUID operationId, ChargeOutcome decided) {
        PaymentOperation op = operation(operationId);
        return keys.findByResource(op.kind().keySpace(), op.id())
                .flatMap(key -> keys.takeOverWithAnswer(key)
                        .map(attempt -> recordOrReport(op, key.clientKey(), attempt, decided, null)));
    }

    /** Phase 3, or — when someone else owns the key by now — the answer their state gives. */
    private PaymentAnswer recordOrReport(PaymentOperation op, ClientKey ck, int attempt, ChargeOutcome outcome,
            String review) {
        try {
            return recorder.record(op, ck, attempt, outcome, review);
        } catch (StaleAttempt stale) {
            return PaymentAnswer.fromKey(keys.find(ck).orElseThrow(), () -> paymentOf(op), clock.instant());
        }
    }

    private OperationRequest requestOf(PaymentOperation op) {
        OperationRequest.Kind kind = switch (op.kind()) {
            case CAPTURE -> OperationRequest.Kind.CAPTURE;
            case VOID -> OperationRequest.Kind.VOID;
            case REFUND -> OperationRequest.Kind.REFUND;
        };
        return new OperationRequest(kind, op.providerKey(), paymentOf(op).pspReference(),
                new Money(op.amount(), op.currency()), op.finalCapture());
    }

    /** The PSP of the payment's merchant, which holds the charge the operation acts on. */
    private PaymentProvider pspOf(PaymentOperation op) {
        return psps.forMerchant(paymentOf(op).merchant());
    }

    PaymentOperation operation(UUID id) {
        return operations.find(id).orElseThrow(() -> new IllegalStateException("key points at missing operation " + id));
    }

    Payment paymentOf(PaymentOperation op) {
        return payments.find(op.payment()).orElseThrow();
    }
}
