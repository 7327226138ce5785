package dev.kopek.ledger.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Migrations;
import dev.kopek.support.TestDatabase;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Issue 25, section 3 (V214): a journal entry is written into one index, ux_ledger_entries_line, because every reader
 * reaches entries through their transaction and that index serves each of them. On a journal of 30,000 transactions,
 * analyzed so that the planner chooses as it would in production, the reads by transaction go through it and never
 * read the entries whole.
 */
class LedgerEntriesPlanTest {

    private static final int TRANSACTIONS = 30_000;

    private static JdbcClient jdbc;
    private static UUID merchant;

    @BeforeAll
    static void aLongJournal() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        Migrations.flyway(source).migrate();
        jdbc = JdbcClient.create(source);
        merchant = UUID.randomUUID();
        JournalRows.merchantWithAccounts(jdbc, merchant, "entries");
        JournalRows.captures(jdbc, merchant, TRANSACTIONS);
        jdbc.sql("ANALYZE").update();
    }

    @Test
    void anEntryIsWrittenIntoTheLineIndexAlone() {
        assertThat(jdbc.sql(
                                "SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'ledger_entries'::regclass")
                        .query(String.class)
                        .list())
                .containsExactly("ux_ledger_entries_line");
    }

    @Test
    void theEntriesOfATransactionAreReadThroughTheLineIndex() {
        UUID transaction = jdbc.sql("SELECT id FROM ledger_transactions LIMIT 1")
                .query(UUID.class)
                .single();

        // The journal check's shape at commit (V163): one transaction's entries with their accounts.
        String plan = explain("""
                SELECT e.currency, count(*), max(e.line), count(*) FILTER (WHERE a.id IS NULL)
                  FROM ledger_entries e
                  LEFT JOIN ledger_accounts a ON a.id = e.account_id AND a.currency = e.currency
                 WHERE e.transaction_id = :id
                 GROUP BY e.currency
                """, transaction);

        assertThat(plan).contains("ux_ledger_entries_line").doesNotContain("Seq Scan on ledger_entries");
    }

    @Test
    void aBalanceReadSumsItsUnprojectedEntriesThroughTheLineIndex() {
        String plan = jdbc.sql("EXPLAIN (FORMAT TEXT) " + BalanceStore.TOTALS.formatted("a.merchant_id = :merchant"))
                .param("merchant", merchant)
                .param("limit", 50)
                .query(String.class)
                .list()
                .toString();

        assertThat(plan).contains("ux_ledger_entries_line").doesNotContain("Seq Scan on ledger_entries");
    }

    private static String explain(String sql, UUID transaction) {
        return jdbc.sql("EXPLAIN (FORMAT TEXT) " + sql)
                .param("id", transaction)
                .query(String.class)
                .list()
                .toString();
    }
}
