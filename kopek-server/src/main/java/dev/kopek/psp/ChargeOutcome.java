package dev.kopek.psp;

import java.time.Instant;

/**
 * What a PSP operation did, by meaning rather than by HTTP class (L5). {@link Succeeded} and {@link Authorized}
 * are certain that it happened; {@link Declined} and {@link Failed} are certain that nothing moved; {@link Unknown}
 * is everything else and is resolved only by asking the PSP with the same key.
 */
public sealed interface ChargeOutcome {

    /** Money moved: charged and captured, or a capture, void or refund done. */
    record Succeeded(String pspReference) implements ChargeOutcome {}

    /** Funds are held on the card until {@code captureBefore}; nothing is captured yet. */
    record Authorized(String pspReference, Instant captureBefore) implements ChargeOutcome {}

    record Declined(String declineCode, String pspReference) implements ChargeOutcome {}

    record Failed(String reason) implements ChargeOutcome {}

    /**
     * Nothing is certain yet. {@code nextAction} is set when the PSP waits for the customer (3-D Secure): not a
     * failure, the attempt stays live and the PSP's event or a lookup settles it.
     */
    record Unknown(String reason, NextAction nextAction) implements ChargeOutcome {
        public Unknown(String reason) {
            this(reason, null);
        }
    }
}
