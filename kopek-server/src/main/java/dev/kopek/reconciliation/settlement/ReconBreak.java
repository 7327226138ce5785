package dev.kopek.reconciliation.settlement;

import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * One break as stored: the PSP's side, Kopek's side (either may be absent), and its history.
 *
 * @param movement the PSP row's type, or Kopek's type when the PSP has no row
 * @param internalKind payment, capture, void or refund; null when Kopek has nothing under the reference
 */
public record ReconBreak(
        UUID id,
        String provider,
        LocalDate settlementDate,
        BreakType type,
        BreakStatus status,
        String pspReference,
        String movement,
        String pspType,
        Long pspAmount,
        String pspCurrency,
        String internalKind,
        UUID internalId,
        UUID paymentId,
        UUID merchantId,
        String internalType,
        String internalStatus,
        Long internalAmount,
        String internalCurrency,
        int seenCount,
        Instant createdAt,
        Instant updatedAt,
        Instant reportedAt,
        Instant closedAt,
        String resolution) {}
