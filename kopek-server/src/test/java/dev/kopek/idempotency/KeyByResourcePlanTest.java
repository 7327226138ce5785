package dev.kopek.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Migrations;
import dev.kopek.support.TestDatabase;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Issue 24, defect 2: finding the unfinished key of a resource (every PSP notification, every person's decision, the
 * settlement's unknown-charge resolver) reads an index, not the whole key table. The table holds 60,000 keys, as seven
 * days of traffic hold millions, and is analyzed, so the planner chooses as it would in production.
 */
class KeyByResourcePlanTest {

    private static final int COMPLETED_KEYS = 60_000;

    private static JdbcClient jdbc;
    private static UUID merchant;

    @BeforeAll
    static void aWeekOfKeys() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        Migrations.flyway(source).migrate();
        jdbc = JdbcClient.create(source);
        merchant = UUID.randomUUID();
        jdbc.sql("INSERT INTO merchants (id, name, created_at) VALUES (:id, 'keys', now())")
                .param("id", merchant)
                .update();
        jdbc.sql("""
                INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status, attempt,
                                              lease_until, expires_at, resource_id, response_code, response_body,
                                              created_at, updated_at)
                SELECT :merchant, 'payment.create', 'key-' || i, repeat('0', 64),
                       CASE WHEN i % 1000 = 0 THEN 'AWAITING_RESULT' ELSE 'COMPLETED' END, 1,
                       now(), now() + interval '7 days', gen_random_uuid(),
                       CASE WHEN i % 1000 = 0 THEN NULL ELSE 201 END, CASE WHEN i % 1000 = 0 THEN NULL ELSE '{}' END,
                       now(), now()
                  FROM generate_series(1, :keys) i
                """).param("merchant", merchant).param("keys", COMPLETED_KEYS).update();
        jdbc.sql("ANALYZE idempotency_keys").update();
    }

    @Test
    void theKeyOfAResourceIsFoundThroughAnIndexNotByScanningEveryKey() {
        UUID resource = jdbc.sql("""
                SELECT resource_id FROM idempotency_keys WHERE status = 'AWAITING_RESULT' LIMIT 1
                """).query(UUID.class).single();

        String plan = jdbc.sql("EXPLAIN (FORMAT TEXT) " + IdempotencyKeys.UNFINISHED_BY_RESOURCE)
                .param("operation", "payment.create")
                .param("resource", resource)
                .query(String.class)
                .list()
                .toString();

        assertThat(plan).doesNotContain("Seq Scan").contains("ix_idempotency_keys_unfinished_resource");
    }

    @Test
    void aCompletedKeyIsNotOneToTakeOver() {
        UUID completed = jdbc.sql("SELECT resource_id FROM idempotency_keys WHERE status = 'COMPLETED' LIMIT 1")
                .query(UUID.class)
                .single();
        UUID unfinished = jdbc.sql("SELECT resource_id FROM idempotency_keys WHERE status = 'AWAITING_RESULT' LIMIT 1")
                .query(UUID.class)
                .single();

        assertThat(find(completed)).isEmpty();
        assertThat(find(unfinished)).singleElement().isEqualTo("AWAITING_RESULT");
    }

    private static List<String> find(UUID resource) {
        return jdbc.sql(IdempotencyKeys.UNFINISHED_BY_RESOURCE)
                .param("operation", "payment.create")
                .param("resource", resource)
                .query((rs, n) -> rs.getString("status"))
                .list();
    }
}
