package dev.kopek.payments;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import java.util.UUID;

/**
 * Published inside phase 3's transaction when an unknown outcome can no longer be resolved by machine
 * (the PSP's key window has closed): a person must decide, and nothing may be sent again (L6).
 *
 * @param payment null only for a {@code notification}
 * @param subject what is unknown: {@code payment}, {@code capture}, {@code void} or {@code refund}; or
 *     {@code exposure} (a chargeback overlapping refunds) or {@code notification} (one that could not be applied)
 * @param subjectId its id (the payment's own id for {@code payment})
 */
public record ManualReviewRequired(
        PaymentId payment, MerchantId merchant, String reason, String subject, UUID subjectId) {

    public ManualReviewRequired(PaymentId payment, MerchantId merchant, String reason) {
        this(payment, merchant, reason, "payment", payment.value());
    }

    /** A PSP notification that could not be applied: it may name no payment or merchant Kopek knows. */
    public static ManualReviewRequired notification(UUID notificationId, String reason) {
        return new ManualReviewRequired(null, null, reason, "notification", notificationId);
    }
}
