package dev.kopek.simulation;

/**
 * One step of a simulation run. Steps name payments by slot (the n-th payment this run created, modulo how many
 * exist), never by id, so that a log with steps removed still replays: that is what lets a failure shrink.
 */
sealed interface Op {

    /**
     * A new payment for a new reference; {@code crash}: the process dies after the PSP answered;
     * {@code webhookDuringCall}: the PSP's notification of the charge reaches Kopek while the request still runs.
     */
    record Create(
            int merchant,
            long amount,
            String method,
            boolean manual,
            boolean crash,
            boolean viaSecond,
            boolean webhookDuringCall)
            implements Op {}

    /** The client repeats the slot's payment request with the same key and body. */
    record RetryCreate(int slot, boolean viaSecond) implements Op {}

    /** A new key for the same reference (an intent has at most one live or paid attempt). */
    record NewKeySameReference(int slot, String method) implements Op {}

    /** Capture {@code percent} of the authorization (0: no amount, all that remains); optionally with a fault armed. */
    record Capture(int slot, int percent, boolean finalCapture, String fault, boolean crash) implements Op {}

    record Void(int slot, String fault, boolean crash) implements Op {}

    /** Refund {@code percent} of what is captured (over 100: an oversized refund). */
    record Refund(int slot, int percent, String fault, boolean crash) implements Op {}

    /** {@code count} requests of one kind released together; each with its own key unless {@code sameKey}. */
    record Burst(int slot, String kind, int count, int percent, boolean sameKey) implements Op {}

    /** The client repeats the slot's last capture, void or refund request with the same key. */
    record RetryLast(int slot, boolean viaSecond) implements Op {}

    /**
     * The cardholder disputes at the PSP ({@code percent} 0: the PSP's default amount, what is not refunded; 100: the
     * whole charge, refunded or not), maybe decided at once.
     */
    record Dispute(int slot, int percent, String then) implements Op {}

    record ResolveDispute(int slot, boolean won) implements Op {}

    /** Forward the PSP's pending webhooks to Kopek: in order, reversed, shuffled, each twice, or held back. */
    record Deliver(String mode) implements Op {}

    /** One pass of Kopek's background workers (reconciler, notification retries). */
    record Reconcile() implements Op {}

    /** Both clocks jump: past the lease and grace, the PSP key window, or the authorization's expiry. */
    record Jump(String past) implements Op {}

    /** Another merchant tries to read and touch the slot's payment. */
    record Probe(int slot) implements Op {}

    /** Notifications about objects Kopek never had, signed correctly, that can never be applied. */
    record Poison(int count) implements Op {}

    /**
     * Issue 24, defect 1: the clocks jump past the lease and grace, then the PSP's pending webhooks are forwarded one by
     * one, each held between its take-over of a key and its phase 3 while a reconciler pass runs.
     */
    record NotifyRacingReconciler() implements Op {}

    /** Issue 24, defect 9: a person decides every open review while the PSP's pending webhooks arrive, all at once. */
    record DecideRacingNotifications() implements Op {}
}
