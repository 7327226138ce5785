package dev.kopek.simulator;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Object ids such as {@code ch_…} and {@code re_…}. */
final class Ids {
    private Ids() {
    }

    static String next(String prefix) {
        return prefix + randomUuid();
    }

    /** A version-4 UUID from ThreadLocalRandom: ids need to be unique, not unguessable, and this never contends. */
    private static UUID randomUuid() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long msb = (random.nextLong() & ~0xF000L) | 0x4000L;
        long lsb = (random.nextLong() & ~(0xC000L << 48)) | (0x8000L << 48);
        return new UUID(msb, lsb);
    }
}
