package dev.kopek.simulator;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Every movement in the order it was recorded, each with the acquirer fee fixed when it happened. It is
 * written independently of the charges' own state, so tests can check one against the other.
 */
final class MovementLedger {
    private static final Set<String> CAPTURING = Set.of(MovementRecord.CHARGE, MovementRecord.CAPTURE);
    private static final BigDecimal BPS_PER_UNIT = BigDecimal.valueOf(10_000);

    /** A movement and its fee in minor units (0 for anything that is not a succeeded capture). */
    record Entry(MovementRecord movement, long fee) {}

    private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();

    /** Records a movement; a succeeded charge or capture is charged {@code feeBps}, rounded half up. */
    void record(MovementRecord movement, long feeBps) {
        long fee = movement.succeeded() && CAPTURING.contains(movement.type()) ? fee(movement.amount(), feeBps) : 0;
        entries.add(new Entry(movement, fee));
    }

    static long fee(long amount, long feeBps) {
        return BigDecimal.valueOf(amount)
                .multiply(BigDecimal.valueOf(feeBps))
                .divide(BPS_PER_UNIT, 0, RoundingMode.HALF_UP)
                .longValueExact();
    }

    List<Entry> entries() {
        return List.copyOf(entries);
    }

    List<MovementRecord> movements(String chargeId) {
        return entries.stream()
                .map(Entry::movement)
                .filter(m -> chargeId == null || chargeId.equals(m.chargeId()))
                .toList();
    }

    /** Succeeded charge (captured when made) and capture movements of the charge. */
    long capturedTotal(String chargeId) {
        return sum(chargeId, CAPTURING);
    }

    long refundedTotal(String chargeId) {
        return sum(chargeId, Set.of(MovementRecord.REFUND));
    }

    private long sum(String chargeId, Set<String> types) {
        return entries.stream()
                .map(Entry::movement)
                .filter(m -> m.succeeded() && chargeId.equals(m.chargeId()) && types.contains(m.type()))
                .mapToLong(MovementRecord::amount)
                .sum();
    }
}
