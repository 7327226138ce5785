package dev.kopek.payments;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import java.util.UUID;

/**
 * Published inside the settling transaction when an unknown outcome can no longer be resolved by machine
 * (the PSP's key window has closed): a person must decide, and nothing may be sent again (L6).
 *
 * @param subject what is unknown: {@code payment}, {@code capture}, {@code void} or {@code refund}
 * @param subjectId its id (the payment's own id for {@code payment})
 */
public record ManualReviewRequired(PaymentId payment, MerchantId merchant, String reason, String subject,
        UUID subjectId) {

    public ManualReviewRequired(PaymentId payment, MerchantId merchant, String reason) {
        this(payment, merchant, reason, "payment", payment.value());
    }
}
