package dev.kopek.simulator;

/** The outcome of trying to claim an idempotency key for a charge request. */
sealed interface Claim {

    /** The key was free (or expired): the caller now owns it and must finish or release it. */
    record Claimed(KeyEntry.InFlight entry) implements Claim {}

    /** Same fingerprint, already finished: answer with the stored first result. */
    record Replay(Answer.Reply result) implements Claim {}

    /** Same fingerprint, still running elsewhere. */
    record InProgress() implements Claim {}

    /** Same key, different request: the client reused a key for something else. */
    record Reused() implements Claim {}
}
