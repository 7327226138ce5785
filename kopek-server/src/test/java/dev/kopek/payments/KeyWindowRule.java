package dev.kopek.payments;

import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspRequest;
import java.time.Clock;
import java.time.Instant;

/**
 * The pipeline's resume decision (KeyWindow and LookupDecision, as AttemptRunner.resume runs them) for one adapter,
 * so the contract kit can hold any adapter to the key-window rule (L6) without a running Kopek.
 */
public final class KeyWindowRule {

    private KeyWindowRule() {}

    /** What a new owner records: the outcome, and why a person must decide (null when nobody must). */
    public record Decision(ChargeOutcome outcome, String reviewReason) {}

    /** Resumes an unknown charge first sent at {@code firstSentAt}, as the reconciler would at the clock's now. */
    public static Decision resume(
            PaymentProvider psp,
            PspProperties limits,
            Clock clock,
            Instant firstSentAt,
            PspRequest request,
            java.util.function.Supplier<ChargeOutcome> sendOnce) {
        boolean open = new KeyWindow(limits, clock).isOpen(psp, firstSentAt);
        LookupDecision decision = LookupDecision.after(psp.lookup(request), open, true, 2, sendOnce);
        return new Decision(decision.outcome(), decision.reviewReason());
    }
}
