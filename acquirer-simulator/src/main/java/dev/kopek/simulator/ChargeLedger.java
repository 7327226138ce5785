package dev.kopek.simulator;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The oracle's memory of charges: every charge that reached a result, and per-key counts of succeeded
 * ones. Counts are keyed by the key string, not by window, so a key that expired and charged again
 * shows two movements.
 */
final class ChargeLedger {
    private final ConcurrentLinkedQueue<ChargeRecord> charges = new ConcurrentLinkedQueue<>();
    private final ConcurrentHashMap<String, AtomicLong> movementsPerKey = new ConcurrentHashMap<>();
    private final LongAdder totalMovements = new LongAdder();

    /** Counts and totals as the admin endpoint reports them. */
    record Stats(long moneyMovements, long lookups, long chargeRequests) {}

    void record(ChargeRecord charge) {
        charges.add(charge);
        if (charge.movedMoney()) {
            movementsPerKey
                    .computeIfAbsent(charge.idempotencyKey(), k -> new AtomicLong())
                    .incrementAndGet();
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

    long moneyMovements(String key) {
        AtomicLong count = movementsPerKey.get(key);
        return count == null ? 0 : count.get();
    }

    long totalMoneyMovements() {
        return totalMovements.sum();
    }
}
