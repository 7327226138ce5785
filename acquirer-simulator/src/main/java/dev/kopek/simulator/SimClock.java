package dev.kopek.simulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The simulator's own clock: wall time plus an offset that tests push forward, so a 24 h key window
 * can expire in a millisecond of real time without touching the JVM's clock.
 */
final class SimClock {
    private final Clock base;
    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    SimClock(Clock base) {
        this.base = base;
    }

    /** Millisecond precision keeps created_at short and stable in JSON. */
    Instant now() {
        return base.instant().plus(offset.get()).truncatedTo(ChronoUnit.MILLIS);
    }

    /** Moves the clock forward; going backwards would let expired keys come back to life, so it is refused. */
    Instant advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("the clock only moves forward");
        }
        Duration next = offset.updateAndGet(current -> {
            Duration candidate = current.plus(by);
            // Throws before the offset is stored when it would overflow what an Instant can hold,
            // so a silly request fails itself instead of breaking every later one.
            base.instant().plus(candidate);
            return candidate;
        });
        return base.instant().plus(next).truncatedTo(ChronoUnit.MILLIS);
    }

    void reset() {
        offset.set(Duration.ZERO);
    }
}
