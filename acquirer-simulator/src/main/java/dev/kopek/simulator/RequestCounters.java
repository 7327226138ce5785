package dev.kopek.simulator;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Per-key counts of state-changing requests and of lookups by key, for one key scope. */
final class RequestCounters {
    private final ConcurrentHashMap<String, Counts> perKey = new ConcurrentHashMap<>();
    // LongAdder for totals: every request bumps them, so they are the one truly contended counter.
    private final LongAdder totalRequests = new LongAdder();
    private final LongAdder totalLookups = new LongAdder();

    void requested(String key) {
        counts(key).requests.incrementAndGet();
        totalRequests.increment();
    }

    void lookedUp(String key) {
        counts(key).lookups.incrementAndGet();
        totalLookups.increment();
    }

    long requests(String key) {
        Counts counts = perKey.get(key);
        return counts == null ? 0 : counts.requests.get();
    }

    long lookups(String key) {
        Counts counts = perKey.get(key);
        return counts == null ? 0 : counts.lookups.get();
    }

    long totalRequests() {
        return totalRequests.sum();
    }

    long totalLookups() {
        return totalLookups.sum();
    }

    private Counts counts(String key) {
        return perKey.computeIfAbsent(key, k -> new Counts());
    }

    private static final class Counts {
        final AtomicLong requests = new AtomicLong();
        final AtomicLong lookups = new AtomicLong();
    }
}
