package dev.kopek.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Migrations;
import dev.kopek.support.ScannedOutcomes;
import dev.kopek.support.TestDatabase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The unknown-outcome gauges (every scrape, every 15 s), the Health page and Needs attention read what is in flight,
 * not every payment: on 30,000 payments and 30,000 captures, voids and refunds, analyzed so that the planner
 * chooses as it would in production, each of their statements starts from the unfinished idempotency keys and reaches
 * payments and operations by primary key, with no sequential scan of either table (before, each was one: 10–13 ms at
 * 60,000 payments in benchmarks/run-index-use.sh, and growing with the table). What they answer is what the old
 * statements, which read every row, answered on the same data.
 */
class UnknownOutcomesPlanTest {

    private static final int ROWS = 30_000;

    private static JdbcClient jdbc;

    @BeforeAll
    static void manyPaymentsFewOfThemInFlight() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        Migrations.flyway(source).migrate();
        jdbc = JdbcClient.create(source);
        jdbc.sql("INSERT INTO merchants (id, name, created_at) VALUES (md5('plan')::uuid, 'plan', now())")
                .update();
        // Every 1,000th payment undecided (every 2,000th still pending, the others unknown), the rest captured, each
        // with its key: unfinished for the undecided ones, completed for the others.
        jdbc.sql("""
                INSERT INTO payments (id, merchant_id, reference, idempotency_key, provider_key, amount, currency,
                                      payment_method, capture_method, status, amount_authorized, amount_captured,
                                      created_at, updated_at)
                SELECT md5('p' || i)::uuid, md5('plan')::uuid, 'ref-' || i, 'key-' || i, 'pk-' || i, 1000, 'EUR',
                       'pm_ok', 'automatic',
                       CASE WHEN i % 2000 = 0 THEN 'PENDING' WHEN i % 1000 = 0 THEN 'UNKNOWN' ELSE 'CAPTURED' END,
                       CASE WHEN i % 1000 = 0 THEN 0 ELSE 1000 END, CASE WHEN i % 1000 = 0 THEN 0 ELSE 1000 END,
                       now() - i * interval '1 second', now() - i * interval '1 second'
                  FROM generate_series(1, :rows) i
                """).param("rows", ROWS).update();
        keys("'payment.create'", "key-", "p", "i % 1000 = 0", "i % 2000 = 0", "TRUE");
        // A capture, void or refund on each captured payment in turn, every 500th undecided (every 1,000th pending).
        jdbc.sql("""
                INSERT INTO payment_operations (id, payment_id, merchant_id, kind, amount, currency, final, status,
                                                provider_key, created_at, updated_at)
                SELECT md5('o' || i)::uuid, md5('p' || i)::uuid, md5('plan')::uuid,
                       (ARRAY['capture', 'void', 'refund'])[1 + i % 3], 100, 'EUR', false,
                       CASE WHEN i % 1000 = 1 THEN 'PENDING' WHEN i % 500 = 1 THEN 'UNKNOWN' ELSE 'SUCCEEDED' END,
                       'opk-' || i, now() - i * interval '1 second', now() - i * interval '1 second'
                  FROM generate_series(1, :rows) i WHERE i % 1000 <> 0
                """).param("rows", ROWS).update();
        keys(
                "(ARRAY['payment.capture', 'payment.void', 'refund.execute'])[1 + i % 3]",
                "op-key-", "o", "i % 500 = 1", "i % 1000 = 1", "i % 1000 <> 0");
        jdbc.sql("ANALYZE").update();
    }

    /** A key for each row {@code rows} selects: unfinished where {@code unfinished}, in progress where {@code held}. */
    private static void keys(
            String keySpace, String prefix, String idSeed, String unfinished, String held, String rows) {
        jdbc.sql("""
                INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status, attempt,
                                              lease_until, expires_at, resource_id, response_code, response_body,
                                              created_at, updated_at)
                SELECT md5('plan')::uuid, %1$s, '%2$s' || i, repeat('0', 64),
                       CASE WHEN %5$s THEN 'IN_PROGRESS' WHEN %4$s THEN 'AWAITING_RESULT' ELSE 'COMPLETED' END, 1,
                       now(), now() + interval '7 days', md5('%3$s' || i)::uuid,
                       CASE WHEN %4$s THEN NULL ELSE 200 END, CASE WHEN %4$s THEN NULL ELSE '{}' END, now(), now()
                  FROM generate_series(1, :rows) i WHERE %6$s
                """.formatted(keySpace, prefix, idSeed, unfinished, held, rows))
                .param("rows", ROWS)
                .update();
    }

    @Test
    void everyKindsUnknownOutcomesAreCountedFromTheUnfinishedKeys() {
        HealthQueries.UNKNOWN_OLDEST.forEach((kind, sql) -> {
            String plan = explain(sql, Map.of());
            assertThat(plan)
                    .as(kind + ": " + plan)
                    .doesNotContain("Seq Scan on payments", "Seq Scan on payment_operations")
                    .doesNotContain("Seq Scan on idempotency_keys")
                    .contains(kind.equals("payment") ? "payments_pkey" : "payment_operations_pkey");
            assertThat(rows(sql, Map.of()))
                    .as(kind)
                    .isEqualTo(rows(ScannedOutcomes.UNKNOWN_OLDEST.get(kind), Map.of()));
        });
        assertThat(rows(HealthQueries.UNKNOWN_OLDEST.get("payment"), Map.of()))
                .singleElement()
                .satisfies(row -> assertThat(row.get("n")).isEqualTo(15L));
    }

    @Test
    void whatIsInFlightIsListedFromTheUnfinishedKeys() {
        Map<String, Object> page = Map.of("limit", ConsoleQueries.PAGE);
        String plan = explain(ConsoleQueries.IN_FLIGHT, page);

        assertThat(plan)
                .doesNotContain("Seq Scan on payments", "Seq Scan on payment_operations")
                .doesNotContain("Seq Scan on idempotency_keys");
        Map<String, Object> all = Map.of("limit", 1_000);
        assertThat(rows(ConsoleQueries.IN_FLIGHT, all))
                .as("every undecided payment and operation, in the same order")
                .hasSize(30 + 60)
                .isEqualTo(rows(ScannedOutcomes.IN_FLIGHT, all));
        assertThat(rows(ConsoleQueries.IN_FLIGHT, page)).isEqualTo(rows(ScannedOutcomes.IN_FLIGHT, page));
    }

    private static String explain(String sql, Map<String, Object> params) {
        return jdbc.sql("EXPLAIN (FORMAT TEXT) " + sql)
                .params(params)
                .query(String.class)
                .list()
                .toString();
    }

    private static List<Map<String, Object>> rows(String sql, Map<String, Object> params) {
        return jdbc.sql(sql).params(params).query().listOfRows();
    }
}
