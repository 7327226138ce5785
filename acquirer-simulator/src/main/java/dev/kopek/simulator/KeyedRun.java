package dev.kopek.simulator;

/**
 * The honest idempotency contract shared by every state-changing endpoint: claim the key atomically,
 * replay or refuse duplicates, run the work of a fresh request, then store its result or release the
 * key, and finally deliver the response as the fault (if any) dictates.
 */
final class KeyedRun {
    /** The work of a fresh request; may sleep, hence InterruptedException (the server is closing). */
    @FunctionalInterface
    interface Work {
        Outcome perform() throws InterruptedException;
    }

    private KeyedRun() {}

    static Answer run(
            KeyScope scope, String key, Fingerprint request, Simulation simulation, SimulatorConfig config, Work work)
            throws InterruptedException {
        IdempotencyKeys keys = scope.keys();
        Claim claim = keys.claim(key, request, simulation.now(), config.keyWindowSeconds());
        return switch (claim) {
            case Claim.Replay replay -> replay.result();
            case Claim.InProgress ignored -> Replies.IN_PROGRESS;
            case Claim.Reused ignored -> Replies.KEY_REUSED;
            case Claim.Claimed claimed -> runClaimed(keys, key, claimed.entry(), config, work);
        };
    }

    /** Runs a request that owns the key; the key is released unless a result got stored. */
    private static Answer runClaimed(
            IdempotencyKeys keys, String key, KeyEntry.InFlight claim, SimulatorConfig config, Work work)
            throws InterruptedException {
        boolean stored = false;
        try {
            return switch (work.perform()) {
                case Outcome.Released released -> released.reply();
                case Outcome.Stored result -> {
                    // The work recorded its effects in the ledgers first: whoever sees the key finished
                    // can already find them there.
                    keys.finish(key, claim, result.result(), result.lookupBody());
                    stored = true;
                    result.afterStore().run();
                    yield deliver(result.delivery(), result.result(), config);
                }
            };
        } finally {
            if (!stored) {
                keys.release(key, claim);
            }
        }
    }

    private static Answer deliver(Delivery delivery, Answer.Reply result, SimulatorConfig config)
            throws InterruptedException {
        return switch (delivery) {
            case NORMAL -> result;
            case ERROR_500 -> Replies.INTERNAL_ERROR;
            case DROP -> Answer.DROP;
            case HANG -> {
                Thread.sleep(config.timeoutHangMillis());
                yield result;
            }
        };
    }
}
