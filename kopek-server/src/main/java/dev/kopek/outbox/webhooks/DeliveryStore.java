package dev.kopek.outbox.webhooks;

import dev.kopek.money.MerchantId;
import dev.kopek.platform.Db;
import dev.kopek.platform.SecretBox;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The webhook_deliveries and webhook_attempts tables. A delivery's {@code attempts} is also its fencing token:
 * a worker records an outcome only while the delivery still carries the attempt number it claimed.
 */
@Repository
public class DeliveryStore {

    private static final String COLUMNS = "d.id, d.endpoint_id, d.event_id, o.event_type, d.status, d.attempts, "
            + "d.next_attempt_at, d.last_response_code, d.created_at, d.updated_at ";

    private final JdbcClient jdbc;
    private final SecretBox box;

    DeliveryStore(JdbcClient jdbc, SecretBox box) {
        this.jdbc = jdbc;
        this.box = box;
    }

    /**
     * Claims due deliveries in one statement: each gets its next attempt number and a lease (its due time moves
     * to {@code leaseUntil}), so the HTTP call runs with no transaction open, and a worker that dies mid-call
     * leaves a delivery that is due again when the lease ends.
     */
    List<Claimed> claimDue(Instant now, Instant leaseUntil, int limit) {
        return jdbc.sql("""
                WITH due AS (
                    SELECT id, next_trigger FROM webhook_deliveries
                     WHERE status = 'PENDING' AND next_attempt_at <= :now
                     ORDER BY next_attempt_at
                     LIMIT :limit
                       FOR UPDATE SKIP LOCKED
                )
                UPDATE webhook_deliveries d
                   SET attempts = d.attempts + 1, next_attempt_at = :leaseUntil, next_trigger = 'scheduled',
                       updated_at = :now
                  FROM due, webhook_endpoints e, outbox o
                 WHERE d.id = due.id AND e.id = d.endpoint_id AND o.id = d.event_id
                RETURNING d.id, d.attempts, due.next_trigger, d.endpoint_id, e.merchant_id, e.url, e.secret,
                          e.secret_key_id, e.secret_sealed, d.event_id, o.envelope, d.created_at
                """)
                .param("now", Db.at(now))
                .param("leaseUntil", Db.at(leaseUntil))
                .param("limit", limit)
                .query((rs, n) -> new Claimed(
                        rs.getObject("id", UUID.class),
                        rs.getInt("attempts"),
                        rs.getString("next_trigger"),
                        rs.getObject("endpoint_id", UUID.class),
                        new MerchantId(rs.getObject("merchant_id", UUID.class)),
                        rs.getString("url"),
                        secret(rs),
                        rs.getObject("event_id", UUID.class),
                        rs.getString("envelope"),
                        Db.instant(rs, "created_at")))
                .list();
    }

    void insertAttempt(Claimed claimed, Instant startedAt, WebhookSender.Result result) {
        jdbc.sql("""
                INSERT INTO webhook_attempts (delivery_id, attempt, trigger, started_at, latency_ms, response_code,
                                              outcome, error)
                VALUES (:delivery, :attempt, :trigger, :startedAt, :latency, :code, :outcome, :error)
                ON CONFLICT (delivery_id, attempt) DO NOTHING
                """)
                .param("delivery", claimed.deliveryId())
                .param("attempt", claimed.attempt())
                .param("trigger", claimed.trigger())
                .param("startedAt", Db.at(startedAt))
                .param("latency", (int) Math.min(Integer.MAX_VALUE, result.latencyMillis()))
                .param("code", result.responseCode())
                .param("outcome", result.succeeded() ? "SUCCEEDED" : "FAILED")
                .param("error", result.error())
                .update();
    }

    /** Records where the delivery goes next, only as the attempt that holds it; false for a stale worker. */
    boolean settle(Claimed claimed, Delivery.Status next, Instant nextAttemptAt, Integer responseCode, Instant now) {
        return jdbc.sql("""
                UPDATE webhook_deliveries
                   SET status = :status, next_attempt_at = :nextAt, last_response_code = :code, updated_at = :now
                 WHERE id = :id AND attempts = :attempt AND status = 'PENDING'
                """)
                        .param("status", next.name())
                        .param("nextAt", Db.at(nextAttemptAt))
                        .param("code", responseCode)
                        .param("now", Db.at(now))
                        .param("id", claimed.deliveryId())
                        .param("attempt", claimed.attempt())
                        .update()
                == 1;
    }

    /**
     * Opened in memory for this attempt only; a row not sealed yet (before start-up sealing ran) is in clear. Null
     * when its key is not configured: the attempt fails and says so, the rest of the batch goes on.
     */
    private String secret(ResultSet rs) throws SQLException {
        String clear = rs.getString("secret");
        if (clear != null) {
            return clear;
        }
        try {
            return box.open(
                    new SecretBox.Sealed(rs.getString("secret_key_id"), rs.getBytes("secret_sealed")),
                    rs.getObject("endpoint_id", UUID.class).toString());
        } catch (IllegalStateException unopenable) {
            return null;
        }
    }

    Optional<Instant> firstAttemptAt(UUID deliveryId) {
        return jdbc.sql("SELECT min(started_at) AS first FROM webhook_attempts WHERE delivery_id = :id")
                .param("id", deliveryId)
                .query((rs, n) -> Db.instant(rs, "first"))
                .optional();
    }

    int cancelPending(UUID endpointId, Instant now) {
        return jdbc.sql("""
                UPDATE webhook_deliveries SET status = 'CANCELLED', updated_at = :now
                 WHERE endpoint_id = :endpoint AND status = 'PENDING'
                """)
                .param("now", Db.at(now))
                .param("endpoint", endpointId)
                .update();
    }

    /** A manual redelivery: due now, whatever state the delivery was in. Its window does not start again. */
    Optional<Delivery> redeliver(MerchantId merchant, UUID endpointId, UUID deliveryId, Instant now) {
        int updated = jdbc.sql("""
                UPDATE webhook_deliveries
                   SET status = 'PENDING', next_attempt_at = :now, next_trigger = 'manual', updated_at = :now
                 WHERE id = :id AND endpoint_id = :endpoint AND merchant_id = :merchant
                """)
                .param("now", Db.at(now))
                .param("id", deliveryId)
                .param("endpoint", endpointId)
                .param("merchant", merchant.value())
                .update();
        return updated == 1 ? find(merchant, endpointId, deliveryId) : Optional.empty();
    }

    /** Queues the endpoint's given-up deliveries (failed or cancelled) again, due now, at most {@code limit}. */
    int redeliverDead(UUID endpointId, Instant now, int limit) {
        return jdbc.sql("""
                UPDATE webhook_deliveries
                   SET status = 'PENDING', next_attempt_at = :now, next_trigger = 'manual', updated_at = :now
                 WHERE id IN (SELECT id FROM webhook_deliveries
                               WHERE endpoint_id = :endpoint AND status IN ('FAILED', 'CANCELLED')
                               ORDER BY created_at LIMIT :limit)
                """)
                .param("now", Db.at(now))
                .param("endpoint", endpointId)
                .param("limit", limit)
                .update();
    }

    Optional<Delivery> find(MerchantId merchant, UUID endpointId, UUID deliveryId) {
        return jdbc.sql("SELECT " + COLUMNS + """
                 FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
                 WHERE d.id = :id AND d.endpoint_id = :endpoint AND d.merchant_id = :merchant""")
                .param("id", deliveryId)
                .param("endpoint", endpointId)
                .param("merchant", merchant.value())
                .query(DeliveryStore::map)
                .optional();
    }

    /** The newest deliveries of an endpoint first. */
    List<Delivery> list(MerchantId merchant, UUID endpointId, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + """
                 FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
                 WHERE d.endpoint_id = :endpoint AND d.merchant_id = :merchant
                 ORDER BY d.created_at DESC, d.id DESC
                 LIMIT :limit""")
                .param("endpoint", endpointId)
                .param("merchant", merchant.value())
                .param("limit", limit)
                .query(DeliveryStore::map)
                .list();
    }

    List<Delivery.Attempt> attempts(UUID deliveryId) {
        return jdbc.sql("""
                SELECT attempt, trigger, started_at, latency_ms, response_code, outcome, error
                  FROM webhook_attempts WHERE delivery_id = :id ORDER BY attempt
                """)
                .param("id", deliveryId)
                .query((rs, n) -> new Delivery.Attempt(
                        rs.getInt("attempt"),
                        rs.getString("trigger"),
                        Db.instant(rs, "started_at"),
                        rs.getInt("latency_ms"),
                        (Integer) rs.getObject("response_code"),
                        rs.getString("outcome").equals("SUCCEEDED"),
                        rs.getString("error")))
                .list();
    }

    long pendingCount() {
        return jdbc.sql("SELECT count(*) FROM webhook_deliveries WHERE status = 'PENDING'")
                .query(Long.class)
                .single();
    }

    private static Delivery map(ResultSet rs, int row) throws SQLException {
        return new Delivery(
                rs.getObject("id", UUID.class),
                rs.getObject("endpoint_id", UUID.class),
                rs.getObject("event_id", UUID.class),
                rs.getString("event_type"),
                Delivery.Status.valueOf(rs.getString("status")),
                rs.getInt("attempts"),
                Db.instant(rs, "next_attempt_at"),
                (Integer) rs.getObject("last_response_code"),
                Db.instant(rs, "created_at"),
                Db.instant(rs, "updated_at"),
                null);
    }

    /** A delivery this worker holds for one attempt. The secret never reaches a log: see {@link #toString()}. */
    record Claimed(
            UUID deliveryId,
            int attempt,
            String trigger,
            UUID endpointId,
            MerchantId merchant,
            String url,
            String secret,
            UUID eventId,
            String envelope,
            Instant createdAt) {

        @Override
        public String toString() {
            return "Claimed[delivery=" + deliveryId + ", attempt=" + attempt + ", endpoint=" + endpointId + "]";
        }
    }
}
