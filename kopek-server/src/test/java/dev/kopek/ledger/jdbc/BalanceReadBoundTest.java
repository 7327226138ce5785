package dev.kopek.ledger.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.MerchantId;
import dev.kopek.support.Migrations;
import dev.kopek.support.TestDatabase;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 24, defect 8: while something holds the balance projector back, journal transactions pile up above its mark,
 * and a balance read adds them to the projected totals. The read sums at most its limit of them, however many wait,
 * and says when there are more instead of summing them all. Counted in the plan PostgreSQL ran, not timed.
 */
class BalanceReadBoundTest {

    private static final int WAITING = 400;
    private static final int LIMIT = 50;

    private static JdbcClient jdbc;
    private static BalanceStore balances;
    private static MerchantId merchant;

    /** A journal of 400 captures none of which is projected: the mark stays where V162 put it. */
    @BeforeAll
    static void aProjectionHeldBack() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        Migrations.flyway(source).migrate();
        jdbc = JdbcClient.create(source);
        balances = new BalanceStore(jdbc);
        merchant = new MerchantId(UUID.randomUUID());
        JournalRows.merchantWithAccounts(jdbc, merchant.value(), "held back");
        JournalRows.captures(jdbc, merchant.value(), WAITING);
        jdbc.sql("ANALYZE").update();
    }

    @Test
    void aReadSumsAtMostItsLimitOfUnprojectedTransactionsAndSaysWhenMoreWait() throws Exception {
        String plan = jdbc.sql(
                        "EXPLAIN (ANALYZE, FORMAT JSON) " + BalanceStore.TOTALS.formatted("a.merchant_id = :merchant"))
                .param("merchant", merchant.value())
                .param("limit", LIMIT)
                .query(String.class)
                .single();

        assertThat(rowsRead(JsonMapper.builder().build().readTree(plan), "ledger_transactions"))
                .as("journal transactions read past the mark, of " + WAITING + " waiting")
                .isLessThanOrEqualTo(LIMIT + 1);
        assertThat(balances.merchantAccounts(merchant, LIMIT))
                .as("more wait than a read sums")
                .isEmpty();
        assertThat(balances.merchantAccounts(merchant, WAITING))
                .hasValueSatisfying(accounts -> assertThat(accounts)
                        .singleElement()
                        .satisfies(a -> assertThat(a.balanceMinor()).isEqualTo(100L * WAITING)));
    }

    /** The rows every scan of {@code relation} in the plan produced, summed over its loops. */
    private static long rowsRead(JsonNode node, String relation) {
        long rows = 0;
        if (node.isObject() && relation.equals(node.path("Relation Name").asString(""))) {
            rows += node.path("Actual Rows").asLong()
                    * Math.max(1, node.path("Actual Loops").asLong());
        }
        for (JsonNode child : node) {
            rows += rowsRead(child, relation);
        }
        return rows;
    }
}
