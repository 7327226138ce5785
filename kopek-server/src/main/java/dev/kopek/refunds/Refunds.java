package dev.kopek.refunds;

import dev.kopek.idempotency.Claim;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.RefundId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.PaymentBalances;
import dev.kopek.payments.PaymentService;
import dev.kopek.payments.domain.Payment;
import dev.kopek.refunds.domain.Refund;
import dev.kopek.refunds.jdbc.RefundStore;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Accepts refunds. One short transaction claims the key, reserves the amount on the payment with one
 * conditional UPDATE, inserts the PENDING refund and stores the 202 answer; the PSP is called afterwards by
 * {@link RefundExecutor}, outside any transaction.
 */
@Service
public class Refunds {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Refunds.class);

    public static final String OPERATION = "refund.create";

    private final IdempotencyKeys keys;
    private final RefundStore refunds;
    private final PaymentBalances balances;
    private final PaymentService payments;
    private final RefundExecutor executor;
    private final RefundEvents events;
    private final TransactionTemplate tx;
    private final Clock clock;

    Refunds(IdempotencyKeys keys, RefundStore refunds, PaymentBalances balances, PaymentService payments,
            RefundExecutor executor, RefundEvents events, TransactionTemplate tx, Clock clock) {
        this.keys = keys;
        this.refunds = refunds;
        this.balances = balances;
        this.payments = payments;
        this.executor = executor;
        this.events = events;
        this.tx = tx;
        this.clock = clock;
    }

    public RefundAnswer create(MerchantId merchant, PaymentId paymentId, String key, long amount, String reason) {
        ClientKey ck = new ClientKey(merchant, OPERATION, key);
        RefundId id = new RefundId(TimeOrderedIds.next(clock));
        String fingerprint = Fingerprint.of(paymentId.toString(), Long.toString(amount), reason);
        RefundAnswer answer = tx.execute(status -> {
            Claim claim = keys.claim(ck, fingerprint, id.value());
            return switch (claim) {
                case Claim.Owned owned when !owned.reclaimed() -> accept(ck, id, paymentId, amount, reason, status);
                case Claim.Owned owned -> throw new IllegalStateException("refund keys complete in phase one: " + ck);
                case Claim.Replay replay -> new RefundAnswer.Accepted(replay.body(), true);
                case Claim.InFlight inFlight -> new RefundAnswer.InFlight(inFlight.retryAfter());
                case Claim.Awaiting awaiting -> throw new IllegalStateException("refund key awaiting: " + ck);
                case Claim.Mismatch mismatch -> new RefundAnswer.KeyReused();
            };
        });
        if (answer instanceof RefundAnswer.Accepted accepted && !accepted.replayed()) {
            executor.dispatch(id);
        }
        return answer;
    }

    private RefundAnswer accept(ClientKey ck, RefundId id, PaymentId paymentId, long amount, String reason,
            org.springframework.transaction.TransactionStatus status) {
        Optional<Payment> payment = payments.find(ck.merchant(), paymentId);
        if (payment.isEmpty()) {
            status.setRollbackOnly();
            return new RefundAnswer.Refused(404, "not_found", "payment " + paymentId + " not found");
        }
        if (balances.reserveRefund(ck.merchant(), paymentId, id.value(), amount).isEmpty()) {
            status.setRollbackOnly();
            return refusal(payment.get(), amount);
        }
        Refund refund = refunds.insert(id, paymentId, ck.merchant(), new Money(amount, payment.get().amount().currency()),
                reason, ck.providerKey(id.value()));
        events.announce(refund);
        String body = RefundJson.render(refund);
        if (!keys.complete(ck, 1, 202, body)) {
            throw new IllegalStateException("lost a key claimed in this transaction: " + ck);
        }
        return new RefundAnswer.Accepted(body, false);
    }

    private static RefundAnswer.Refused refusal(Payment payment, long amount) {
        if (!payment.status().isPaid()) {
            return new RefundAnswer.Refused(409, "payment_not_captured", "Only captured money can be refunded; this "
                    + "payment is " + payment.status().apiName() + (payment.isManualCapture()
                            ? ". Void an uncaptured authorization instead." : "."));
        }
        return new RefundAnswer.Refused(409, "amount_exceeds_refundable", "At most "
                + payment.amounts().refundable() + " can still be refunded; " + amount + " was asked.");
    }

    /**
     * An outcome learned outside the executor (a PSP notification): guarded only by the refund's status, so a
     * duplicate changes nothing. Returns whether it changed the refund.
     */
    public boolean recordOutcome(RefundId id, dev.kopek.psp.ChargeOutcome outcome) {
        return executor.record(id, null, outcome, null);
    }

    /** Applies a PSP notification about a refund; the refund's status guard makes a duplicate change nothing. */
    public dev.kopek.payments.NotificationResult applyNotification(String providerKey,
            dev.kopek.psp.ChargeOutcome outcome) {
        Optional<Refund> refund = refunds.findByProviderKey(providerKey);
        if (refund.isEmpty()) {
            return dev.kopek.payments.NotificationResult.UNMATCHED;
        }
        if (recordOutcome(refund.get().id(), outcome)) {
            return dev.kopek.payments.NotificationResult.APPLIED;
        }
        boolean succeeded = refunds.find(refund.get().id()).orElseThrow().status()
                == dev.kopek.refunds.domain.RefundStatus.SUCCEEDED;
        return succeeded == (outcome instanceof dev.kopek.psp.ChargeOutcome.Succeeded)
                ? dev.kopek.payments.NotificationResult.IGNORED : dev.kopek.payments.NotificationResult.CONFLICT;
    }

    /**
     * A person's decision on a refund parked for review: it succeeded (with the PSP's reference) or certainly did
     * not. Recorded through the refund's status guard and the ledger; false when the refund is no longer open.
     */
    public boolean resolveManually(RefundId id, dev.kopek.psp.ChargeOutcome decided) {
        return recordOutcome(id, decided);
    }

    /** Executes due refunds (new ones whose dispatch was lost, abandoned and unknown ones); returns how many. */
    public int processDue(int limit) {
        int processed = 0;
        for (Refund due : refunds.findDue(limit)) {
            try {
                if (executor.execute(due)) {
                    processed++;
                }
            } catch (RuntimeException e) {
                // One refund that cannot be recorded must not stop the rest of the pass; its lease runs out and
                // the next pass retries it.
                log.error("executing refund {} failed; it stays for the next pass", due.id(), e);
            }
        }
        return processed;
    }

    public Optional<Refund> find(MerchantId merchant, RefundId id) {
        return refunds.find(merchant, id);
    }

    public List<Refund> forPayment(MerchantId merchant, PaymentId payment) {
        return refunds.findByPayment(merchant, payment);
    }
}
