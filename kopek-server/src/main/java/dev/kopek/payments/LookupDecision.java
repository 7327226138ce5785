package dev.kopek.payments;

import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import java.util.function.Supplier;

/**
 * What a new owner of an abandoned or unknown attempt records after asking the PSP by key, the same for every kind
 * (docs/pipeline.md, rule 4). Found: what the PSP holds. Nothing found inside the key window: send once more while
 * tries remain, else failed (the PSP's own record proves nothing happened). Inconclusive: unknown, asked again later
 * inside the window. Past the window, nothing found or inconclusive: unknown, for a person, never sent again (L6).
 */
record LookupDecision(ChargeOutcome outcome, String reviewReason) {

    static LookupDecision after(
            LookupResult found, boolean windowOpen, boolean maySend, int attempt, Supplier<ChargeOutcome> sendOnce) {
        return switch (found) {
            case LookupResult.Found f -> new LookupDecision(f.outcome(), null);
            // A lookup that cannot tell (Stripe's search lags, the PSP did not answer) past the window: nothing can be
            // sent again and asking again may never tell, so a person decides, as when nothing is found.
            case LookupResult.Inconclusive i ->
                new LookupDecision(new ChargeOutcome.Unknown(i.reason()), windowOpen ? null : KeyWindow.CLOSED_REASON);
            case LookupResult.NotFound n ->
                !windowOpen
                        ? new LookupDecision(
                                new ChargeOutcome.Unknown("the PSP has no record and its key window has closed"),
                                KeyWindow.CLOSED_REASON)
                        : new LookupDecision(
                                maySend
                                        ? sendOnce.get()
                                        : new ChargeOutcome.Failed(KeyWindow.nothingAfterTries(attempt - 1)),
                                null);
        };
    }
}
