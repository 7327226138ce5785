package dev.kopek.simulator;

import java.util.concurrent.ThreadLocalRandom;

/** Sleeps on the calling (virtual) thread; only close() or a reset-time shutdown interrupts them. */
final class Pauses {
    private Pauses() {}

    static void uniform(long minMillis, long maxMillis) throws InterruptedException {
        long millis = minMillis >= maxMillis
                ? minMillis
                // max(...) keeps the inclusive bound from overflowing at Long.MAX_VALUE.
                : ThreadLocalRandom.current().nextLong(minMillis, Math.max(maxMillis, maxMillis + 1));
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }
}
