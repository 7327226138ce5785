package dev.kopek.idempotency;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param lease how long an owner may hold a key before another may reclaim it; longer than the PSP budget.
 * @param grace how long an unknown outcome waits before reconciliation asks the PSP.
 * @param retention how long a completed key (and its stored answer) is kept; at least the client's retry
 *     window and the PSP's key window.
 * @param maxTries how many times an operation is sent to the PSP under its key (each try is one owner's call);
 *     after that, a lookup that finds nothing under the key proves nothing happened and the operation fails.
 */
@ConfigurationProperties("kopek.idempotency")
public record IdempotencyProperties(
        @DefaultValue("30s") Duration lease,
        @DefaultValue("30s") Duration grace,
        @DefaultValue("7d") Duration retention,
        @DefaultValue("3") int maxTries) {

    public IdempotencyProperties {
        if (lease.isNegative() || lease.isZero() || grace.isNegative() || retention.compareTo(lease) <= 0) {
            throw new IllegalArgumentException(
                    "kopek.idempotency: lease and grace must be positive and " + "retention longer than the lease");
        }
        if (maxTries < 1 || maxTries > 10) {
            throw new IllegalArgumentException("kopek.idempotency.max-tries: 1–10");
        }
    }

    /** The wait before reconciling an unknown outcome of try {@code attempt}: the grace, doubled per try, at most 16×. */
    public Duration graceFor(int attempt) {
        return grace.multipliedBy(1L << Math.min(Math.max(attempt, 1) - 1, 4));
    }

    /** Whether try {@code attempt} may still send the operation; past it, only a lookup by key decides. */
    public boolean maySend(int attempt) {
        return attempt <= maxTries;
    }
}
