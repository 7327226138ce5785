package dev.kopek.simulator;

import java.time.Instant;
import java.util.function.Predicate;

/** One operation's idempotency keys and its request and lookup counters. */
record KeyScope(IdempotencyKeys keys, RequestCounters counters) {

    static KeyScope empty() {
        return new KeyScope(new IdempotencyKeys(), new RequestCounters());
    }

    /**
     * Lookup by key: the stored result whatever its status, 409 while running, else 404. Counted
     * whatever the answer.
     *
     * @param belongs whether the stored request belongs to the collection that was asked (a capture key
     *                looked up under another charge is not found there)
     */
    Answer lookup(String key, Instant now, long windowSeconds, Predicate<Fingerprint> belongs) {
        counters.lookedUp(key);
        KeyEntry entry = keys.find(key, now, windowSeconds);
        if (entry == null || !belongs.test(entry.fingerprint())) {
            return Replies.NOT_FOUND;
        }
        return switch (entry) {
            case KeyEntry.InFlight ignored -> Replies.IN_PROGRESS;
            case KeyEntry.Finished finished ->
                new Answer.Reply(200, finished.lookupBody().get());
        };
    }
}
