package dev.kopek.ledger;

import java.util.List;
import java.util.UUID;

/** The result of one drift check: every account whose projected balance differs from the sum of its entries. */
public record DriftReport(long accountsChecked, List<AccountDrift> drifts) {

    public DriftReport {
        drifts = List.copyOf(drifts);
    }

    /** @param merchant {@code null} for a platform account */
    public record AccountDrift(
            long accountId,
            UUID merchant,
            String type,
            String currency,
            long projectedDebitsMinor,
            long projectedCreditsMinor,
            long entryDebitsMinor,
            long entryCreditsMinor) {}

    public boolean clean() {
        return drifts.isEmpty();
    }
}
