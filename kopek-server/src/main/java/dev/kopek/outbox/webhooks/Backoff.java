package dev.kopek.outbox.webhooks;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The retry schedule of a failed delivery: 30 s after the first failure, doubling, at most 6 h apart, each delay
 * spread by ±20 % so that endpoints recovering from an outage are not hit by every delivery at the same second.
 * Retries stop when the next one would fall outside the retry window (72 h by default); docs/events.md
 * publishes the resulting table.
 */
public final class Backoff {

    static final Duration FIRST = Duration.ofSeconds(30);
    static final Duration CAP = Duration.ofHours(6);
    private static final int MAX_DOUBLINGS = 20;

    private Backoff() {}

    /** The nominal pause after failed attempt number {@code attempt} (1 for the first). */
    public static Duration nominal(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempts start at 1");
        }
        Duration delay = FIRST.multipliedBy(1L << Math.min(attempt - 1, MAX_DOUBLINGS));
        return delay.compareTo(CAP) > 0 ? CAP : delay;
    }

    /** The nominal pause times a factor drawn uniformly from [0.8, 1.2). */
    public static Duration withJitter(int attempt, RandomGenerator random) {
        long millis = nominal(attempt).toMillis();
        return Duration.ofMillis(Math.round(millis * (0.8 + 0.4 * random.nextDouble())));
    }
}
