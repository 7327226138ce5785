package dev.kopek.payments.domain;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import java.time.Instant;
import java.util.UUID;

/**
 * A capture, void or refund of a payment, as stored. {@code version} is its event sequence: it changes only with
 * the status. {@code reason} is a refund's reason as the merchant gave it; {@code finalCapture} only means
 * something for a capture.
 */
public record PaymentOperation(
        UUID id,
        PaymentId payment,
        MerchantId merchant,
        OperationKind kind,
        long amount,
        CurrencyCode currency,
        boolean finalCapture,
        String reason,
        OperationStatus status,
        int version,
        String providerKey,
        String pspReference,
        String failureReason,
        Instant createdAt,
        Instant updatedAt) {

    public Money money() {
        return new Money(amount, currency);
    }

    /**
     * This operation after a move to {@code next}, as phase 3 writes it: refused when the table of
     * {@link OperationStatus} does not allow it; the version (the event sequence) moves only with the status; a
     * success clears the reason an earlier try failed.
     */
    public PaymentOperation moveTo(OperationStatus next, String newPspReference, String reason) {
        if (!status.canMoveTo(next)) {
            throw new IllegalTransition(id, status, next);
        }
        return new PaymentOperation(
                id,
                payment,
                merchant,
                kind,
                amount,
                currency,
                finalCapture,
                this.reason,
                next,
                next == status ? version : version + 1,
                providerKey,
                newPspReference != null ? newPspReference : pspReference,
                next == OperationStatus.SUCCEEDED ? null : reason,
                createdAt,
                updatedAt);
    }

    /** The event type of this operation's current state: {@code capture.succeeded}, {@code refund.unknown}, … */
    public String eventType() {
        return kind.apiName() + "." + status.apiName();
    }
}
