package dev.kopek.client;

import java.time.Instant;

/** A refund: {@code pending} until the PSP answers, then {@code succeeded} or {@code failed}. */
public record Refund(
        String id,
        String paymentId,
        String status,
        long amount,
        String currency,
        String reason,
        String pspReference,
        String failureReason,
        Instant createdAt,
        Instant updatedAt) {

    public boolean isPending() {
        return "pending".equals(status) || "unknown".equals(status);
    }
}
