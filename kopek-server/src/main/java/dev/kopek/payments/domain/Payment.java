package dev.kopek.payments.domain;

import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import java.time.Instant;

/**
 * One payment attempt as stored, with its amounts in minor units. The arithmetic invariants of L7 are asserted
 * again on every read, beside the CHECK constraints that enforce them on every write.
 */
public record Payment(PaymentId id, MerchantId merchant, String reference, String idempotencyKey, String providerKey,
        Money amount, Amounts amounts, String paymentMethod, String captureMethod, String description,
        String metadataJson, PaymentStatus status, int version, String pspReference, String declineCode,
        String failureReason, Instant captureBefore, boolean captureFinalized, Instant createdAt, Instant updatedAt) {

    /** What happened to the money so far. */
    public record Amounts(long authorized, long captured, long capturePending, long released, long refunded,
            long refundPending, long disputed) {

        public Amounts {
            if (authorized < 0 || captured < 0 || capturePending < 0 || released < 0 || refunded < 0
                    || refundPending < 0 || disputed < 0) {
                throw new IllegalStateException("negative amount in " + this);
            }
            if (Math.addExact(Math.addExact(captured, capturePending), released) > authorized) {
                throw new IllegalStateException("captured beyond authorized: " + this);
            }
            if (Math.addExact(refunded, refundPending) > captured) {
                throw new IllegalStateException("refunded beyond captured: " + this);
            }
        }

        public long capturable() {
            return authorized - captured - capturePending - released;
        }

        public long refundable() {
            return captured - refunded - refundPending - disputed;
        }
    }

    public Payment {
        if (amounts.authorized() > amount.minor()) {
            throw new IllegalStateException("authorized beyond the amount on " + id);
        }
        if (status.isPaid() && amounts.captured() == 0) {
            throw new IllegalStateException("status " + status + " without captured money on " + id);
        }
    }

    /** The status this payment's amounts call for after captures and refunds moved them. */
    public PaymentStatus paidStatus() {
        if (amounts.captured() == 0 || status == PaymentStatus.DISPUTED || status == PaymentStatus.CHARGED_BACK) {
            return status;
        }
        if (amounts.refunded() == amounts.captured() && amounts.refundPending() == 0 && amounts.capturable() == 0
                && amounts.capturePending() == 0) {
            return PaymentStatus.REFUNDED;
        }
        return amounts.refunded() > 0 ? PaymentStatus.PARTIALLY_REFUNDED : PaymentStatus.CAPTURED;
    }

    /** After a won dispute: what the amounts say, ignoring the dispute that is over. */
    public PaymentStatus statusAfterDispute() {
        return new Payment(id, merchant, reference, idempotencyKey, providerKey, amount, amounts, paymentMethod,
                captureMethod, description, metadataJson, PaymentStatus.CAPTURED, version, pspReference, declineCode,
                failureReason, captureBefore, captureFinalized, createdAt, updatedAt).paidStatus();
    }

    public boolean isManualCapture() {
        return "manual".equals(captureMethod);
    }
}
