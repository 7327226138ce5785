package dev.kopek.refunds;

import dev.kopek.idempotency.Claim;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.money.RefundId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.NotificationResult;
import dev.kopek.payments.OperationRunner;
import dev.kopek.payments.PaymentOperations;
import dev.kopek.payments.PaymentService;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.psp.ChargeOutcome;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Accepts refunds. One short transaction claims the client's key, reserves the amount and inserts the PENDING
 * refund ({@link PaymentOperations#reserveRefund}), and stores the 202 answer; the refund then runs like every
 * capture and void ({@link OperationRunner}), fenced by its own key, started at once on a virtual thread or, if
 * that is lost, by the reconciler.
 */
@Service
public class Refunds {

    public static final String OPERATION = "refund.create";

    private final IdempotencyKeys keys;
    private final PaymentService payments;
    private final PaymentOperations operations;
    private final OperationRunner runner;
    private final RefundEvents events;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final boolean dispatch;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    Refunds(
            IdempotencyKeys keys,
            PaymentService payments,
            PaymentOperations operations,
            OperationRunner runner,
            RefundEvents events,
            TransactionTemplate tx,
            Clock clock,
            @Value("${kopek.refunds.dispatch:true}") boolean dispatch) {
        this.keys = keys;
        this.payments = payments;
        this.operations = operations;
        this.runner = runner;
        this.events = events;
        this.tx = tx;
        this.clock = clock;
        this.dispatch = dispatch;
    }

    public RefundAnswer create(MerchantId merchant, PaymentId paymentId, String key, long amount, String reason) {
        ClientKey ck = new ClientKey(merchant, OPERATION, key);
        UUID id = TimeOrderedIds.next(clock);
        String fingerprint = Fingerprint.of(paymentId.toString(), Long.toString(amount), reason);
        Accepting accepting = tx.execute(status -> {
            Claim claim = keys.claim(ck, fingerprint, id);
            return switch (claim) {
                case Claim.Owned owned when !owned.reclaimed() -> accept(ck, id, paymentId, amount, reason, status);
                case Claim.Owned owned -> throw new IllegalStateException("refund keys complete in phase one: " + ck);
                case Claim.Replay replay -> new Accepting(new RefundAnswer.Accepted(replay.body(), true), null);
                case Claim.InFlight inFlight -> new Accepting(new RefundAnswer.InFlight(inFlight.retryAfter()), null);
                case Claim.Awaiting awaiting -> throw new IllegalStateException("refund key awaiting: " + ck);
                case Claim.Mismatch mismatch -> new Accepting(new RefundAnswer.KeyReused(), null);
            };
        });
        if (accepting.refund() != null && dispatch) {
            ClientKey run = PaymentOperations.runKey(accepting.refund());
            threads.submit(() -> runner.recover(run));
        }
        return accepting.answer();
    }

    /** The answer of phase 1, and the refund it accepted (to start at once). */
    private record Accepting(RefundAnswer answer, PaymentOperation refund) {}

    private Accepting accept(
            ClientKey ck, UUID id, PaymentId paymentId, long amount, String reason, TransactionStatus status) {
        Optional<Payment> payment = payments.find(ck.merchant(), paymentId);
        if (payment.isEmpty()) {
            status.setRollbackOnly();
            return new Accepting(
                    new RefundAnswer.Refused(404, "not_found", "payment " + paymentId + " not found"), null);
        }
        Optional<PaymentOperation> refund = operations.reserveRefund(ck, payment.get(), id, amount, reason);
        if (refund.isEmpty()) {
            status.setRollbackOnly();
            return new Accepting(refusal(payment.get(), amount), null);
        }
        events.announce(refund.get());
        String body = RefundJson.render(refund.get());
        if (!keys.complete(ck, 1, 202, body)) {
            throw new IllegalStateException("lost a key claimed in this transaction: " + ck);
        }
        return new Accepting(new RefundAnswer.Accepted(body, false), refund.get());
    }

    private static RefundAnswer.Refused refusal(Payment payment, long amount) {
        if (!payment.status().isPaid()) {
            return new RefundAnswer.Refused(
                    409,
                    "payment_not_captured",
                    "Only captured money can be refunded; this "
                            + "payment is " + payment.status().apiName()
                            + (payment.isManualCapture() ? ". Void an uncaptured authorization instead." : "."));
        }
        return new RefundAnswer.Refused(
                409,
                "amount_exceeds_refundable",
                "At most " + payment.amounts().refundable() + " can still be refunded; " + amount + " was asked.");
    }

    /**
     * An outcome learned outside the run (a PSP notification, a test's late duplicate), through the runner's
     * fenced phase 3. Returns whether it changed the refund.
     */
    public boolean recordOutcome(RefundId id, ChargeOutcome outcome) {
        return operations
                .find(id.value())
                .filter(op -> op.kind() == OperationKind.REFUND)
                .map(op -> runner.apply(op, outcome) == NotificationResult.APPLIED)
                .orElse(false);
    }

    public Optional<PaymentOperation> find(MerchantId merchant, RefundId id) {
        return operations.find(merchant, OperationKind.REFUND, id.value());
    }

    public List<PaymentOperation> forPayment(MerchantId merchant, PaymentId payment) {
        return operations.forPayment(merchant, payment, OperationKind.REFUND);
    }
}
