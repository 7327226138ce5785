package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.support.Gen;
import dev.kopek.support.Property;
import dev.kopek.support.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A capture's fee is computed by the statement that posts it (issue 25: nothing is read first), so the one rounding
 * rule is written twice, in Java and in SQL, side by side in {@link FeeRule}; here PostgreSQL's answer must be the
 * Java one over the whole range of amounts, fee rules included where the fixed part or the rounding takes it all.
 */
class FeeRuleSqlTest {

    /** A capture's amount and the fee rule's two parts. */
    record Case(long amount, int bps, long fixed) {}

    private static JdbcClient jdbc;

    @BeforeAll
    static void database() {
        jdbc = JdbcClient.create(new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", ""));
    }

    @Test
    void theStatementsFeeIsTheJavaFee() {
        Gen<Long> amounts = Gen.longs(1, Long.MAX_VALUE);
        Gen<Long> small = Gen.longs(1, 1_000_000);
        Gen<Integer> bps = Gen.ints(0, FeeRule.MAX_BPS);
        Gen<Long> fixed = Gen.longs(0, FeeRule.MAX_FIXED_MINOR);
        Gen<Long> smallFixed = Gen.longs(0, 1_000);
        Property.check(500, c -> new Case(amounts.draw(c), bps.draw(c), fixed.draw(c)), FeeRuleSqlTest::agrees);
        Property.check(500, c -> new Case(small.draw(c), bps.draw(c), smallFixed.draw(c)), FeeRuleSqlTest::agrees);
    }

    private static void agrees(Case c) {
        long sql = jdbc.sql("SELECT "
                        + FeeRule.inSql("CAST(:amount AS bigint)", "CAST(:bps AS bigint)", "CAST(:fixed AS bigint)"))
                .param("amount", c.amount())
                .param("bps", c.bps())
                .param("fixed", c.fixed())
                .query(Long.class)
                .single();
        assertThat(sql).as(c.toString()).isEqualTo(new FeeRule(c.bps(), c.fixed()).feeFor(c.amount()));
    }
}
