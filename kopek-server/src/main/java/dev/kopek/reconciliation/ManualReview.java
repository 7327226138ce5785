package dev.kopek.reconciliation;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import java.time.Instant;
import java.util.UUID;

/** One item of the manual-review queue, and, once resolved, who decided what and when. */
public record ManualReview(
        UUID id,
        MerchantId merchant,
        PaymentId payment,
        String subject,
        UUID subjectId,
        String reason,
        String status,
        Instant createdAt,
        String resolution,
        String pspReference,
        String resolvedBy,
        String note,
        Instant resolvedAt) {}
