package dev.kopek.ledger.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.platform.InvariantCheck.Finding;
import dev.kopek.platform.InvariantCheck.Slice;
import dev.kopek.support.Migrations;
import dev.kopek.support.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 26: the production audit's balances check costs a slice what the slice holds, not what the biggest merchant's
 * history holds. One merchant with a long journal; every slice's read is counted in the rows PostgreSQL fetched from
 * the journal in its transaction (pg_stat_xact_user_tables), not timed. While a pass goes on, postings land and the
 * projector moves after every slice, so each slice reads another mark: the pass still finds nothing, and then finds a
 * platform account's balance grown outside the projector.
 */
class BalancesEqualEntriesCheckTest {

    private static final int HISTORY = 3_000;
    private static final int LIMIT = 40;

    private static JdbcClient jdbc;
    private static TransactionTemplate read;
    private static TransactionTemplate write;
    private static BalanceStore balances;
    private static BalancesEqualEntriesCheck check;
    private static UUID merchant;

    @BeforeAll
    static void aMerchantWithALongJournal() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        Migrations.flyway(source).migrate();
        jdbc = JdbcClient.create(source);
        DataSourceTransactionManager transactions = new DataSourceTransactionManager(source);
        read = new TransactionTemplate(transactions);
        read.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        read.setReadOnly(true);
        write = new TransactionTemplate(transactions);
        balances = new BalanceStore(jdbc);
        check = new BalancesEqualEntriesCheck(jdbc);
        merchant = UUID.randomUUID();
        JournalRows.merchantWithAccounts(jdbc, merchant, "long journal");
        post(HISTORY);
        project();
        jdbc.sql("ANALYZE").update();
    }

    @Test
    void aSliceReadsAtMostItsLimitOfJournalTransactionsWhateverTheMerchantsHistory() {
        List<Long> fetched = new ArrayList<>();
        List<Finding> found = pass(
                () -> {
                    post(2);
                    post(1);
                    project();
                },
                fetched);

        assertThat(found)
                .as("postings and projector moves between slices are no violation")
                .isEmpty();
        assertThat(fetched)
                .as("slices of a pass over %d journal transactions of one merchant", HISTORY)
                .hasSizeGreaterThan(HISTORY / LIMIT);
        assertThat(fetched.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("journal rows (transactions and entries) one slice fetched, at most %d transactions", LIMIT)
                .isLessThanOrEqualTo(6L * (LIMIT + 1));
    }

    @Test
    void aPlatformBalanceGrownOutsideTheProjectorIsFoundByTheNextPass() {
        long platform = jdbc.sql("SELECT id FROM ledger_accounts WHERE merchant_id IS NULL")
                .query(Long.class)
                .single();
        assertThat(pass(() -> {}, new ArrayList<>())).isEmpty();
        jdbc.sql("UPDATE ledger_balances SET debit_minor = debit_minor + 1 WHERE account_id = :a AND shard = 0")
                .param("a", platform)
                .update();

        assertThat(pass(() -> {}, new ArrayList<>()))
                .extracting(Finding::subject)
                .containsExactly("account " + platform);
        write.executeWithoutResult(status -> {
            // Put back, with the guard off (balances only grow), so that the other tests find a sound ledger.
            jdbc.sql("SET LOCAL session_replication_role = replica").update();
            jdbc.sql("UPDATE ledger_balances SET debit_minor = debit_minor - 1 WHERE account_id = :a AND shard = 0")
                    .param("a", platform)
                    .update();
        });
    }

    @Test
    void aCursorOfTheCheckBeforeItWalkedTheJournalStartsAPass() {
        assertThat(BalancesEqualEntriesCheck.Position.parse(merchant.toString()))
                .isEqualTo(BalancesEqualEntriesCheck.Position.start());
        assertThat(BalancesEqualEntriesCheck.Position.parse(null))
                .isEqualTo(BalancesEqualEntriesCheck.Position.start());
    }

    /**
     * One whole pass, as the auditor runs it: each slice read in a read-only snapshot, then settled in a transaction
     * of its own; {@code between} runs after each slice. Adds the journal rows each read fetched to {@code fetched}.
     */
    private static List<Finding> pass(Runnable between, List<Long> fetched) {
        List<Finding> found = new ArrayList<>();
        String after = null;
        for (int n = 0; n < 10 * HISTORY; n++) {
            String from = after;
            Slice slice = read.execute(status -> {
                Slice s = check.check(from, LIMIT);
                fetched.add(jdbc.sql("""
                                SELECT COALESCE(sum(COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0)), 0)
                                  FROM pg_stat_xact_user_tables
                                 WHERE relname IN ('ledger_transactions', 'ledger_entries')
                                """).query(Long.class).single());
                return s;
            });
            Slice settled = write.execute(status -> slice.settled());
            found.addAll(settled.findings());
            if (settled.endsPass(LIMIT)) {
                return found;
            }
            after = settled.last();
            between.run();
        }
        throw new AssertionError("the pass did not end");
    }

    private static void post(int count) {
        JournalRows.captures(jdbc, merchant, count);
    }

    private static void project() {
        write.executeWithoutResult(status -> balances.lockMark().map(balances::projectFrom));
    }
}
