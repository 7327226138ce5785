package dev.kopek.reconciliation.settlement;

import java.time.LocalDate;
import java.util.List;

/** The outcome of a settlement run: expected refusals are values, not exceptions. */
public sealed interface RunResult {

    /** Every pass ran, oldest date first: the re-checks, then the requested date. */
    record Completed(LocalDate date, List<PassSummary> passes) implements RunResult {
        public Completed {
            passes = List.copyOf(passes);
        }
    }

    /** The date has not ended yet (UTC, on Kopek's clock): its file would be partial. */
    record DateNotClosed(LocalDate date, LocalDate latestClosed) implements RunResult {
    }

    /**
     * A file could not be fetched, read or stored; nothing was matched. Files loaded before the failure stay loaded:
     * loading is idempotent, so the next run simply finds them.
     */
    record FileUnavailable(LocalDate date, String reason) implements RunResult {
    }
}
