package dev.kopek.psp;

/** A status lookup by provider key. */
public sealed interface LookupResult {

    /** The PSP has a finished operation under the key. */
    record Found(ChargeOutcome outcome) implements LookupResult {}

    /** The PSP has nothing under the key (inside its window this means it never charged). */
    record NotFound() implements LookupResult {}

    /** The lookup itself did not give an answer (timeout, 5xx, still in progress). */
    record Inconclusive(String reason) implements LookupResult {}
}
