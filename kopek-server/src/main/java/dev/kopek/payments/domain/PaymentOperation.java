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
public record PaymentOperation(UUID id, PaymentId payment, MerchantId merchant, OperationKind kind, long amount,
        CurrencyCode currency, boolean finalCapture, String reason, OperationStatus status, int version,
        String providerKey, String pspReference, String failureReason, Instant createdAt, Instant updatedAt) {

    public Money money() {
        return new Money(amount, currency);
    }

    /** The event type of this operation's current state: {@code capture.succeeded}, {@code refund.unknown}, … */
    public String eventType() {
        return kind.apiName() + "." + status.apiName();
    }
}
