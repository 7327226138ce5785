package dev.kopek.reconciliation.settlement;

import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One matching pass of one settlement date, in one transaction under the date's lock: the current file against
 * Kopek's money, written as breaks by a single FULL OUTER JOIN; then the date's open breaks this pass did not see are
 * closed. The two-sighting rule lives in the upsert: a first sighting is a candidate, a second one reports it.
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

    BreakMatcher(
            JdbcClient jdbc,
            SettlementFiles files,
            SettlementProperties properties,
            TransactionTemplate tx,
            Clock clock,
            PspFees fees) {
        this.jdbc = jdbc;
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

    private static final String MATCH_TEMPLATE = """
        WITH psp AS (
            SELECT psp_reference, type, sum(amount) AS amount, min(currency) AS currency,
                   count(DISTINCT currency) AS currencies
              FROM settlement_rows
             WHERE file_id = :file AND type <> 'fee'
             GROUP BY psp_reference, type
        ),
        -- Only money that went through the account whose file this is ({scope}: Kopek's configured PSP account, where
        -- payments.psp_account IS NULL, or one merchant's own account): money held in another account settles there,
        -- never in this file, and is not a break of it.
        kopek AS NOT MATERIALIZED (
            SELECT 'payment' AS kind, p.id, p.id AS payment_id, p.merchant_id, p.psp_reference,
                   CASE p.capture_method WHEN 'automatic' THEN 'charge' ELSE 'authorization' END AS type,
                   p.status, CASE WHEN p.amount_captured > 0 THEN p.amount_captured ELSE p.amount END AS amount,
                   p.currency, p.capture_method = 'automatic' AND p.amount_captured > 0 AS settled,
                   p.created_at AS moved_at
              FROM published_payments p
             WHERE p.psp_reference IS NOT NULL AND {scope:p}
            UNION ALL
            SELECT o.kind, o.id, o.payment_id, o.merchant_id, o.psp_reference,
                   CASE o.kind WHEN 'capture' THEN 'charge' ELSE o.kind END,
                   o.status, o.amount, o.currency, o.kind IN ('capture', 'refund') AND o.status = 'SUCCEEDED',
                   o.updated_at
              FROM published_payment_operations o JOIN published_payments op ON op.id = o.payment_id AND {scope:op}
             WHERE o.psp_reference IS NOT NULL
            UNION ALL
            -- A dispute is two movements under one reference: the chargeback when it opens, and, if it is won,
            -- the reversal (a won dispute is final, so its updated_at is when it was won).
            SELECT 'dispute', d.id, d.payment_id, d.merchant_id, d.psp_dispute_id, 'chargeback', d.status, d.amount,
                   d.currency, TRUE, d.created_at
              FROM published_disputes d JOIN published_payments dp ON dp.id = d.payment_id AND {scope:dp}
            UNION ALL
            SELECT 'dispute', d.id, d.payment_id, d.merchant_id, d.psp_dispute_id, 'chargeback_reversal', d.status,
                   d.amount, d.currency, TRUE, d.updated_at
              FROM published_disputes d JOIN published_payments dp ON dp.id = d.payment_id AND {scope:dp}
             WHERE d.status = 'WON'
        ),
        internal AS (
            SELECT * FROM kopek WHERE settled AND moved_at >= :dayStart AND moved_at < :dayEnd
            UNION
            SELECT * FROM kopek WHERE psp_reference IN (SELECT psp_reference FROM psp)
        ),
        neighbours AS (
            SELECT DISTINCT ON (settlement_date) id
              FROM settlement_files
             WHERE provider = :provider AND settlement_date BETWEEN :from AND :to AND settlement_date <> :date
             ORDER BY settlement_date, version DESC
        ),
        joined AS (
            -- Same reference and same movement type pair up. A PSP row left alone whose reference Kopek knows as
            -- another movement borrows that object (o), so the break can say what Kopek holds instead.
            SELECT s.psp_reference AS s_ref, s.type AS s_type, s.amount AS s_amount, s.currency AS s_currency,
                   s.currencies, i.psp_reference AS i_ref,
                   COALESCE(i.psp_reference, o.psp_reference) AS k_ref, COALESCE(i.kind, o.kind) AS k_kind,
                   COALESCE(i.id, o.id) AS k_id, COALESCE(i.payment_id, o.payment_id) AS k_payment,
                   COALESCE(i.merchant_id, o.merchant_id) AS k_merchant, COALESCE(i.type, o.type) AS k_type,
                   COALESCE(i.status, o.status) AS k_status, COALESCE(i.amount, o.amount) AS k_amount,
                   COALESCE(i.currency, o.currency) AS k_currency, COALESCE(i.settled, o.settled) AS k_settled
              FROM psp s
              FULL OUTER JOIN internal i ON i.psp_reference = s.psp_reference AND i.type = s.type
              LEFT JOIN LATERAL (
                   SELECT * FROM internal x
                    WHERE i.psp_reference IS NULL AND x.psp_reference = s.psp_reference
                    ORDER BY x.id LIMIT 1) o ON TRUE
             -- Kopek's movement with no partner is missing at the PSP only if the file names its reference under
             -- no type at all (else the PSP row's break covers it) and no neighbouring day's file has it.
             WHERE s.psp_reference IS NOT NULL
                OR (NOT EXISTS (SELECT 1 FROM psp x WHERE x.psp_reference = i.psp_reference)
                    AND NOT EXISTS (SELECT 1 FROM settlement_rows n JOIN neighbours nb ON nb.id = n.file_id
                                     WHERE n.psp_reference = i.psp_reference AND n.type <> 'fee'))
        ),
        matched AS (
            SELECT COALESCE(s_ref, k_ref) AS psp_reference,
                   COALESCE(s_type, k_type) AS movement,
                   CASE
                       WHEN s_ref IS NULL THEN 'MISSING_AT_PSP'
                       WHEN k_ref IS NULL THEN 'MISSING_INTERNAL'
                       WHEN i_ref IS NULL OR NOT k_settled THEN 'STATUS_MISMATCH'
                       WHEN k_amount <> s_amount OR k_currency <> s_currency OR currencies > 1 THEN 'AMOUNT_MISMATCH'
                   END AS break_type,
                   s_type AS psp_type, s_amount AS psp_amount, s_currency AS psp_currency,
                   k_kind AS internal_kind, k_id AS internal_id, k_payment AS payment_id, k_merchant AS merchant_id,
                   k_type AS internal_type, k_status AS internal_status, k_amount AS internal_amount,
                   k_currency AS internal_currency
              FROM joined
        )
        INSERT INTO recon_breaks (id, provider, settlement_date, type, status, psp_reference, movement,
                                  psp_type, psp_amount, psp_currency, internal_kind, internal_id, payment_id,
                                  merchant_id, internal_type, internal_status, internal_amount,
                                  internal_currency, file_id, first_seen_run, last_seen_run, seen_count,
                                  created_at, updated_at)
        SELECT DISTINCT ON (break_type, psp_reference, movement)
               gen_random_uuid(), :provider, :date, break_type, 'CANDIDATE', psp_reference, movement,
               psp_type, psp_amount, psp_currency, internal_kind, internal_id, payment_id, merchant_id,
               internal_type, internal_status, internal_amount, internal_currency, :file, :run, :run, 1,
               :now, :now
          FROM matched
         WHERE break_type IS NOT NULL
         ORDER BY break_type, psp_reference, movement, internal_id
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

    /** The matching statement for Kopek's configured account, and for one merchant's own account. */
    private static final String MATCH_CONFIGURED = scoped("%s.psp_account IS NULL");

    private static final String MATCH_MERCHANT = scoped("%1$s.merchant_id = :merchant AND %1$s.psp_account = :account");

    private static String scoped(String scope) {
        String sql = MATCH_TEMPLATE;
        for (String alias : new String[] {"p", "op", "dp"}) {
            sql = sql.replace("{scope:" + alias + "}", String.format(scope, alias));
        }
        return sql;
    }

    /**
     * The matching statement. {@code psp}: the file's money rows, summed per reference and type (a row listed twice
     * shows as a wrong amount). {@code kopek}: every object of Kopek's that carries a PSP reference, the movement it
     * stands for, whether it counts as settled money and when it moved. {@code internal}: what the day should contain
     * (settled, moved on that UTC day) plus whatever the file names, at any time, because a reference is unique.
     * The FULL OUTER JOIN pairs them by reference and movement type (one reference may carry two movements, as a
     * dispute's chargeback and reversal do). A Kopek movement the file lacks is not missing when a neighbouring day's
     * current file has it (the day boundary). Each difference is inserted as a candidate, or, already open, counted
     * as one more sighting.
     */
    private void match(UUID run, LoadedFile file, SettlementAccount account, boolean promote, Instant now) {
        Instant dayStart = file.date().atStartOfDay(ZoneOffset.UTC).toInstant();
        var statement = account.merchant().isEmpty()
                ? jdbc.sql(MATCH_CONFIGURED)
                : jdbc.sql(MATCH_MERCHANT)
                        .param("merchant", account.merchant().get().value())
                        .param("account", account.pspAccount());
        statement
                .param("file", file.id())
                .param("provider", file.provider())
                .param("date", file.date())
                .param("dayStart", Db.at(dayStart))
                .param("dayEnd", Db.at(dayStart.plus(Duration.ofDays(1))))
                .param("from", file.date().minusDays(properties.boundaryDays()))
                .param("to", file.date().plusDays(properties.boundaryDays()))
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
