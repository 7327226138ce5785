package dev.kopek.simulator;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The oracle's memory: every charge that reached a result and per-key counters. Counters are keyed by
 * the key string, not by window, so a key that expired and charged again shows two movements.
 */
final class ChargeLedger {
    private final ConcurrentLinkedQueue<ChargeRecord> charges = new ConcurrentLinkedQueue<>();
    private final ConcurrentHashMap<String, KeyCounters> perKey = new ConcurrentHashMap<>();
    // LongAdder for totals: every request bumps them, so they are the one truly contended counter.
    private final LongAdder totalMovements = new LongAdder();
    private final LongAdder totalLookups = new LongAdder();
    private final LongAdder totalChargeRequests = new LongAdder();

    /** Counts and totals as the admin endpoint reports them. */
    record Stats(long moneyMovements, long lookups, long chargeRequests) {
    }

    void chargeRequested(String key) {
        counters(key).chargeRequests.incrementAndGet();
        totalChargeRequests.increment();
    }

    void lookedUp(String key) {
        counters(key).lookups.incrementAndGet();
        totalLookups.increment();
    }

    void record(ChargeRecord charge) {
        charges.add(charge);
        if (charge.movedMoney()) {
            counters(charge.idempotencyKey()).moneyMovements.incrementAndGet();
            totalMovements.increment();
        }
    }

    List<ChargeRecord> charges() {
        return List.copyOf(charges);
    }

    /** Filters are optional; {@code null} matches everything. */
    List<ChargeRecord> charges(String idempotencyKey, String reference) {
        return charges.stream()
                .filter(c -> idempotencyKey == null || idempotencyKey.equals(c.idempotencyKey()))
                .filter(c -> reference == null || Objects.equals(reference, c.reference()))
                .toList();
    }

    Stats stats(String key) {
        KeyCounters counters = perKey.get(key);
        if (counters == null) {
            return new Stats(0, 0, 0);
        }
        return new Stats(counters.moneyMovements.get(), counters.lookups.get(), counters.chargeRequests.get());
    }

    Stats totals() {
        return new Stats(totalMovements.sum(), totalLookups.sum(), totalChargeRequests.sum());
    }

    private KeyCounters counters(String key) {
        return perKey.computeIfAbsent(key, k -> new KeyCounters());
    }

    private static final class KeyCounters {
        final AtomicLong moneyMovements = new AtomicLong();
        final AtomicLong lookups = new AtomicLong();
        final AtomicLong chargeRequests = new AtomicLong();
    }
}
