package dev.kopek.reconciliation.settlement;

import dev.kopek.audit.Actor;
import dev.kopek.platform.DatabaseOutages;
import dev.kopek.platform.Db;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.reconciliation.ReconciliationProperties;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The daily run: reconciles yesterday and re-checks the day before. Every instance has the schedule; the first to
 * insert today's row in {@code settlement_schedule} runs it, so a day is counted as one sighting, not one per
 * instance. Off where {@code kopek.reconciler.enabled} (this instance runs no workers) or
 * {@code kopek.settlement.enabled} is false. Each run is audited like an admin's, its actor Kopek itself
 * ({@code system:daily-settlement}). A run the database was away for is tried again every minute until it goes
 * through (claiming the day is its first statement, so a run that claimed nothing is simply run again; one that
 * claimed the day and then lost the database leaves that date to the next day's re-check).
 */
@Component
public class DailySettlementRun {

    private static final Logger log = LoggerFactory.getLogger(DailySettlementRun.class);

    static final Actor ACTOR = Actor.system("daily-settlement");
    private static final String WORKER = "daily settlement run";

    private final SettlementReconciliation reconciliation;
    private final SettlementAudit audit;
    private final PaymentProvider psp;
    private final JdbcClient jdbc;
    private final SettlementProperties properties;
    private final ReconciliationProperties workers;
    private final Clock clock;
    private final DatabaseOutages outages;
    private volatile boolean missedInOutage;

    DailySettlementRun(
            SettlementReconciliation reconciliation,
            SettlementAudit audit,
            PaymentProvider psp,
            JdbcClient jdbc,
            SettlementProperties properties,
            ReconciliationProperties workers,
            Clock clock,
            DatabaseOutages outages) {
        this.outages = outages;
        this.reconciliation = reconciliation;
        this.audit = audit;
        this.psp = psp;
        this.jdbc = jdbc;
        this.properties = properties;
        this.workers = workers;
        this.clock = clock;
    }

    @Scheduled(cron = "${kopek.settlement.cron:0 30 2 * * *}", zone = "UTC")
    void scheduled() {
        if (!workers.enabled() || !properties.enabled()) {
            return;
        }
        try {
            runIfDue();
            missedInOutage = false;
            outages.succeeded(WORKER);
        } catch (RuntimeException e) {
            if (!outages.failed(WORKER, e)) {
                throw e;
            }
            missedInOutage = true;
        }
    }

    @Scheduled(fixedDelayString = "1m", initialDelayString = "1m")
    void retryAfterOutage() {
        if (missedInOutage && outages.mayRun(WORKER)) {
            scheduled();
        }
    }

    /** Today's run, unless another instance (or an earlier call) has claimed it; empty then. */
    public Optional<RunResult> runIfDue() {
        LocalDate yesterday = reconciliation.latestClosedDate();
        LocalDate today = yesterday.plusDays(1);
        int claimed = jdbc.sql("""
                INSERT INTO settlement_schedule (provider, run_date, claimed_at) VALUES (:provider, :today, :now)
                ON CONFLICT (provider, run_date) DO NOTHING
                """)
                .param("provider", psp.name())
                .param("today", today)
                .param("now", Db.at(clock.instant()))
                .update();
        if (claimed == 0) {
            log.info("settlement: the daily run of {} was claimed by another instance", today);
            return Optional.empty();
        }
        RunResult result = reconciliation.run(yesterday, Trigger.SCHEDULED);
        audit.recordRun(ACTOR, yesterday, result);
        switch (result) {
            case RunResult.Completed completed -> {
                log.info(
                        "settlement: daily run for {} done, {} passes, {} merchants' own accounts",
                        yesterday,
                        completed.passes().size(),
                        completed.accounts().size());
                completed.accounts().stream()
                        .filter(a -> a.unavailable() != null)
                        .forEach(a -> log.error(
                                "settlement: daily run for {}: {} was not reconciled ({})",
                                yesterday,
                                a.provider(),
                                a.unavailable()));
            }
            case RunResult.FileUnavailable failed ->
                log.error(
                        "settlement: daily run for {} failed: the file of {}"
                                + " is unavailable ({}); run it from the admin API when the PSP has it",
                        yesterday,
                        failed.date(),
                        failed.reason());
            case RunResult.DateNotClosed notClosed -> throw new IllegalStateException("yesterday is always closed");
        }
        return Optional.of(result);
    }
}
