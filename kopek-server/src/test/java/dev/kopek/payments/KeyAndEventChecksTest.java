package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.springframework.dao.DataIntegrityViolationException;

/**
 * The one-column checks of the key table and the outbox (domains since V164) as PostgreSQL enforces them, tried with
 * plain SQL that bypasses every line of Java: each write that breaks one is refused at once, in its own statement,
 * as a check violation naming the constraint it always had, and the row is unchanged.
 */
class KeyAndEventChecksTest extends IntegrationTest {

    private static final Map<String, String> KEY_BREAKS = Map.of(
            "status = 'DONE'", "idempotency_keys_status_check",
            "attempt = -1", "ck_idempotency_keys_attempt");

    private static final Map<String, String> EVENT_BREAKS = Map.of(
            "event_type = 'Payment Captured'", "outbox_event_type_check",
            "event_type = 'payment'", "outbox_event_type_check",
            "sequence = -1", "outbox_sequence_check");

    @Test
    void everyCheckRefusesAWriteThatBreaksItAndNamesIt() {
        Api api = newMerchant();
        String key = Api.newKey();
        Api.Response paid = api.pay(key, Api.payment(newReference(), 1000, "EUR", "pm_ok"));
        assertThat(paid.status()).isEqualTo(201);
        String publicId = paid.text("id");
        String keyRow = "SELECT CAST(k.* AS text) FROM idempotency_keys k WHERE idempotency_key = '" + key + "'";
        String eventRows = "SELECT string_agg(CAST(o.* AS text), ',' ORDER BY log_position) FROM outbox o"
                + " WHERE public_id = '" + publicId + "'";
        String keyBefore = jdbc.sql(keyRow).query(String.class).single();
        String eventsBefore = jdbc.sql(eventRows).query(String.class).single();

        KEY_BREAKS.forEach((change, constraint) -> refused(
                "UPDATE idempotency_keys SET " + change + " WHERE idempotency_key = '" + key + "'", constraint));
        EVENT_BREAKS.forEach((change, constraint) ->
                refused("UPDATE outbox SET " + change + " WHERE public_id = '" + publicId + "'", constraint));
        refused(
                "INSERT INTO outbox (id, event_type, resource_type, resource_id, public_id, sequence, merchant_id,"
                        + " envelope, created_at) SELECT gen_random_uuid(), 'Payment', resource_type, resource_id, public_id,"
                        + " 99, merchant_id, envelope, created_at FROM outbox WHERE public_id = '" + publicId
                        + "' LIMIT 1",
                "outbox_event_type_check");

        assertThat(jdbc.sql(keyRow).query(String.class).single()).isEqualTo(keyBefore);
        assertThat(jdbc.sql(eventRows).query(String.class).single()).isEqualTo(eventsBefore);
        assertThatThrownBy(() -> jdbc.sql(
                                "UPDATE idempotency_keys SET status = NULL WHERE idempotency_key = '" + key + "'")
                        .update())
                .as("a missing status is still a not-null violation")
                .rootCause()
                .isInstanceOfSatisfying(
                        PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23502"));
    }

    private void refused(String sql, String constraint) {
        assertThatThrownBy(() -> jdbc.sql(sql).update())
                .as(sql)
                .isInstanceOf(DataIntegrityViolationException.class)
                .rootCause()
                .isInstanceOfSatisfying(PSQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("23514");
                    assertThat(e.getServerErrorMessage().getConstraint()).isEqualTo(constraint);
                });
    }
}
