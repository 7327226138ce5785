package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Migrations;
import dev.kopek.support.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Issue 24, defect 7: a transaction that took its id before V162 (balances projected after commit) and posts after it
 * writes a journal transaction below the projection's mark, which no projector pass reads. The migrations that follow
 * V162 must leave every such posting in the balances, and the repair they run must wait for such a transaction still
 * open.
 */
class ProjectionStartMigrationTest {

    @Test
    void aPostingOfATransactionOlderThanV162ThatCommitsAfterItIsInTheBalances() throws Exception {
        Database db = new Database();
        try (Connection older = db.source.getConnection()) {
            older.setAutoCommit(false);
            db.takeAnId(older);
            Migrations.flyway(db.source, "162").migrate();
            db.post(older, 4_200);
            older.commit();
        }

        Migrations.flyway(db.source).migrate();

        assertThat(db.balances()).isEqualTo(db.entries()).containsEntry("MERCHANT_PAYABLE", 4_200L);
    }

    /**
     * The repair itself (V173 runs it once; operators run it through the ops endpoint) with a transaction older than
     * the mark still open: it must wait for it, as it could still post below the mark, and then count what it posted.
     * In a migration run this cannot arise at V173 (V170's concurrent index build already waited for every transaction
     * older than it), so the mark is set here as V162 set it, above the id of a transaction still open.
     */
    @Test
    void theRepairWaitsForATransactionOlderThanTheMarkAndCountsItsPosting() throws Exception {
        Database db = new Database();
        Migrations.flyway(db.source).migrate();
        // The connection closes first: a test that fails with the transaction open rolls it back and lets the
        // repair end, instead of waiting for it for ever.
        try (var thread = Executors.newVirtualThreadPerTaskExecutor();
                Connection older = db.source.getConnection()) {
            older.setAutoCommit(false);
            db.takeAnId(older);
            db.jdbc
                    .sql("UPDATE ledger_projection SET projected_below = pg_current_xact_id()::text::bigint + 1")
                    .update();

            Future<Long> repairing = thread.submit(() -> db.jdbc
                    .sql("SELECT count(*) FROM ledger_repair_projection(20)")
                    .query(Long.class)
                    .single());
            db.awaitWaitingForOlderTransactions();
            db.post(older, 3_100);
            older.commit();

            assertThat(repairing.get()).as("accounts repaired").isEqualTo(2);
        }

        assertThat(db.balances()).isEqualTo(db.entries()).containsEntry("MERCHANT_PAYABLE", 3_100L);
    }

    /** A database migrated up to V161 (balances projected by a trigger), with a merchant and its two accounts. */
    private static final class Database {
        final DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        final JdbcClient jdbc = JdbcClient.create(source);
        final UUID merchant = UUID.randomUUID();

        Database() {
            Migrations.flyway(source, "161").migrate();
            jdbc.sql("INSERT INTO merchants (id, name, created_at) VALUES (:id, 'older', now())")
                    .param("id", merchant)
                    .update();
            jdbc.sql("""
                    INSERT INTO ledger_accounts (merchant_id, type, currency, created_at)
                    VALUES (NULL, 'PSP_RECEIVABLE', 'EUR', now()), (:merchant, 'MERCHANT_PAYABLE', 'EUR', now())
                    """).param("merchant", merchant).update();
        }

        /** The transaction takes its id now, before V162, as one that wrote something else first does. */
        void takeAnId(Connection older) throws SQLException {
            older.createStatement().execute("SELECT pg_current_xact_id()");
        }

        /** A capture's posting: the PSP owes it, the merchant is owed it. */
        void post(Connection older, long amount) throws SQLException {
            UUID id = UUID.randomUUID();
            try (PreparedStatement header = older.prepareStatement("""
                    INSERT INTO ledger_transactions (id, merchant_id, payment_id, source_id, kind, amount_minor, currency,
                                                     entry_count, occurred_at, recorded_at)
                    VALUES (?, ?, ?, ?, 'CAPTURED', ?, 'EUR', 2, now(), now())
                    """)) {
                header.setObject(1, id);
                header.setObject(2, merchant);
                header.setObject(3, id);
                header.setObject(4, id);
                header.setLong(5, amount);
                header.execute();
            }
            try (PreparedStatement entries = older.prepareStatement("""
                    INSERT INTO ledger_entries (transaction_id, entry_count, line, account_id, side, amount_minor, currency)
                    SELECT ?, 2, line, a.id, side, ?, 'EUR'
                      FROM (VALUES (1, 'PSP_RECEIVABLE', 'debit'), (2, 'MERCHANT_PAYABLE', 'credit')) v (line, type, side)
                      JOIN ledger_accounts a ON a.type = v.type AND a.currency = 'EUR'
                    """)) {
                entries.setObject(1, id);
                entries.setLong(2, amount);
                entries.execute();
            }
        }

        /** Until the repair waits (pg_sleep) for an older transaction of this database to end; bounded: 20 s. */
        void awaitWaitingForOlderTransactions() {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (jdbc.sql("""
                            SELECT count(*) FROM pg_stat_activity
                             WHERE datname = current_database() AND wait_event = 'PgSleep'
                               AND query LIKE '%ledger_repair_projection%'
                            """).query(Long.class).single() == 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the repair never waited for the older transaction");
                }
                Thread.onSpinWait();
            }
        }

        /** Each account's balance as the projection holds it, by account type (debits or credits, whichever side). */
        Map<String, Long> balances() {
            return totals("""
                    SELECT a.type, sum(b.debit_minor + b.credit_minor)::bigint AS total
                      FROM ledger_balances b JOIN ledger_accounts a ON a.id = b.account_id GROUP BY a.type
                    """);
        }

        /** The same from the journal's entries. */
        Map<String, Long> entries() {
            return totals("""
                    SELECT a.type, sum(e.amount_minor)::bigint AS total
                      FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id GROUP BY a.type
                    """);
        }

        private Map<String, Long> totals(String sql) {
            return jdbc.sql(sql).query((rs, n) -> Map.entry(rs.getString("type"), rs.getLong("total"))).list().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        }
    }
}
