package dev.kopek.payments;

import dev.kopek.events.MoneyMovement;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.jdbc.PaymentStore;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * The payment's side of a refund, for the refunds module: reserve against what was captured, then confirm or
 * release. Each call must run inside the caller's transaction, which also holds the refund's own guard.
 */
@Service
public class PaymentBalances {

    private final PaymentStore payments;
    private final PaymentEvents events;

    PaymentBalances(PaymentStore payments, PaymentEvents events) {
        this.payments = payments;
        this.events = events;
    }

    /** One conditional UPDATE: empty when the payment is not paid or the amount does not fit (L7). */
    public Optional<Payment> reserveRefund(MerchantId merchant, PaymentId id, UUID refundId, long amount) {
        Optional<Payment> reserved = payments.reserveRefund(merchant, id, amount);
        reserved.ifPresent(p -> events.moved(refundId, MoneyMovement.Kind.REFUND_RESERVED, p, amount));
        return reserved;
    }

    public Payment refundSucceeded(PaymentId id, UUID refundId, long amount) {
        Payment after = payments.settleStatus(payments.confirmRefund(id, amount));
        events.changed(after);
        events.moved(refundId, MoneyMovement.Kind.REFUND_SUCCEEDED, after, amount);
        return after;
    }

    /** A dispute withdrew money from a paid payment: DISPUTED, and the amount leaves the merchant. */
    public Optional<Payment> disputeOpened(PaymentId id, UUID disputeId, long amount) {
        Optional<Payment> disputed = payments.openDispute(id, amount);
        disputed.ifPresent(p -> {
            events.changed(p);
            events.moved(disputeId, MoneyMovement.Kind.CHARGEBACK_WITHDRAWN, p, amount);
        });
        return disputed;
    }

    /** The dispute ended: won returns the money and the payment's status; lost leaves it CHARGED_BACK. */
    public Optional<Payment> disputeClosed(PaymentId id, UUID disputeId, long amount, boolean won) {
        return payments.closeDispute(id, amount, won).map(closed -> {
            Payment after = won ? payments.restoreAfterDispute(closed) : closed;
            events.changed(after);
            if (won) {
                events.moved(disputeId, MoneyMovement.Kind.CHARGEBACK_REVERSED, after, amount);
            }
            return after;
        });
    }

    public Optional<Payment> findByPspReference(String pspReference) {
        return payments.findByPspReference(pspReference);
    }

    /** Gives a refused refund's reservation back. The caller's status guard makes this happen once per refund. */
    public Payment refundFailed(PaymentId id, UUID refundId, long amount) {
        Payment after = payments.releaseRefund(id, amount);
        events.moved(refundId, MoneyMovement.Kind.REFUND_RELEASED, after, amount);
        return after;
    }
}
