package dev.kopek.reconciliation.settlement;

import java.time.LocalDate;
import java.util.UUID;

/**
 * What one matching pass of one date did.
 *
 * @param recheck whether this pass re-checked an earlier day (the second look of the two-sighting rule)
 * @param seen differences this pass saw, new or not
 * @param newCandidates differences seen for the first time
 * @param reported candidates promoted to reported by this pass (seen on two consecutive passes)
 * @param cleared candidates this pass no longer saw, closed without ever being reported
 * @param resolved reported breaks this pass no longer saw, and breaks whose cause it fixed (an unknown attempt settled)
 */
public record PassSummary(
        UUID runId,
        LocalDate date,
        boolean recheck,
        LoadedFile file,
        int seen,
        int newCandidates,
        int reported,
        int cleared,
        int resolved) {

    PassSummary withResolved(int more) {
        return new PassSummary(runId, date, recheck, file, seen, newCandidates, reported, cleared, resolved + more);
    }
}
