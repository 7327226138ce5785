package dev.kopek.idempotency;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param lease how long an owner may hold a key before another may reclaim it; longer than the PSP budget.
 * @param grace how long an unknown outcome waits before reconciliation asks the PSP.
 * @param retention how long a completed key (and its stored answer) is kept; at least the client's retry
 *     window and the PSP's key window.
 */
@ConfigurationProperties("kopek.idempotency")
public record IdempotencyProperties(
        @DefaultValue("30s") Duration lease,
        @DefaultValue("30s") Duration grace,
        @DefaultValue("7d") Duration retention) {

    public IdempotencyProperties {
        if (lease.isNegative() || lease.isZero() || grace.isNegative() || retention.compareTo(lease) <= 0) {
            throw new IllegalArgumentException("kopek.idempotency: lease and grace must be positive and "
                    + "retention longer than the lease");
        }
    }
}
