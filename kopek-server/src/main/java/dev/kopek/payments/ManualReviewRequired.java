package dev.kopek.payments;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;

/**
 * Published inside the settling transaction when an unknown outcome can no longer be resolved by machine
 * (the PSP's key window has closed): a person must decide, and nothing may charge again (L6).
 */
public record ManualReviewRequired(PaymentId payment, MerchantId merchant, String reason) {
}
