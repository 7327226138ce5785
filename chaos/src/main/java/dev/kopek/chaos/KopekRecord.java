package dev.kopek.chaos;

import dev.kopek.chaos.Evidence.Dispute;
import dev.kopek.chaos.Evidence.LedgerTotals;
import dev.kopek.chaos.Evidence.Operation;
import dev.kopek.chaos.Evidence.OutboxEvent;
import dev.kopek.chaos.Evidence.Payment;
import dev.kopek.chaos.Evidence.Review;
import dev.kopek.chaos.Evidence.StuckKey;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/** Reads Kopek's database directly (read-only queries), as an auditor with database access would. */
final class KopekRecord {

    /** What is still undecided outside review; zero when the system has quiesced. */
    private static final String UNSETTLED = """
            WITH parked AS (SELECT subject_id AS id FROM manual_reviews WHERE status = 'OPEN' AND subject_id IS NOT NULL
                            UNION SELECT payment_id FROM manual_reviews WHERE status = 'OPEN' AND payment_id IS NOT NULL)
            SELECT (SELECT count(*) FROM payments WHERE (status IN ('PENDING', 'UNKNOWN')
                        OR amount_refund_pending > 0 OR amount_capture_pending > 0) AND id NOT IN (SELECT id FROM parked))
                 + (SELECT count(*) FROM payment_operations WHERE status IN ('PENDING', 'UNKNOWN')
                        AND id NOT IN (SELECT id FROM parked))
                 + (SELECT count(*) FROM idempotency_keys WHERE status <> 'COMPLETED'
                        AND resource_id NOT IN (SELECT id FROM parked)),
                   (SELECT count(*) FROM outbox WHERE published_at IS NULL),
                   (SELECT count(*) FROM outbox),
                   (SELECT count(*) FROM psp_notifications WHERE processed_at IS NULL OR outcome = 'unmatched')
            """;

    private static final String LEDGER_TOTALS = """
            SELECT coalesce(t.payment_id, o.payment_id) AS payment_id,
                   sum(CASE WHEN coalesce(o.kind, t.kind) = 'CAPTURED' THEN s.sign * t.amount_minor ELSE 0 END),
                   sum(CASE WHEN coalesce(o.kind, t.kind) = 'REFUND_SUCCEEDED' THEN s.sign * t.amount_minor ELSE 0 END),
                   sum(CASE WHEN coalesce(o.kind, t.kind) = 'CHARGEBACK_WITHDRAWN' THEN s.sign * t.amount_minor
                            WHEN coalesce(o.kind, t.kind) = 'CHARGEBACK_REVERSED' THEN -s.sign * t.amount_minor
                            ELSE 0 END)
              FROM ledger_transactions t
              LEFT JOIN ledger_transactions o ON o.id = t.reverses
              CROSS JOIN LATERAL (SELECT CASE WHEN t.kind = 'REVERSAL' THEN -1 ELSE 1 END AS sign) s
             WHERE coalesce(t.payment_id, o.payment_id) IS NOT NULL
             GROUP BY 1
            """;

    private static final String UNBALANCED = """
            SELECT transaction_id, currency, sum(CASE side WHEN 'debit' THEN amount_minor ELSE -amount_minor END)
              FROM ledger_entries GROUP BY transaction_id, currency
            HAVING sum(CASE side WHEN 'debit' THEN amount_minor ELSE -amount_minor END) <> 0
            """;

    private final String url;

    KopekRecord(String url) {
        this.url = url;
    }

    /**
     * {unsettled outside review, outbox rows not yet published, outbox rows, PSP notifications stored and waiting to
     * be applied}. A notification waits out its claim (30 s) when the request that stored it met an outage, and may
     * be what records a dispute: the chargeback is money the books must know before the audit.
     */
    long[] progress() {
        return query(UNSETTLED, rs -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)})
                .getFirst();
    }

    List<Payment> payments() {
        return query(
                """
                SELECT id, reference, provider_key, psp_reference, status, amount, amount_authorized, amount_captured,
                       amount_refunded, amount_refund_pending, amount_capture_pending, amount_disputed, version
                  FROM payments""",
                rs -> new Payment(
                        uuid(rs, 1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getLong(6),
                        rs.getLong(7),
                        rs.getLong(8),
                        rs.getLong(9),
                        rs.getLong(10),
                        rs.getLong(11),
                        rs.getLong(12),
                        rs.getLong(13)));
    }

    List<Operation> operations() {
        return query(
                """
                SELECT id, payment_id, kind, amount, status, provider_key FROM payment_operations""",
                rs -> new Operation(
                        uuid(rs, 1), uuid(rs, 2), rs.getString(3), rs.getLong(4), rs.getString(5), rs.getString(6)));
    }

    List<Dispute> disputes() {
        return query(
                "SELECT psp_dispute_id, payment_id, amount, status FROM disputes",
                rs -> new Dispute(rs.getString(1), uuid(rs, 2), rs.getLong(3), rs.getString(4)));
    }

    List<Review> reviews() {
        return query(
                "SELECT payment_id, subject, subject_id, status = 'OPEN' FROM manual_reviews",
                rs -> new Review(uuid(rs, 1), rs.getString(2), uuid(rs, 3), rs.getBoolean(4)));
    }

    List<LedgerTotals> ledgerTotals() {
        return query(LEDGER_TOTALS, rs -> new LedgerTotals(uuid(rs, 1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
    }

    List<String> unbalancedTransactions() {
        return query(
                UNBALANCED,
                rs -> "ledger transaction " + rs.getString(1) + " " + rs.getString(2) + " debits minus credits "
                        + rs.getLong(3));
    }

    List<StuckKey> stuckKeys() {
        return query(
                "SELECT operation, idempotency_key, resource_id, status FROM idempotency_keys "
                        + "WHERE status <> 'COMPLETED'",
                rs -> new StuckKey(rs.getString(1), rs.getString(2), uuid(rs, 3), rs.getString(4)));
    }

    List<OutboxEvent> outbox() {
        return query(
                "SELECT id, resource_type, public_id, sequence FROM outbox",
                rs -> new OutboxEvent(PublicIds.event(uuid(rs, 1)), rs.getString(2), rs.getString(3), rs.getLong(4)));
    }

    /** Open review items by subject and the start of their reason: what was parked for a person, and why. */
    List<String> openReviewSummary() {
        return query("""
                SELECT subject, left(reason, 60), count(*) FROM manual_reviews WHERE status = 'OPEN'
                 GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10""", rs -> rs.getLong(3) + " × " + rs.getString(1) + ": " + rs.getString(2));
    }

    /** Keys whose owner was replaced: attempts the reconciler or a retry took over after a crash or timeout. */
    long recoveredAttempts() {
        // A refund's run key starts at attempt 0 (nobody owns it until the dispatcher takes it as attempt 1).
        return query("SELECT count(*) FROM idempotency_keys WHERE attempt > 1", rs -> rs.getLong(1))
                .getFirst();
    }

    private interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private <T> List<T> query(String sql, Row<T> row) {
        Properties props = new Properties();
        props.put("user", "postgres");
        try (Connection c = DriverManager.getConnection(url, props);
                Statement s = c.createStatement()) {
            c.setReadOnly(true);
            s.setFetchSize(5_000);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    out.add(row.map(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(sql.strip().lines().findFirst().orElse("") + ": " + e.getMessage(), e);
        }
    }

    private static UUID uuid(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, UUID.class);
    }
}
