package dev.kopek.reconciliation.settlement;

import dev.kopek.platform.Db;
import dev.kopek.platform.ReadReplica;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The settlement scan of a pass: the differences between one current file and Kopek's money, read on the read
 * replica when there is one (docs/read-replicas.md). Nothing is decided on what it reads: {@link BreakMatcher}
 * writes them on the primary as sightings, and a break is reported only on its second consecutive sighting, so a
 * replica that missed Kopek's last seconds yields at most a candidate the next pass clears. The file itself was
 * loaded moments ago on the primary: until the replica has it, the scan reads the primary.
 */
@Component
class BreakFinder {

    private final ReadReplica replica;
    private final JdbcClient primary;
    private final SettlementProperties properties;

    BreakFinder(ReadReplica replica, JdbcClient primary, SettlementProperties properties) {
        this.replica = replica;
        this.primary = primary;
        this.properties = properties;
    }

    /**
     * The scan. {@code psp}: the file's money rows, summed per reference and type (a row listed twice shows as a
     * wrong amount). {@code kopek}: every object of Kopek's that carries a PSP reference, the movement it stands
     * for, whether it counts as settled money and when it moved. {@code internal}: what the day should contain
     * (settled, moved on that UTC day) plus whatever the file names, at any time, because a reference is unique.
     * The FULL OUTER JOIN pairs them by reference and movement type (one reference may carry two movements, as a
     * dispute's chargeback and reversal do). A Kopek movement the file lacks is not missing when a neighbouring
     * day's current file has it (the day boundary). One difference per break type, reference and movement, all of
     * them in one JSON array: the form in which {@link BreakMatcher} writes them on the primary in one statement.
     */
    String differences(LoadedFile file, SettlementAccount account) {
        Instant dayStart = file.date().atStartOfDay(ZoneOffset.UTC).toInstant();
        JdbcClient reads = replicaHas(file) ? replica.jdbc() : primary;
        var statement = account.merchant().isEmpty()
                ? reads.sql(SCAN_CONFIGURED)
                : reads.sql(SCAN_MERCHANT)
                        .param("merchant", account.merchant().get().value())
                        .param("account", account.pspAccount());
        return statement
                .param("file", file.id())
                .param("provider", file.provider())
                .param("date", file.date())
                .param("dayStart", Db.at(dayStart))
                .param("dayEnd", Db.at(dayStart.plus(Duration.ofDays(1))))
                .param("from", file.date().minusDays(properties.boundaryDays()))
                .param("to", file.date().plusDays(properties.boundaryDays()))
                .query(String.class)
                .single();
    }

    /** Whether the replica holds the file: its rows came in the same transaction as its header. */
    private boolean replicaHas(LoadedFile file) {
        return replica.separate()
                && replica.jdbc()
                        .sql("SELECT EXISTS (SELECT 1 FROM settlement_files WHERE id = :file)")
                        .param("file", file.id())
                        .query(Boolean.class)
                        .single();
    }

    private static final String SCAN_TEMPLATE = """

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
        SELECT COALESCE(jsonb_agg(d), '[]')::text FROM (
            SELECT DISTINCT ON (break_type, psp_reference, movement)
                   break_type, psp_reference, movement, psp_type, psp_amount, psp_currency, internal_kind,
                   internal_id, payment_id, merchant_id, internal_type, internal_status, internal_amount,
                   internal_currency
              FROM matched
             WHERE break_type IS NOT NULL
             ORDER BY break_type, psp_reference, movement, internal_id
        ) d
        """;

    /** The scan for Kopek's configured account, and for one merchant's own account. */
    private static final String SCAN_CONFIGURED = scoped("%s.psp_account IS NULL");

    private static final String SCAN_MERCHANT = scoped("%1$s.merchant_id = :merchant AND %1$s.psp_account = :account");

    private static String scoped(String scope) {
        String sql = SCAN_TEMPLATE;
        for (String alias : new String[] {"p", "op", "dp"}) {
            sql = sql.replace("{scope:" + alias + "}", String.format(scope, alias));
        }
        return sql;
    }
}
