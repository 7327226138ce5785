package dev.kopek.reconciliation.settlement;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.scheduling.support.CronExpression;

/**
 * @param enabled whether this instance takes part in the scheduled daily run (the day is claimed in the database,
 *     so with several instances one runs it); the admin run works either way
 * @param cron when the daily run starts, in UTC; it reconciles yesterday and re-checks the days before
 * @param boundaryDays the day-boundary tolerance, 1–3: a movement may appear on a file up to this many days from the
 *     day Kopek recorded it, and each run re-checks this many earlier days
 * @param resolveBatchSize how many unmatched charges one pass asks the PSP about (each is one lookup), 1–1000
 */
@ConfigurationProperties("kopek.settlement")
public record SettlementProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("0 30 2 * * *") String cron,
        @DefaultValue("1") int boundaryDays,
        @DefaultValue("100") int resolveBatchSize) {

    public static final int MAX_BOUNDARY_DAYS = 3;

    public SettlementProperties {
        if (boundaryDays < 1 || boundaryDays > MAX_BOUNDARY_DAYS) {
            throw new IllegalArgumentException("kopek.settlement.boundary-days must be 1–" + MAX_BOUNDARY_DAYS);
        }
        if (resolveBatchSize < 1 || resolveBatchSize > 1000) {
            throw new IllegalArgumentException("kopek.settlement.resolve-batch-size must be 1–1000");
        }
        if (!CronExpression.isValidExpression(cron)) {
            throw new IllegalArgumentException("kopek.settlement.cron is not a valid cron expression: " + cron);
        }
    }
}
