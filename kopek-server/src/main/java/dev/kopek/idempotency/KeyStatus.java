package dev.kopek.idempotency;

/** A key's own life, separate from the payment's: who may act on it, and whether its answer is final. */
public enum KeyStatus {
    /** An owner holds the lease and may be talking to the PSP. */
    IN_PROGRESS,
    /** The PSP's answer was unknown; reconciliation owns it once the grace period in lease_until has passed. */
    AWAITING_RESULT,
    /** The final response is stored and every retry replays it. */
    COMPLETED
}
