package dev.kopek.psp;

/**
 * What a charge did, by meaning rather than by HTTP class (L5). Only {@link Succeeded} moved money;
 * {@link Declined} and {@link Failed} are certain that nothing moved; {@link Unknown} is everything else and
 * is resolved only by asking the PSP with the same key.
 */
public sealed interface ChargeOutcome {

    record Succeeded(String pspReference) implements ChargeOutcome {
    }

    record Declined(String declineCode, String pspReference) implements ChargeOutcome {
    }

    record Failed(String reason) implements ChargeOutcome {
    }

    record Unknown(String reason) implements ChargeOutcome {
    }
}
