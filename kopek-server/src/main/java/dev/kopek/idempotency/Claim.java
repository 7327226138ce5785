package dev.kopek.idempotency;

import java.time.Duration;
import java.util.UUID;

/** What a request with a key may do, decided in phase 1 by the database. */
public sealed interface Claim {

    /** This request owns the key with fencing token {@code attempt}; {@code reclaimed} means a lease had expired. */
    record Owned(int attempt, boolean reclaimed, UUID resourceId) implements Claim {}

    /** The final answer exists: send it back byte for byte. */
    record Replay(int status, String body) implements Claim {}

    /** Another owner holds a live lease: 409, retry later with the same key. */
    record InFlight(Duration retryAfter) implements Claim {}

    /** The outcome is unknown and reconciliation is on it: 202 with the resource's current state. */
    record Awaiting(UUID resourceId) implements Claim {}

    /** The same key was used with other business fields: 422. */
    record Mismatch() implements Claim {}
}
