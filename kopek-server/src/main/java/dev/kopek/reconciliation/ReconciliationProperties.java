package dev.kopek.reconciliation;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param enabled whether this instance runs the scheduled workers (every instance may; they share through the
 *     database)
 * @param interval pause between reconciler passes
 * @param batchSize stuck attempts looked at per pass
 * @param cleanupInterval pause between key-cleanup runs
 * @param cleanupBatchSize keys deleted per statement (at most 10,000)
 */
@ConfigurationProperties("kopek.reconciler")
public record ReconciliationProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("5s") Duration interval,
        @DefaultValue("100") int batchSize,
        @DefaultValue("1h") Duration cleanupInterval,
        @DefaultValue("10000") int cleanupBatchSize) {

    public ReconciliationProperties {
        if (batchSize < 1 || batchSize > 1000 || cleanupBatchSize < 1 || cleanupBatchSize > 10_000) {
            throw new IllegalArgumentException("kopek.reconciler: batch sizes out of range");
        }
    }
}
