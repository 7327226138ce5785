package dev.kopek.client;

import java.time.Instant;
import java.util.List;

/** A journal transaction of the merchant's ledger; its entries sum to zero per currency. */
public record LedgerTransaction(
        String id,
        String kind,
        String paymentId,
        long amount,
        String currency,
        String reverses,
        String reason,
        Instant occurredAt,
        Instant recordedAt,
        List<Entry> entries) {

    public record Entry(int line, String account, String owner, String side, long amount, String currency) {}
}
