package dev.kopek.ledger.jdbc;

import dev.kopek.ledger.domain.AccountType;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.Db;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The balance projection (V162): projects committed journal transactions into ledger_balances after the fact, reads
 * balances exactly (the projected totals plus the entries not projected yet), and compares the projection with the
 * journal.
 */
@Repository
public class BalanceStore {

    private final JdbcClient jdbc;

    BalanceStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** An account's totals: what the projection says, and, for the drift check, what the entries say. */
    public record AccountTotals(
            long accountId, UUID merchant, AccountType type, String currency, long debitsMinor, long creditsMinor) {

        public long balanceMinor() {
            return type.balance(debitsMinor, creditsMinor);
        }
    }

    /** An account whose projection disagrees with its entries. */
    public record Drift(AccountTotals projected, long entryDebitsMinor, long entryCreditsMinor) {}

    /**
     * An account's exact totals in one statement, so in one snapshot: its balance rows (all shards) plus the entries of
     * journal transactions the projector has not reached yet. The projector moves balances and its mark in one
     * transaction, so a snapshot sees an entry in exactly one of the two.
     *
     * <p>What is not projected yet is summed only up to {@code :limit} journal transactions: one session idle in a
     * transaction holds the projector's mark back, and every read would otherwise re-sum a tail that grows for as long
     * (issue 24, defect 8). Past the limit the statement says so ({@code behind}) instead of summing more.
     */
    static final String TOTALS = """
            WITH mark AS (SELECT projected_below FROM ledger_projection),
            unprojected AS MATERIALIZED (
                SELECT t.id FROM mark, ledger_transactions t WHERE t.tx_xid >= mark.projected_below
                 LIMIT CAST(:limit AS bigint) + 1
            ),
            accounts AS (SELECT a.id, a.merchant_id, a.type, a.currency FROM ledger_accounts a WHERE %s),
            projected AS (
                SELECT b.account_id, sum(b.debit_minor) AS debits, sum(b.credit_minor) AS credits
                  FROM ledger_balances b JOIN accounts a ON a.id = b.account_id
                 GROUP BY b.account_id
            ), pending AS (
                SELECT e.account_id,
                       COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'debit'), 0) AS debits,
                       COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'credit'), 0) AS credits
                  FROM unprojected t
                  JOIN ledger_entries e ON e.transaction_id = t.id
                  JOIN accounts a ON a.id = e.account_id
                 GROUP BY e.account_id
            )
            SELECT a.id, a.merchant_id, a.type, a.currency,
                   (COALESCE(p.debits, 0) + COALESCE(q.debits, 0))::bigint AS debits,
                   (COALESCE(p.credits, 0) + COALESCE(q.credits, 0))::bigint AS credits,
                   (SELECT count(*) FROM unprojected) > CAST(:limit AS bigint) AS behind
              FROM accounts a
              LEFT JOIN projected p ON p.account_id = a.id
              LEFT JOIN pending q ON q.account_id = a.id
             ORDER BY a.currency, a.type
            """;

    /**
     * A merchant's accounts with their exact totals; empty when more than {@code unprojectedLimit} journal
     * transactions wait for the projector (the read would have to sum them all).
     */
    public Optional<List<AccountTotals>> merchantAccounts(MerchantId merchant, long unprojectedLimit) {
        return exact(jdbc.sql(TOTALS.formatted("a.merchant_id = :merchant"))
                .param("merchant", merchant.value())
                .param("limit", unprojectedLimit));
    }

    /** The platform's accounts, as {@link #merchantAccounts}. */
    public Optional<List<AccountTotals>> platformAccounts(long unprojectedLimit) {
        return exact(jdbc.sql(TOTALS.formatted("a.merchant_id IS NULL")).param("limit", unprojectedLimit));
    }

    private static Optional<List<AccountTotals>> exact(JdbcClient.StatementSpec read) {
        record Row(AccountTotals totals, boolean behind) {}
        List<Row> rows = read.query((rs, n) -> new Row(totals(rs, n), rs.getBoolean("behind")))
                .list();
        return rows.stream().anyMatch(Row::behind)
                ? Optional.empty()
                : Optional.of(rows.stream().map(Row::totals).toList());
    }

    /**
     * How long the oldest journal transaction the projector has not reached has waited (0 when none): one session
     * idle in a transaction holds the projector back, and this grows. One index probe.
     */
    public double unprojectedAgeSeconds(Instant now) {
        return jdbc.sql("""
                SELECT COALESCE(EXTRACT(EPOCH FROM (CAST(:now AS timestamptz) - t.recorded_at)), 0)::float8
                  FROM ledger_projection m
                  LEFT JOIN LATERAL (SELECT recorded_at FROM ledger_transactions
                                      WHERE tx_xid >= m.projected_below ORDER BY tx_xid LIMIT 1) t ON TRUE
                """).param("now", Db.at(now)).query(Double.class).single();
    }

    private static AccountTotals totals(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new AccountTotals(
                rs.getLong("id"),
                rs.getObject("merchant_id", UUID.class),
                AccountType.valueOf(rs.getString("type")),
                rs.getString("currency"),
                rs.getLong("debits"),
                rs.getLong("credits"));
    }

    /**
     * Locks the projection's mark for the caller's transaction and reads it; empty while another instance's pass holds
     * it (SKIP LOCKED: that pass is doing the work).
     */
    public Optional<Long> lockMark() {
        return jdbc.sql("SELECT projected_below FROM ledger_projection FOR UPDATE SKIP LOCKED")
                .query(Long.class)
                .optional();
    }

    /**
     * One projector pass from {@code mark} (locked by {@link #lockMark} in this transaction): adds the entries of every
     * journal transaction from the mark up to the xmin of this statement's snapshot to the balances, and moves the mark
     * there. Every transaction older than that xmin has ended, so each committed journal transaction in the range is
     * visible here and none can appear in it later; the next pass starts where this one ended. The mark comes in as a
     * value, so the range is an index range scan of ix_ledger_transactions_xid_id, however large the journal.
     *
     * @return journal transactions projected
     */
    public int projectFrom(long mark) {
        return jdbc.sql("""
                WITH horizon AS (
                    SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS below
                ), due AS (
                    SELECT t.id FROM ledger_transactions t
                     WHERE t.tx_xid >= :mark AND t.tx_xid < (SELECT below FROM horizon)
                ), moved AS (
                    SELECT e.account_id,
                           COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'debit'), 0) AS debits,
                           COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'credit'), 0) AS credits
                      FROM due JOIN ledger_entries e ON e.transaction_id = due.id
                     GROUP BY e.account_id
                ), applied AS (
                    INSERT INTO ledger_balances AS b (account_id, shard, debit_minor, credit_minor)
                    SELECT account_id, 0, debits, credits FROM moved ORDER BY account_id
                    ON CONFLICT (account_id, shard) DO UPDATE
                       SET debit_minor = b.debit_minor + EXCLUDED.debit_minor,
                           credit_minor = b.credit_minor + EXCLUDED.credit_minor
                ), marked AS (
                    UPDATE ledger_projection SET projected_below = horizon.below, projected_at = now()
                      FROM horizon
                     WHERE horizon.below > :mark
                )
                SELECT count(*)::int FROM due
                """).param("mark", mark).query(Integer.class).single();
    }

    /**
     * Every account whose projected totals differ from the totals of the entries the projection claims to hold (those
     * of journal transactions below the mark), in one pass over the journal. The caller runs it in one snapshot
     * (REPEATABLE READ): a pass moves balances and mark together, so any snapshot sees them agree unless something
     * broke the projection.
     */
    public List<Drift> drifted() {
        return jdbc.sql("""
                SELECT a.id, a.merchant_id, a.type, a.currency,
                       COALESCE(b.debits, 0) AS debits, COALESCE(b.credits, 0) AS credits,
                       COALESCE(e.debits, 0) AS entry_debits, COALESCE(e.credits, 0) AS entry_credits
                  FROM ledger_accounts a
                  LEFT JOIN (SELECT account_id, sum(debit_minor)::bigint AS debits,
                                    sum(credit_minor)::bigint AS credits
                               FROM ledger_balances GROUP BY account_id) b ON b.account_id = a.id
                  LEFT JOIN (SELECT e.account_id,
                                    COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'debit'), 0)::bigint AS debits,
                                    COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'credit'), 0)::bigint AS credits
                               FROM ledger_projection m, ledger_transactions t
                               JOIN ledger_entries e ON e.transaction_id = t.id
                              WHERE t.tx_xid < m.projected_below
                              GROUP BY e.account_id) e ON e.account_id = a.id
                 WHERE COALESCE(b.debits, 0) <> COALESCE(e.debits, 0)
                    OR COALESCE(b.credits, 0) <> COALESCE(e.credits, 0)
                 ORDER BY a.id
                """)
                .query((rs, n) -> new Drift(totals(rs, n), rs.getLong("entry_debits"), rs.getLong("entry_credits")))
                .list();
    }

    /** What a repair added to one account's balance. */
    public record Repaired(long accountId, long addedDebitMinor, long addedCreditMinor) {}

    /** Why the projection was not repaired; nothing changed. */
    public static final class NotRepairable extends RuntimeException {
        NotRepairable(String reason, Throwable cause) {
            super(reason, cause, false, false);
        }
    }

    /**
     * The drift check's repair (V173, {@code ledger_repair_projection}), in the caller's transaction: adds to each
     * balance what the entries below the mark hold beyond it, once no transaction older than the mark is open (it waits
     * up to {@code maxWaitSeconds} for one). Refused, changing nothing, where a balance exceeds its entries (a row
     * written outside the projector) or an older transaction stays open; the caller's transaction must then roll back.
     */
    public List<Repaired> repairProjection(int maxWaitSeconds) {
        try {
            return jdbc.sql("SELECT * FROM ledger_repair_projection(:wait)")
                    .param("wait", maxWaitSeconds)
                    .query((rs, n) -> new Repaired(
                            rs.getLong("account_id"),
                            rs.getLong("added_debit_minor"),
                            rs.getLong("added_credit_minor")))
                    .list();
        } catch (DataAccessException e) {
            String state = e.getMostSpecificCause() instanceof SQLException sql ? sql.getSQLState() : null;
            if ("22000".equals(state) || "55P03".equals(state)) {
                throw new NotRepairable(e.getMostSpecificCause().getMessage(), e);
            }
            throw e;
        }
    }

    /** Lifts the statement timeout for the rest of the caller's transaction: a whole-journal read follows. */
    public void withoutStatementTimeout() {
        jdbc.sql("SET LOCAL statement_timeout = 0").update();
    }

    public long accountCount() {
        return jdbc.sql("SELECT count(*) FROM ledger_accounts")
                .query(Long.class)
                .single();
    }
}
