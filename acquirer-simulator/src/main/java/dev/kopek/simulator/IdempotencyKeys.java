package dev.kopek.simulator;

import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One key store (one scope: charges, captures, voids or refunds). Each operation is one atomic map
 * call on one key, so two requests for the same key serialise on that key's bin only and different
 * keys never wait for each other.
 */
final class IdempotencyKeys {
    private final ConcurrentHashMap<String, KeyEntry> entries = new ConcurrentHashMap<>();

    /** Atomically claims the key, or reports why the request may not run. */
    Claim claim(String key, Fingerprint request, Instant now, long windowSeconds) {
        KeyEntry.InFlight candidate = new KeyEntry.InFlight(request, now);
        KeyEntry winner = entries.compute(
                key,
                (k, existing) ->
                        existing == null || KeyEntry.expired(existing, now, windowSeconds) ? candidate : existing);
        if (winner == candidate) {
            return new Claim.Claimed(candidate);
        }
        if (!winner.fingerprint().equals(request)) {
            return new Claim.Reused();
        }
        return switch (winner) {
            case KeyEntry.Finished finished -> new Claim.Replay(finished.result());
            case KeyEntry.InFlight ignored -> new Claim.InProgress();
        };
    }

    /** Stores the result for the claim; a no-op if a reset replaced the store meanwhile. */
    void finish(String key, KeyEntry.InFlight claim, Answer.Reply result, Supplier<byte[]> lookupBody) {
        entries.replace(key, claim, new KeyEntry.Finished(claim.fingerprint(), claim.claimedAt(), result, lookupBody));
    }

    /** Gives the key back when nothing was stored, so a retry is processed afresh. */
    void release(String key, KeyEntry.InFlight claim) {
        entries.remove(key, claim);
    }

    /** The live entry for the key, or {@code null} when unknown or expired. */
    KeyEntry find(String key, Instant now, long windowSeconds) {
        KeyEntry entry = entries.get(key);
        return entry == null || KeyEntry.expired(entry, now, windowSeconds) ? null : entry;
    }
}
