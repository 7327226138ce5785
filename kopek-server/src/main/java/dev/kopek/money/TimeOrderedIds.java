package dev.kopek.money;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * UUID version 7: 48 bits of Unix milliseconds, then randomness. Time-ordered ids keep B-tree inserts at the
 * right edge of the index and make "newest first" an index scan.
 */
public final class TimeOrderedIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private TimeOrderedIds() {}

    public static UUID next(Clock clock) {
        long millis = clock.millis();
        long randA = RANDOM.nextInt() & 0x0FFFL;
        long msb = (millis << 16) | 0x7000L | randA;
        long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }
}
