package dev.kopek.outbox.webhooks;

import dev.kopek.money.MerchantId;
import dev.kopek.platform.Db;
import dev.kopek.platform.SecretBox;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The webhook_endpoints table. Every query is scoped by merchant (L11) except the worker's own. */
@Repository
class EndpointStore {

    private static final String COLUMNS = "id, merchant_id, url, event_types, status, version, failing_since, "
            + "disabled_reason, created_at, updated_at ";

    private final JdbcClient jdbc;

    EndpointStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Endpoint insert(
            UUID id, MerchantId merchant, String url, List<String> eventTypes, SecretBox.Sealed secret, Instant now) {
        return jdbc.sql("""
                INSERT INTO webhook_endpoints (id, merchant_id, url, event_types, secret_key_id, secret_sealed, status,
                                               created_at, updated_at)
                VALUES (:id, :merchant, :url, string_to_array(:types, ','), :keyId, :sealed, 'ENABLED', :now, :now)
                RETURNING\s""" + COLUMNS)
                .param("id", id)
                .param("merchant", merchant.value())
                .param("url", url)
                .param("types", String.join(",", eventTypes))
                .param("keyId", secret.keyId())
                .param("sealed", secret.bytes())
                .param("now", Db.at(now))
                .query(EndpointStore::map)
                .single();
    }

    /** A row whose secret is in clear or sealed by another key than {@code currentKeyId}, locked for sealing. */
    record Unsealed(UUID id, String clear, SecretBox.Sealed sealed) {
        @Override
        public String toString() {
            return "Unsealed[" + id + "]";
        }
    }

    /** Rows sealed by a key that is not configured are left alone: nothing here could open them. */
    List<Unsealed> lockUnsealed(String currentKeyId, Set<String> openable, int limit) {
        return jdbc.sql("""
                SELECT id, secret, secret_key_id, secret_sealed FROM webhook_endpoints
                 WHERE secret IS NOT NULL OR (secret_key_id <> :current AND secret_key_id IN (:openable))
                 ORDER BY id
                 LIMIT :limit
                   FOR UPDATE SKIP LOCKED
                """)
                .param("current", currentKeyId)
                .param("openable", openable)
                .param("limit", limit)
                .query((rs, n) -> new Unsealed(
                        rs.getObject("id", UUID.class),
                        rs.getString("secret"),
                        rs.getString("secret_key_id") == null
                                ? null
                                : new SecretBox.Sealed(rs.getString("secret_key_id"), rs.getBytes("secret_sealed"))))
                .list();
    }

    void storeSealed(UUID id, SecretBox.Sealed sealed) {
        jdbc.sql("""
                UPDATE webhook_endpoints SET secret = NULL, secret_key_id = :keyId, secret_sealed = :sealed
                 WHERE id = :id
                """)
                .param("keyId", sealed.keyId())
                .param("sealed", sealed.bytes())
                .param("id", id)
                .update();
    }

    /** Endpoints that are not deleted, oldest first. */
    List<Endpoint> list(MerchantId merchant) {
        return jdbc.sql("SELECT " + COLUMNS + """
                 FROM webhook_endpoints WHERE merchant_id = :merchant AND status <> 'DELETED'
                 ORDER BY created_at, id""")
                .param("merchant", merchant.value())
                .query(EndpointStore::map)
                .list();
    }

    /** How many secrets are sealed by keys outside {@code openable}: they cannot be used to sign. */
    long countUnopenable(Set<String> openable) {
        return jdbc.sql("SELECT count(*) FROM webhook_endpoints WHERE secret_key_id NOT IN (:openable)")
                .param("openable", openable)
                .query(Long.class)
                .single();
    }

    long countLive(MerchantId merchant) {
        return jdbc.sql("SELECT count(*) FROM webhook_endpoints WHERE merchant_id = :merchant AND status <> 'DELETED'")
                .param("merchant", merchant.value())
                .query(Long.class)
                .single();
    }

    Optional<Endpoint> find(MerchantId merchant, UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + """
                 FROM webhook_endpoints WHERE id = :id AND merchant_id = :merchant AND status <> 'DELETED'""")
                .param("id", id)
                .param("merchant", merchant.value())
                .query(EndpointStore::map)
                .optional();
    }

    /** Moves a live endpoint to DISABLED or DELETED, bumping its version; empty when it was not in a live state. */
    Optional<Endpoint> retire(UUID id, Endpoint.Status to, List<Endpoint.Status> from, String reason, Instant now) {
        return jdbc.sql("""
                UPDATE webhook_endpoints
                   SET status = :to, version = version + 1, disabled_reason = COALESCE(:reason, disabled_reason),
                       updated_at = :now
                 WHERE id = :id AND status IN (:from)
                RETURNING\s""" + COLUMNS)
                .param("to", to.name())
                .param("reason", reason)
                .param("now", Db.at(now))
                .param("id", id)
                .param("from", from.stream().map(Enum::name).toList())
                .query(EndpointStore::map)
                .optional();
    }

    /** An operator's re-enable of a disabled endpoint: live again, failing streak forgotten, version bumped. */
    Optional<Endpoint> reenable(UUID id, Instant now) {
        return jdbc.sql("""
                UPDATE webhook_endpoints
                   SET status = 'ENABLED', version = version + 1, failing_since = NULL, disabled_reason = NULL,
                       updated_at = :now
                 WHERE id = :id AND status = 'DISABLED'
                RETURNING\s""" + COLUMNS)
                .param("now", Db.at(now))
                .param("id", id)
                .query(EndpointStore::map)
                .optional();
    }

    /**
     * Takes the endpoint's row before an attempt's outcome is recorded. Disabling an endpoint locks its row, then
     * cancels its pending deliveries; a recording that settled its own delivery first and reached the endpoint's row
     * second waited on the other in the opposite order (a deadlock, which aborted one recording). Endpoint first,
     * then deliveries, everywhere.
     */
    void lockForRecording(UUID id) {
        jdbc.sql("SELECT 1 FROM webhook_endpoints WHERE id = :id FOR NO KEY UPDATE")
                .param("id", id)
                .query(Integer.class)
                .optional();
    }

    /** A failed attempt that started at {@code at}: the failing streak starts then unless it runs already. */
    Optional<Instant> noteFailure(UUID id, Instant at) {
        return jdbc.sql("""
                UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, :now)
                 WHERE id = :id AND status = 'ENABLED'
                RETURNING failing_since
                """)
                .param("now", Db.at(at))
                .param("id", id)
                .query((rs, n) -> Db.instant(rs, "failing_since"))
                .optional();
    }

    void noteSuccess(UUID id) {
        jdbc.sql("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = :id AND failing_since IS NOT NULL")
                .param("id", id)
                .update();
    }

    private static Endpoint map(ResultSet rs, int row) throws SQLException {
        Array types = rs.getArray("event_types");
        List<String> eventTypes = Arrays.stream((Object[]) types.getArray())
                .map(String.class::cast)
                .toList();
        return new Endpoint(
                rs.getObject("id", UUID.class),
                new MerchantId(rs.getObject("merchant_id", UUID.class)),
                rs.getString("url"),
                eventTypes,
                Endpoint.Status.valueOf(rs.getString("status")),
                rs.getInt("version"),
                Db.instant(rs, "failing_since"),
                rs.getString("disabled_reason"),
                Db.instant(rs, "created_at"),
                Db.instant(rs, "updated_at"));
    }
}
