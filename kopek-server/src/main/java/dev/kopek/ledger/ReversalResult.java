package dev.kopek.ledger;

/** What a request to reverse a journal transaction found. */
public sealed interface ReversalResult {

    record Reversed(LedgerTransaction reversal) implements ReversalResult {}

    /** It was reversed before; this is that reversal, and nothing new was posted. */
    record AlreadyReversed(LedgerTransaction reversal) implements ReversalResult {}

    record NotFound() implements ReversalResult {}
}
