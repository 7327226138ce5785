package dev.kopek.payments.domain;

import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import java.time.Instant;

/**
 * One payment attempt as stored, with its amounts in minor units. The arithmetic invariants of L7 are asserted
 * again on every read, beside the CHECK constraints that enforce them on every write.
 */
public record Payment(
        PaymentId id,
        MerchantId merchant,
        String reference,
        String idempotencyKey,
        String providerKey,
        Money amount,
        Amounts amounts,
        String paymentMethod,
        String captureMethod,
        String description,
        String metadataJson,
        PaymentStatus status,
        int version,
        String pspReference,
        String declineCode,
        String failureReason,
        Instant captureBefore,
        boolean captureFinalized,
        Instant createdAt,
        Instant updatedAt,
        String nextActionJson,
        String pspAccount) {

    /** What happened to the money so far. */
    public record Amounts(
            long authorized,
            long captured,
            long capturePending,
            long released,
            long refunded,
            long refundPending,
            long disputed) {

        public Amounts {
            if (authorized < 0
                    || captured < 0
                    || capturePending < 0
                    || released < 0
                    || refunded < 0
                    || refundPending < 0
                    || disputed < 0) {
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

        /** Never negative: a chargeback overlapping refunds leaves nothing to refund, not a debt. */
        public long refundable() {
            return Math.max(0, captured - refunded - refundPending - disputed);
        }

        /**
         * Money the merchant lost twice: refunded and charged back as well. The PSP reports both as facts, so
         * Kopek records them and a person takes the overlap up with the PSP (docs/ledger.md).
         */
        public long overlap() {
            return Math.max(0, Math.addExact(disputed, refunded) - captured);
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

    /**
     * This payment in status {@code next}: refused unless the table of {@link PaymentStatus} allows it. Staying
     * where it is changes nothing; a move is one more version (one more event).
     */
    public Payment moveTo(PaymentStatus next) {
        if (next == status) {
            return this;
        }
        if (!status.canMoveTo(next)) {
            throw new IllegalTransition(id, status, next);
        }
        return with(next, version + 1, updatedAt);
    }

    /**
     * This payment after a change written at {@code at} to a row this transaction holds: in status {@code next}
     * (refused unless the table of {@link PaymentStatus} allows it) and one more version, a status change or not:
     * every such change is announced by an event of its own.
     */
    public Payment changed(PaymentStatus next, Instant at) {
        moveTo(next); // refuses a move the table does not allow
        return with(next, version + 1, at);
    }

    private Payment with(PaymentStatus newStatus, int newVersion, Instant newUpdatedAt) {
        return new Payment(
                id,
                merchant,
                reference,
                idempotencyKey,
                providerKey,
                amount,
                amounts,
                paymentMethod,
                captureMethod,
                description,
                metadataJson,
                newStatus,
                newVersion,
                pspReference,
                declineCode,
                failureReason,
                captureBefore,
                captureFinalized,
                createdAt,
                newUpdatedAt,
                nextActionJson,
                pspAccount);
    }

    /**
     * Whether the PSP waits for the customer (3-D Secure): still unknown to Kopek, live, and shown to the merchant as
     * {@code requires_action} with what the customer must do.
     */
    public boolean requiresAction() {
        return status == PaymentStatus.UNKNOWN && nextActionJson != null;
    }

    /** The status this payment's amounts call for after captures and refunds moved them. */
    public PaymentStatus paidStatus() {
        if (amounts.captured() == 0 || status == PaymentStatus.DISPUTED || status == PaymentStatus.CHARGED_BACK) {
            return status;
        }
        return amountsStatus();
    }

    /**
     * A dispute opened: a paid payment is DISPUTED while any dispute is open, whatever was refunded. A charged-back
     * payment stays final, and a payment that never captured keeps its status (the review item explains it).
     */
    public PaymentStatus statusAfterDisputeOpened() {
        return switch (status) {
            case CAPTURED, PARTIALLY_REFUNDED, REFUNDED, DISPUTED -> PaymentStatus.DISPUTED;
            case PENDING, UNKNOWN, AUTHORIZED, CHARGED_BACK, DECLINED, FAILED, VOIDED, EXPIRED -> status;
        };
    }

    /**
     * A dispute closed: still DISPUTED while another is open; CHARGED_BACK once all are closed and one was lost;
     * otherwise what the amounts say. Only a DISPUTED payment moves.
     */
    public PaymentStatus statusAfterDisputeClosed(boolean othersOpen, boolean anyLost) {
        if (status != PaymentStatus.DISPUTED || othersOpen) {
            return status;
        }
        return anyLost ? PaymentStatus.CHARGED_BACK : amountsStatus();
    }

    private PaymentStatus amountsStatus() {
        if (amounts.refunded() == amounts.captured()
                && amounts.refundPending() == 0
                && amounts.capturable() == 0
                && amounts.capturePending() == 0) {
            return PaymentStatus.REFUNDED;
        }
        return amounts.refunded() > 0 ? PaymentStatus.PARTIALLY_REFUNDED : PaymentStatus.CAPTURED;
    }

    public boolean isManualCapture() {
        return "manual".equals(captureMethod);
    }
}
