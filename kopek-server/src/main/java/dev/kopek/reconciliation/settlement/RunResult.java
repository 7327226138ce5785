package dev.kopek.reconciliation.settlement;

import java.time.LocalDate;
import java.util.List;

/** The outcome of a settlement run: expected refusals are values, not exceptions. */
public sealed interface RunResult {

    /**
     * Every pass of Kopek's configured PSP account ran, oldest date first: the re-checks, then the requested date;
     * then each merchant's own PSP account, the same way ({@code accounts}).
     */
    record Completed(LocalDate date, List<PassSummary> passes, List<AccountRun> accounts) implements RunResult {
        public Completed {
            passes = List.copyOf(passes);
            accounts = List.copyOf(accounts);
        }
    }

    /**
     * One merchant's own PSP account in the run ({@code provider} is {@code <psp>:<merchant id>}): its passes, or,
     * when its file could not be fetched or stored, why ({@code unavailable}; nothing of that account was matched).
     * One account's failure does not stop the others or Kopek's own.
     */
    record AccountRun(String provider, List<PassSummary> passes, String unavailable) {
        public AccountRun {
            passes = List.copyOf(passes);
        }
    }

    /** The date has not ended yet (UTC, on Kopek's clock): its file would be partial. */
    record DateNotClosed(LocalDate date, LocalDate latestClosed) implements RunResult {}

    /**
     * A file could not be fetched, read or stored; nothing was matched. Files loaded before the failure stay loaded:
     * loading is idempotent, so the next run simply finds them.
     */
    record FileUnavailable(LocalDate date, String reason) implements RunResult {}
}
