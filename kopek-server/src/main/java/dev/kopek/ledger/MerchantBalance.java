package dev.kopek.ledger;

/**
 * A merchant's balance in one currency, in minor units (docs/ledger.md).
 *
 * @param availableMinor owed to the merchant now: captured, less fees, refunds and chargebacks (may be negative)
 * @param pendingMinor authorized on customers' cards and not yet captured (before fees)
 * @param heldMinor refunds accepted and already taken from available, waiting for the PSP's answer
 */
public record MerchantBalance(String currency, long availableMinor, long pendingMinor, long heldMinor) {}
