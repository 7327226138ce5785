package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Migrations;
import dev.kopek.support.TestDatabase;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * V45 on a database written before it: the stored answer of a create request loses its clear secret, and the
 * endpoint row keeps it only until the application seals it at start-up (WebhookSecretsTest covers that step).
 */
class SealedSecretsMigrationTest {

    @Test
    void aStoredCreateAnswerWithAClearSecretIsRedacted() {
        String url = TestDatabase.newDatabase();
        DriverManagerDataSource source = new DriverManagerDataSource(url, "postgres", "");
        JdbcClient jdbc = JdbcClient.create(source);
        flyway(source, "30").migrate(); // the schema V45 was written against
        UUID merchant = UUID.randomUUID();
        UUID endpoint = UUID.randomUUID();
        String body = "{\"id\":\"we_1\",\"object\":\"webhook_endpoint\",\"url\":\"https://h.test/\","
                + "\"secret\":\"whsec_clear_before_v45\"}";
        jdbc.sql("INSERT INTO merchants (id, name, created_at) VALUES (:id, 'm', now())")
                .param("id", merchant)
                .update();
        jdbc.sql("""
                INSERT INTO webhook_endpoints (id, merchant_id, url, event_types, secret, status, created_at, updated_at)
                VALUES (:id, :merchant, 'https://h.test/', '{*}', 'whsec_clear_before_v45', 'ENABLED', now(), now())
                """).param("id", endpoint).param("merchant", merchant).update();
        jdbc.sql("""
                INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status,
                                              lease_until, expires_at, resource_id, response_code, response_body,
                                              created_at, updated_at)
                VALUES (:merchant, 'webhook_endpoint.create', 'k1', repeat('0', 64), 'COMPLETED', now(),
                        now() + interval '7 days', :id, 201, :body, now(), now())
                """)
                .param("merchant", merchant)
                .param("id", endpoint)
                .param("body", body)
                .update();

        flyway(source, "latest").migrate();

        assertThat(jdbc.sql("SELECT response_body FROM idempotency_keys")
                        .query(String.class)
                        .single())
                .isEqualTo("{\"id\":\"we_1\",\"object\":\"webhook_endpoint\",\"url\":\"https://h.test/\","
                        + "\"secret\":null,\"secret_shown_once\":true}");
        assertThat(jdbc.sql("SELECT secret FROM webhook_endpoints")
                        .query(String.class)
                        .single())
                .as("sealed by the application at start-up, which has the key")
                .isEqualTo("whsec_clear_before_v45");
    }

    private static Flyway flyway(DriverManagerDataSource source, String target) {
        return Migrations.flyway(source, target);
    }
}
