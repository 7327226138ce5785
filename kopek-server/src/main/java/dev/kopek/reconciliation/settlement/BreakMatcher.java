package dev.kopek.reconciliation.settlement;

import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One matching pass of one settlement date, in one transaction under the date's lock: the differences between the
 * current file and Kopek's money ({@link BreakFinder}, read on the replica when there is one) written as sightings
 * in one statement; then the date's open breaks this pass did not see are closed. The two-sighting rule lives in
 * the upsert: a first sighting is a candidate, a second one reports it.
 */
@Component
class BreakMatcher {

    private static final Logger log = LoggerFactory.getLogger(BreakMatcher.class);

    private final JdbcClient jdbc;
    private final SettlementFiles files;
    private final SettlementProperties properties;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final PspFees fees;
    private final BreakFinder finder;

    BreakMatcher(
            JdbcClient jdbc,
            BreakFinder finder,
            SettlementFiles files,
            SettlementProperties properties,
            TransactionTemplate tx,
            Clock clock,
            PspFees fees) {
        this.jdbc = jdbc;
        this.finder = finder;
        this.files = files;
        this.fees = fees;
        this.properties = properties;
        this.tx = tx;
        this.clock = clock;
    }

    PassSummary pass(SettlementAccount account, LocalDate date, Trigger trigger, boolean recheck) {
        String provider = account.provider();
        PassSummary summary = tx.execute(status -> {
            DateLock.hold(jdbc, provider, date);
            // Read under the lock: a version loaded a moment ago by another instance is the one that counts.
            LoadedFile file = files.current(provider, date)
                    .orElseThrow(() -> new IllegalStateException("no settlement file loaded for " + date));
            Instant now = clock.instant();
            UUID run = TimeOrderedIds.next(clock);
            insertRun(run, file, trigger, now);
            match(run, file, account, laterFilesLoaded(provider, date), now);
            if (account.merchant().isEmpty()) {
                // Fees in a merchant's own account are the merchant's, not Kopek's cost (docs/settlement.md).
                fees.post(file);
            }
            int cleared = closeUnseen(
                    provider,
                    date,
                    run,
                    now,
                    "CANDIDATE",
                    "CLEARED",
                    "not seen by the next pass of its date (on a neighbouring day's file, or fixed in time)");
            int resolved = closeUnseen(
                    provider,
                    date,
                    run,
                    now,
                    "REPORTED",
                    "RESOLVED",
                    "no longer shown: the PSP's file or Kopek changed after it was reported");
            return finishRun(run, file, recheck, cleared, resolved, now);
        });
        log.info(
                "settlement pass: provider={} date={} file_version={} seen={} new={} reported={} cleared={} "
                        + "resolved={}",
                provider,
                date,
                summary.file().version(),
                summary.seen(),
                summary.newCandidates(),
                summary.reported(),
                summary.cleared(),
                summary.resolved());
        if (summary.reported() > 0) {
            log.warn("settlement breaks reported: provider={} date={} count={}", provider, date, summary.reported());
        }
        return summary;
    }

    private void insertRun(UUID run, LoadedFile file, Trigger trigger, Instant now) {
        jdbc.sql("""
                INSERT INTO settlement_runs (id, provider, settlement_date, file_id, trigger, started_at)
                VALUES (:id, :provider, :date, :file, :trigger, :now)
                """)
                .param("id", run)
                .param("provider", file.provider())
                .param("date", file.date())
                .param("file", file.id())
                .param("trigger", trigger.column())
                .param("now", Db.at(now))
                .update();
    }

    /**
     * A candidate may be reported only once every file inside the day-boundary tolerance after its date is in:
     * before that, "missing at the PSP" may just mean "on tomorrow's file". The scheduled run always has them when it
     * re-checks a day; an operator re-running one date twice in a row does not promote anything early.
     */
    private boolean laterFilesLoaded(String provider, LocalDate date) {
        long loaded = jdbc.sql("""
                SELECT count(DISTINCT settlement_date) FROM settlement_files
                 WHERE provider = :provider AND settlement_date > :date AND settlement_date <= :last
                """)
                .param("provider", provider)
                .param("date", date)
                .param("last", date.plusDays(properties.boundaryDays()))
                .query(Long.class)
                .single();
        return loaded == properties.boundaryDays();
    }

    /**
     * Writes a pass's differences ({@link BreakFinder}) as sightings: each is inserted as a candidate or, already
     * open, counted as one more sighting (and reported when {@code :promote}).
     */
    private static final String SIGHTINGS = """
        INSERT INTO recon_breaks (id, provider, settlement_date, type, status, psp_reference, movement,
                                  psp_type, psp_amount, psp_currency, internal_kind, internal_id, payment_id,
                                  merchant_id, internal_type, internal_status, internal_amount,
                                  internal_currency, file_id, first_seen_run, last_seen_run, seen_count,
                                  created_at, updated_at)
        SELECT gen_random_uuid(), :provider, :date, f.break_type, 'CANDIDATE', f.psp_reference, f.movement,
               f.psp_type, f.psp_amount, f.psp_currency, f.internal_kind, f.internal_id, f.payment_id, f.merchant_id,
               f.internal_type, f.internal_status, f.internal_amount, f.internal_currency, :file, :run, :run, 1,
               :now, :now
          FROM jsonb_to_recordset(CAST(:found AS jsonb))
               AS f(break_type text, psp_reference text, movement text, psp_type text, psp_amount bigint,
                    psp_currency text, internal_kind text, internal_id uuid, payment_id uuid, merchant_id uuid,
                    internal_type text, internal_status text, internal_amount bigint, internal_currency text)
        ON CONFLICT (provider, settlement_date, type, psp_reference, movement)
           WHERE status IN ('CANDIDATE', 'REPORTED')
        DO UPDATE SET
               seen_count = recon_breaks.seen_count + 1,
               last_seen_run = EXCLUDED.last_seen_run,
               file_id = EXCLUDED.file_id,
               psp_type = EXCLUDED.psp_type,
               psp_amount = EXCLUDED.psp_amount,
               psp_currency = EXCLUDED.psp_currency,
               internal_kind = COALESCE(EXCLUDED.internal_kind, recon_breaks.internal_kind),
               internal_id = COALESCE(EXCLUDED.internal_id, recon_breaks.internal_id),
               payment_id = COALESCE(EXCLUDED.payment_id, recon_breaks.payment_id),
               merchant_id = COALESCE(EXCLUDED.merchant_id, recon_breaks.merchant_id),
               internal_type = COALESCE(EXCLUDED.internal_type, recon_breaks.internal_type),
               internal_status = COALESCE(EXCLUDED.internal_status, recon_breaks.internal_status),
               internal_amount = COALESCE(EXCLUDED.internal_amount, recon_breaks.internal_amount),
               internal_currency = COALESCE(EXCLUDED.internal_currency, recon_breaks.internal_currency),
               updated_at = EXCLUDED.updated_at,
               status = CASE WHEN :promote THEN 'REPORTED' ELSE recon_breaks.status END,
               reported_at = CASE WHEN recon_breaks.status = 'CANDIDATE' AND :promote
                                  THEN EXCLUDED.updated_at ELSE recon_breaks.reported_at END,
               reported_run = CASE WHEN recon_breaks.status = 'CANDIDATE' AND :promote
                                   THEN EXCLUDED.last_seen_run ELSE recon_breaks.reported_run END
        """;

    private void match(UUID run, LoadedFile file, SettlementAccount account, boolean promote, Instant now) {
        jdbc.sql(SIGHTINGS)
                .param("found", finder.differences(file, account))
                .param("provider", file.provider())
                .param("date", file.date())
                .param("file", file.id())
                .param("run", run)
                .param("now", Db.at(now))
                .param("promote", promote)
                .update();
    }

    private int closeUnseen(
            String provider, LocalDate date, UUID run, Instant now, String from, String to, String resolution) {
        return jdbc.sql("""
                UPDATE recon_breaks
                   SET status = :to, closed_at = :now, updated_at = :now, resolution = :resolution
                 WHERE provider = :provider AND settlement_date = :date AND status = :from AND last_seen_run <> :run
                """)
                .param("to", to)
                .param("now", Db.at(now))
                .param("resolution", resolution)
                .param("provider", provider)
                .param("date", date)
                .param("from", from)
                .param("run", run)
                .update();
    }

    private PassSummary finishRun(UUID run, LoadedFile file, boolean recheck, int cleared, int resolved, Instant now) {
        record Counts(int seen, int fresh, int reported) {}
        Counts counts = jdbc.sql("""
                SELECT count(*) AS seen,
                       count(*) FILTER (WHERE first_seen_run = :run) AS fresh,
                       count(*) FILTER (WHERE reported_run = :run) AS reported
                  FROM recon_breaks
                 WHERE provider = :provider AND settlement_date = :date AND last_seen_run = :run
                """)
                .param("run", run)
                .param("provider", file.provider())
                .param("date", file.date())
                .query((rs, n) -> new Counts(rs.getInt("seen"), rs.getInt("fresh"), rs.getInt("reported")))
                .single();
        jdbc.sql("""
                UPDATE settlement_runs
                   SET finished_at = :now, breaks_seen = :seen, new_candidates = :fresh, reported = :reported,
                       cleared = :cleared, resolved = :resolved
                 WHERE id = :run
                """)
                .param("now", Db.at(now))
                .param("seen", counts.seen())
                .param("fresh", counts.fresh())
                .param("reported", counts.reported())
                .param("cleared", cleared)
                .param("resolved", resolved)
                .param("run", run)
                .update();
        return new PassSummary(
                run, file.date(), recheck, file, counts.seen(), counts.fresh(), counts.reported(), cleared, resolved);
    }
}
