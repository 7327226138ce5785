package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Phase 1 of a new payment is one statement (key, attempt and its payment.created event). The event is rendered
 * before the row exists, so it must show the attempt exactly as the stored row does: metadata in jsonb's key order,
 * times in PostgreSQL's microseconds.
 */
class PhaseOneStatementTest extends IntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void theCreatedEventShowsTheAttemptAsItIsStored() {
        Api api = newMerchant();
        String body = "{\"reference\":\"" + newReference() + "\",\"amount\":1234,\"currency\":\"EUR\","
                + "\"payment_method\":\"pm_ok\",\"description\":\"Ünïcode \\\"quoted\\\"\",\"metadata\":"
                + "{\"zeta\":\"1\",\"a\":\"2\",\"bb\":\"3\",\"ä\":\"4\",\"ab\":\"5\",\"Z\":\"ü\",\"zz\":\"\"}}";
        Api.Response paid = api.pay(Api.newKey(), body);
        assertThat(paid.status()).isEqualTo(201);
        String id = paid.text("id");

        JsonNode created = JSON.readTree(
                        jdbc.sql("""
                SELECT envelope FROM outbox WHERE public_id = :id AND event_type = 'payment.created'
                """).param("id", id).query(String.class).single())
                .get("data");
        JsonNode stored = api.get("/v1/payments/" + id).json();
        for (String field : new String[] {
            "id", "reference", "amount", "currency", "payment_method", "capture_method", "description", "created_at"
        }) {
            assertThat(created.get(field)).as(field).isEqualTo(stored.get(field));
        }
        assertThat(created.get("status").asString()).isEqualTo("processing");
        assertThat(JSON.writeValueAsString(created.get("metadata")))
                .as("the same keys in the same order as every read of the row")
                .isEqualTo(JSON.writeValueAsString(stored.get("metadata")))
                .isEqualTo(
                        "{\"Z\":\"ü\",\"a\":\"2\",\"ab\":\"5\",\"bb\":\"3\",\"zz\":\"\",\"ä\":\"4\",\"zeta\":\"1\"}");
        assertThat(recorder.typesFor(id)).containsExactly("payment.created", "payment.captured");
    }
}
