package dev.kopek.payments.domain;

import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import java.time.Instant;

/** One payment attempt as stored. {@code metadataJson} is the stored JSON object, or null. */
public record Payment(PaymentId id, MerchantId merchant, String reference, String idempotencyKey, String providerKey,
        Money amount, long amountCaptured, String paymentMethod, String captureMethod, String description,
        String metadataJson, PaymentStatus status, int version, String pspReference, String declineCode,
        String failureReason, Instant createdAt, Instant updatedAt) {

    public Payment {
        if (amountCaptured < 0 || amountCaptured > amount.minor()) {
            throw new IllegalStateException("captured amount outside 0.." + amount.minor() + " on " + id);
        }
        if ((status == PaymentStatus.CAPTURED) != (amountCaptured > 0)) {
            throw new IllegalStateException("status " + status + " disagrees with captured " + amountCaptured);
        }
    }
}
