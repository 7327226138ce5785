package dev.kopek.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/** What the simulator remembers about one idempotency key. */
sealed interface KeyEntry permits KeyEntry.InFlight, KeyEntry.Finished {

    Fingerprint fingerprint();

    /** When the key was first claimed on the simulator clock; the window counts from here. */
    Instant claimedAt();

    /**
     * A request holds the key and is still working. A final class, not a record: the compare-and-set
     * that finishes or releases it must match this very claim by identity, never an equal-looking one.
     */
    final class InFlight implements KeyEntry {
        private final Fingerprint fingerprint;
        private final Instant claimedAt;

        InFlight(Fingerprint fingerprint, Instant claimedAt) {
            this.fingerprint = fingerprint;
            this.claimedAt = claimedAt;
        }

        @Override
        public Fingerprint fingerprint() {
            return fingerprint;
        }

        @Override
        public Instant claimedAt() {
            return claimedAt;
        }
    }

    /**
     * The first result for the key, kept so every replay returns exactly the same bytes.
     *
     * @param lookupBody what a lookup by key answers with 200: the stored result's body, except for an
     *                   asynchronous charge, whose lookup follows the charge from processing to its outcome
     */
    record Finished(Fingerprint fingerprint, Instant claimedAt, Answer.Reply result, Supplier<byte[]> lookupBody)
            implements KeyEntry {}

    /**
     * Only finished keys expire. An in-flight claim never does: the request holding it still has to
     * store its result, and letting a duplicate in meanwhile would be a simulator-made double charge.
     */
    static boolean expired(KeyEntry entry, Instant now, long windowSeconds) {
        return entry instanceof Finished
                && Duration.between(entry.claimedAt(), now).compareTo(Duration.ofSeconds(windowSeconds)) >= 0;
    }
}
