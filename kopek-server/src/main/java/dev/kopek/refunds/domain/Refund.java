package dev.kopek.refunds.domain;

import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.RefundId;
import java.time.Instant;

/** A refund as stored; {@code attempt} is the fencing token of whoever executes it against the PSP. */
public record Refund(RefundId id, PaymentId payment, MerchantId merchant, Money amount, String reason,
        RefundStatus status, int version, int attempt, Instant leaseUntil, String providerKey, String pspReference,
        String failureReason, Instant createdAt, Instant updatedAt) {

    public Refund {
        if (!amount.isPositive()) {
            throw new IllegalStateException("refund " + id + " for a non-positive amount");
        }
    }
}
