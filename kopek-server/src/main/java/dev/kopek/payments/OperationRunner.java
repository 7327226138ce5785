package dev.kopek.payments;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.OperationStore;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.NotificationSource;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PaymentProviders;
import dev.kopek.psp.PspRequest;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.stereotype.Service;

/**
 * The one runner of captures, voids and refunds after phase 1 reserved their amount (docs/pipeline.md): each is an
 * {@link Attempt} of the one {@link AttemptRunner} that also runs payments, ending in the fenced phase 3 of
 * {@link OutcomeRecorder}, owned through the attempt of the operation's key. What differs among the three kinds
 * is an {@link OperationStrategy}.
 */
@Service
public class OperationRunner {

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final OperationStore operations;
    private final PhaseThreeBatches recorder;
    private final PaymentProviders psps;
    private final AttemptRunner runner;
    private final Clock clock;

    OperationRunner(
            IdempotencyKeys keys,
            PaymentStore payments,
            OperationStore operations,
            PhaseThreeBatches recorder,
            PaymentProviders psps,
            AttemptRunner runner,
            Clock clock) {
        this.keys = keys;
        this.payments = payments;
        this.operations = operations;
        this.recorder = recorder;
        this.psps = psps;
        this.runner = runner;
        this.clock = clock;
    }

    /** The attempt of the operation a key names ({@link AttemptRunner#afterClaim}). */
    Attempt attemptOf(UUID operationId) {
        return attempt(operation(operationId));
    }

    /** Phase 2 of the owner of attempt 1: the first PSP call, nothing held (L3), then phase 3. */
    PaymentAnswer start(PaymentOperation op, ClientKey ck, int attempt) {
        return runner.start(attempt(op), ck, attempt);
    }

    /** A later attempt asks the PSP by key before anything else (L5, L6). */
    PaymentAnswer resume(ClientKey ck, int attempt, PaymentOperation op) {
        return runner.resume(attempt(op), ck, attempt);
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

    /**
     * Runs a refund that phase 1 just accepted, under the key it opened for nobody, if no one else has taken it:
     * the take-over is the first statement, the PSP call the second step (no read of the key or the refund).
     */
    Optional<PaymentAnswer> dispatch(PaymentOperation accepted) {
        KeyRecord opened = keys.opened(runKey(accepted), accepted.id());
        return keys.takeOver(opened, clock.instant()).map(attempt -> start(accepted, opened.clientKey(), attempt));
    }

    /**
     * The key a refund's run is fenced by: its own, named by its id, because its client's key was completed with the
     * 202 in phase 1 (a replay answers that 202 byte for byte) and a completed key fences nothing.
     */
    static ClientKey runKey(PaymentOperation op) {
        return new ClientKey(op.merchant(), op.kind().keySpace(), op.id().toString());
    }

    /**
     * Applies a PSP notification about a capture, void or refund through the fenced phase 3; one from an account that
     * does not hold the payment changes nothing (L11).
     */
    public NotificationResult applyNotification(NotificationSource source, String providerKey, ChargeOutcome outcome) {
        return operations
                .findByProviderKey(providerKey)
                .map(op -> speaksFor(source, op) ? apply(op, outcome) : NotificationResult.FOREIGN)
                .orElse(NotificationResult.UNMATCHED);
    }

    /**
     * An outcome learned outside the call: a final operation changes nothing (agreeing or conflicting), nor does a
     * notification without an outcome; a live owner is never displaced (try again later, L4).
     */
    public NotificationResult apply(PaymentOperation op, ChargeOutcome outcome) {
        if (op.status().isFinal()) {
            boolean agrees = (op.status() == OperationStatus.SUCCEEDED) == (outcome instanceof ChargeOutcome.Succeeded);
            return agrees ? NotificationResult.IGNORED : NotificationResult.CONFLICT;
        }
        if (outcome instanceof ChargeOutcome.Unknown) {
            return NotificationResult.IGNORED;
        }
        return runner.applyUnlessOwned(
                attempt(op), keys.findUnfinishedByResource(op.kind().keySpace(), op.id()), outcome);
    }

    /** A person's decision on an operation parked for review, through the same fenced phase 3. */
    public Optional<PaymentAnswer> resolveManually(UUID operationId, ChargeOutcome decided) {
        PaymentOperation op = operation(operationId);
        return runner.decide(
                attempt(op), keys.findUnfinishedByResource(op.kind().keySpace(), op.id()), decided);
    }

    /** A capture, void or refund as the runner drives it: its PSP call, its lookup, its phase 3. */
    private Attempt attempt(PaymentOperation op) {
        Supplier<Payment> payment = Attempt.once(() -> paymentOf(op));
        // The account the payment went through holds the charge the operation acts on.
        Supplier<PaymentProvider> psp = Attempt.once(
                () -> psps.forPayment(payment.get().merchant(), payment.get().pspAccount()));
        Supplier<PspRequest> request = Attempt.once(() -> requestOf(op, payment.get()));
        return new Attempt() {
            @Override
            public PaymentId payment() {
                return op.payment();
            }

            @Override
            public PaymentProvider psp() {
                return psp.get();
            }

            @Override
            public Instant firstSentAt() {
                return op.createdAt();
            }

            @Override
            public ChargeOutcome send() {
                return psp.get().execute(request.get());
            }

            @Override
            public ChargeOutcome sendOnce() {
                return psp.get().executeOnce(request.get());
            }

            @Override
            public LookupResult lookup() {
                return psp.get().lookup(request.get());
            }

            @Override
            public PaymentAnswer record(ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
                // with concurrent operations' final outcomes in one transaction when they queue (PhaseThreeBatches)
                return recorder.record(op, ck, attempt, outcome, reviewReason);
            }

            @Override
            public Payment current() {
                return paymentOf(op);
            }
        };
    }

    private static PspRequest requestOf(PaymentOperation op, Payment payment) {
        Money amount = new Money(op.amount(), op.currency());
        return switch (op.kind()) {
            case CAPTURE -> new PspRequest.Capture(op.providerKey(), payment.pspReference(), amount, op.finalCapture());
            case VOID -> new PspRequest.Release(op.providerKey(), payment.pspReference(), amount);
            case REFUND -> new PspRequest.Refund(op.providerKey(), payment.pspReference(), amount);
        };
    }

    private boolean speaksFor(NotificationSource source, PaymentOperation op) {
        Payment payment = paymentOf(op);
        return psps.speaksFor(source, payment.merchant(), payment.pspAccount());
    }

    private PaymentOperation operation(UUID id) {
        return operations
                .find(id)
                .orElseThrow(() -> new IllegalStateException("key points at missing operation " + id));
    }

    private Payment paymentOf(PaymentOperation op) {
        return payments.find(op.payment()).orElseThrow();
    }
}
