package dev.kopek.invariants;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code kopek.invariants.*}.
 *
 * @param enabled whether this instance runs the scheduled audit (every instance may; a check runs on one instance at
 *     a time, through its cursor's lease)
 * @param interval pause between ticks; each tick runs one slice of every check
 * @param sliceSize rows each check looks at per tick (its unit: transactions, merchants, payments, events, lines)
 * @param lease how long an instance holds a check's cursor while it runs a slice; a dead holder's lease expires
 */
@ConfigurationProperties("kopek.invariants")
public record InvariantsProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("30s") Duration interval,
        @DefaultValue("1000") int sliceSize,
        @DefaultValue("5m") Duration lease) {

    public InvariantsProperties {
        if (sliceSize < 1 || sliceSize > 100_000) {
            throw new IllegalArgumentException("kopek.invariants.slice-size must be between 1 and 100000");
        }
        if (interval.isNegative() || interval.isZero() || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("kopek.invariants.interval and lease must be positive");
        }
    }
}
