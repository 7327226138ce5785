package dev.kopek.console;

import dev.kopek.platform.ReadReplica;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The console's read model: plain SQL over the other modules' tables, rows as column-name maps for the templates.
 * Never returns a raw idempotency key (only its hash, computed in the database), an API key or a secret.
 */
@Component
public class ConsoleQueries {

    public static final int PAGE = 50;

    /** The most rows of each list a payment's story shows. */
    public static final int STORY_LIMIT = 200;

    private final JdbcClient jdbc;

    /** The console's lists and search tolerate a replica's few seconds of lag (docs/read-replicas.md). */
    ConsoleQueries(ReadReplica replica) {
        this.jdbc = replica.jdbc();
    }

    /** The search form; every field optional. */
    public record Search(
            UUID paymentId,
            String reference,
            UUID merchantId,
            String merchantName,
            String status,
            Instant from,
            Instant to) {}

    public List<Map<String, Object>> payments(Search s) {
        return jdbc.sql("""
                SELECT p.id, p.merchant_id, m.name AS merchant_name, p.reference, p.amount, p.currency, p.status,
                       p.amount_captured, p.amount_refunded, p.psp_reference, p.created_at, p.updated_at
                  FROM published_payments p JOIN published_merchants m ON m.id = p.merchant_id
                 WHERE (CAST(:id AS UUID) IS NULL OR p.id = CAST(:id AS UUID))
                   AND (CAST(:ref AS TEXT) IS NULL OR p.reference = CAST(:ref AS TEXT)
                        OR p.psp_reference = CAST(:ref AS TEXT))
                   AND (CAST(:merchant AS UUID) IS NULL OR p.merchant_id = CAST(:merchant AS UUID))
                   AND (CAST(:merchantName AS TEXT) IS NULL OR m.name ILIKE '%' || CAST(:merchantName AS TEXT) || '%')
                   AND (CAST(:status AS TEXT) IS NULL OR p.status = CAST(:status AS TEXT))
                   AND (CAST(:from AS TIMESTAMPTZ) IS NULL OR p.created_at >= CAST(:from AS TIMESTAMPTZ))
                   AND (CAST(:to AS TIMESTAMPTZ) IS NULL OR p.created_at < CAST(:to AS TIMESTAMPTZ))
                 ORDER BY p.created_at DESC, p.id DESC
                 LIMIT :limit
                """)
                .param("id", s.paymentId())
                .param("ref", s.reference())
                .param("merchant", s.merchantId())
                .param("merchantName", s.merchantName())
                .param("status", s.status())
                .param("from", at(s.from()))
                .param("to", at(s.to()))
                .param("limit", PAGE)
                .query()
                .listOfRows();
    }

    public Optional<Map<String, Object>> payment(UUID id) {
        return jdbc.sql("""
                SELECT p.*, m.name AS merchant_name FROM published_payments p JOIN published_merchants m ON m.id = p.merchant_id
                 WHERE p.id = :id
                """).param("id", id).query().listOfRows().stream().findFirst();
    }

    /**
     * Everything that happened to one payment, each list oldest first and at most {@link #STORY_LIMIT} rows long (a
     * payment refunded a thousand times, or notified about a thousand times, must not make the page unbounded); the
     * part {@code more} names each list that was cut, for the page to say so.
     */
    public Map<String, List<Map<String, Object>>> story(Map<String, Object> payment) {
        UUID id = (UUID) payment.get("id");
        Map<String, List<Map<String, Object>>> story = new LinkedHashMap<>();
        story.put("more", new ArrayList<>());
        bounded(
                story,
                "attempts",
                """
                SELECT id, status, amount, currency, psp_reference, decline_code, failure_reason, created_at, updated_at
                  FROM published_payments WHERE merchant_id = :merchant AND reference = :reference ORDER BY created_at, id
                """,
                Map.of("merchant", payment.get("merchant_id"), "reference", payment.get("reference")));
        bounded(story, "operations", """
                SELECT id, kind, amount, final, status, psp_reference, failure_reason, created_at, updated_at
                  FROM published_payment_operations WHERE payment_id = :id AND kind <> 'refund' ORDER BY created_at, id
                """, Map.of("id", id));
        bounded(story, "refunds", """
                SELECT o.id, o.amount, o.currency, o.reason, o.status, k.attempt, o.psp_reference, o.failure_reason,
                       o.created_at, o.updated_at
                  FROM published_payment_operations o
                  LEFT JOIN published_idempotency_keys k ON k.merchant_id = o.merchant_id AND k.operation = 'refund.execute'
                                              AND k.idempotency_key = o.id::text
                 WHERE o.payment_id = :id AND o.kind = 'refund' ORDER BY o.created_at, o.id
                """, Map.of("id", id));
        bounded(story, "disputes", """
                SELECT id, psp_dispute_id, amount, currency, reason, status, created_at, updated_at
                  FROM published_disputes WHERE payment_id = :id ORDER BY created_at, id
                """, Map.of("id", id));
        List<UUID> resources = resources(story, id);
        bounded(story, "keys", """
                SELECT operation, left(encode(sha256(convert_to(idempotency_key, 'UTF8')), 'hex'), 16) AS key_hash,
                       status, attempt, lease_until, response_code, resource_id, created_at, updated_at
                  FROM published_idempotency_keys WHERE merchant_id = :merchant AND resource_id IN (:resources)
                 ORDER BY created_at
                """, Map.of("merchant", payment.get("merchant_id"), "resources", resources));
        List<String> providerKeys = providerKeys(id);
        bounded(story, "pspCalls", """
                SELECT provider, operation, provider_key, outcome, psp_reference, detail, started_at, duration_ms
                  FROM published_psp_calls WHERE provider_key IN (:keys) ORDER BY started_at, id
                """, Map.of("keys", providerKeys));
        bounded(story, "notifications", """
                SELECT provider, event_id, type, psp_reference, received_at, processed_at, outcome, note
                  FROM published_psp_notifications
                 WHERE provider_key IN (:keys) OR psp_reference IN (SELECT psp_reference FROM published_payments WHERE id = :id)
                    OR psp_reference IN (SELECT psp_dispute_id FROM published_disputes WHERE payment_id = :id)
                 ORDER BY received_at, id
                """, Map.of("keys", providerKeys, "id", id));
        bounded(story, "ledger", """
                SELECT t.id AS transaction_id, t.kind, t.reverses, t.occurred_at, e.line, a.type AS account,
                       e.side, e.amount_minor, e.currency
                  FROM published_ledger_transactions t
                  JOIN published_ledger_entries e ON e.transaction_id = t.id
                  JOIN published_ledger_accounts a ON a.id = e.account_id
                 WHERE t.payment_id = :id
                 ORDER BY t.recorded_at, t.id, e.line
                """, Map.of("id", id));
        bounded(story, "events", """
                SELECT o.id, o.event_type, o.public_id, o.sequence, o.created_at, o.published_at,
                       count(d.id) AS deliveries,
                       count(d.id) FILTER (WHERE d.status = 'SUCCEEDED') AS delivered,
                       count(d.id) FILTER (WHERE d.status = 'FAILED') AS dead,
                       max(d.last_response_code) AS last_response_code
                  FROM published_outbox o LEFT JOIN published_webhook_deliveries d ON d.event_id = o.id
                 WHERE o.resource_id IN (:resources)
                 GROUP BY o.id, o.event_type, o.public_id, o.sequence, o.created_at, o.published_at, o.log_position
                 ORDER BY o.log_position
                """, Map.of("resources", resources));
        bounded(story, "reviews", """
                SELECT id, subject, status, reason, resolution, psp_reference, resolved_by, resolved_note, created_at,
                       resolved_at
                  FROM published_manual_reviews WHERE payment_id = :id ORDER BY created_at
                """, Map.of("id", id));
        return story;
    }

    private static List<UUID> resources(Map<String, List<Map<String, Object>>> story, UUID payment) {
        List<UUID> ids = new ArrayList<>();
        ids.add(payment);
        for (String part : List.of("operations", "refunds", "disputes")) {
            story.get(part).forEach(row -> ids.add((UUID) row.get("id")));
        }
        return ids;
    }

    private List<String> providerKeys(UUID payment) {
        return jdbc.sql("""
                SELECT provider_key FROM published_payments WHERE id = :id
                UNION ALL (SELECT provider_key FROM published_payment_operations WHERE payment_id = :id ORDER BY created_at, id
                            LIMIT :limit)
                """)
                .param("id", payment)
                .param("limit", STORY_LIMIT)
                .query(String.class)
                .list();
    }

    /**
     * Payments and operations whose outcome is not known yet, oldest first. Found from the unfinished keys (as
     * {@link HealthQueries#UNKNOWN_OLDEST}: an undecided attempt always has one, and the audit checks that it does),
     * each joined to its payment or operation by primary key: the list reads what is in flight, not every payment.
     */
    public List<Map<String, Object>> inFlight(int limit) {
        return jdbc.sql(IN_FLIGHT).param("limit", limit).query().listOfRows();
    }

    static final String IN_FLIGHT = """
            SELECT * FROM (
                SELECT 'payment' AS kind, p.id AS payment_id, p.id AS subject_id, p.merchant_id, p.reference,
                       p.amount, p.currency, p.status, p.updated_at, p.created_at
                  FROM published_payments p
                 WHERE p.status IN ('PENDING', 'UNKNOWN')
                   AND p.id IN (SELECT resource_id FROM published_idempotency_keys
                                 WHERE status IN ('IN_PROGRESS', 'AWAITING_RESULT') AND operation = 'payment.create')
                UNION ALL
                SELECT o.kind, o.payment_id, o.id, o.merchant_id, p.reference, o.amount, p.currency, o.status,
                       o.updated_at, o.created_at
                  FROM published_payment_operations o JOIN published_payments p ON p.id = o.payment_id
                 WHERE o.status IN ('PENDING', 'UNKNOWN')
                   AND o.id IN (SELECT resource_id FROM published_idempotency_keys
                                 WHERE status IN ('IN_PROGRESS', 'AWAITING_RESULT')
                                   AND operation IN ('payment.capture', 'payment.void', 'refund.execute'))
            ) stuck ORDER BY created_at LIMIT :limit
            """;

    public List<Map<String, Object>> openReviews(int limit) {
        return jdbc.sql("""
                SELECT r.id, r.subject, r.subject_id, r.payment_id, r.merchant_id, r.reason, r.created_at,
                       p.reference, p.amount, p.currency, p.provider_key, p.psp_reference
                  FROM published_manual_reviews r LEFT JOIN published_payments p ON p.id = r.payment_id
                 WHERE r.status = 'OPEN' ORDER BY r.created_at, r.id LIMIT :limit
                """).param("limit", limit).query().listOfRows();
    }

    public List<Map<String, Object>> deadDeliveries(int limit) {
        return jdbc.sql("""
                SELECT d.id, d.endpoint_id, d.merchant_id, d.attempts, d.last_response_code, d.created_at,
                       d.updated_at, o.event_type, o.public_id, e.url, e.status AS endpoint_status
                  FROM published_webhook_deliveries d JOIN published_outbox o ON o.id = d.event_id
                  JOIN published_webhook_endpoints e ON e.id = d.endpoint_id
                 WHERE d.status IN ('FAILED', 'CANCELLED') ORDER BY d.updated_at DESC LIMIT :limit
                """).param("limit", limit).query().listOfRows();
    }

    /**
     * PSP notifications given up after their tries (outcome dead), newest first, with the review item each one
     * opened: the payload is not shown (it is the PSP's, and may be large), only what identifies it.
     */
    public List<Map<String, Object>> deadNotifications(int limit) {
        return jdbc.sql("""
                SELECT n.id, n.provider, n.event_id, n.type, n.psp_reference, n.received_at, n.processed_at,
                       n.tries, n.note, r.id AS review_id, r.status AS review_status
                  FROM published_psp_notifications n
                  LEFT JOIN published_manual_reviews r ON r.subject = 'notification' AND r.subject_id = n.id
                 WHERE n.outcome = 'dead' ORDER BY n.processed_at DESC NULLS LAST, n.id LIMIT :limit
                """).param("limit", limit).query().listOfRows();
    }

    public List<Map<String, Object>> disabledEndpoints(int limit) {
        return jdbc.sql("""
                SELECT e.id, e.merchant_id, m.name AS merchant_name, e.url, e.failing_since, e.disabled_reason,
                       e.updated_at,
                       (SELECT count(*) FROM published_webhook_deliveries d
                         WHERE d.endpoint_id = e.id AND d.status IN ('FAILED', 'CANCELLED')) AS dead
                  FROM published_webhook_endpoints e JOIN published_merchants m ON m.id = e.merchant_id
                 WHERE e.status = 'DISABLED' ORDER BY e.updated_at DESC LIMIT :limit
                """).param("limit", limit).query().listOfRows();
    }

    public List<Map<String, Object>> settlementRuns(int limit) {
        return jdbc.sql("""
                SELECT r.id, r.provider, r.settlement_date, r.trigger, r.started_at, r.finished_at, r.breaks_seen,
                       r.new_candidates, r.reported, r.cleared, r.resolved, f.version AS file_version,
                       f.row_count AS file_rows
                  FROM published_settlement_runs r JOIN published_settlement_files f ON f.id = r.file_id
                 ORDER BY r.started_at DESC LIMIT :limit
                """).param("limit", limit).query().listOfRows();
    }

    /** Breaks counted by type and status, every type listed even at zero. */
    public List<Map<String, Object>> breakCounts() {
        return jdbc.sql("""
                SELECT t.type,
                       count(b.id) FILTER (WHERE b.status = 'CANDIDATE') AS candidate,
                       count(b.id) FILTER (WHERE b.status = 'REPORTED' AND b.acknowledged_at IS NULL) AS reported,
                       count(b.id) FILTER (WHERE b.status = 'REPORTED' AND b.acknowledged_at IS NOT NULL)
                           AS acknowledged,
                       count(b.id) FILTER (WHERE b.status = 'RESOLVED') AS resolved,
                       count(b.id) FILTER (WHERE b.status = 'CLEARED') AS cleared
                  FROM (VALUES ('MISSING_INTERNAL'), ('MISSING_AT_PSP'), ('AMOUNT_MISMATCH'), ('STATUS_MISMATCH'))
                       AS t (type)
                  LEFT JOIN published_recon_breaks b ON b.type = t.type
                 GROUP BY t.type ORDER BY t.type
                """).query().listOfRows();
    }

    /** Open breaks first (reported before candidates), then the latest closed ones. */
    public List<Map<String, Object>> breaks(String type, int limit) {
        return jdbc.sql("""
                SELECT * FROM published_recon_breaks
                 WHERE (CAST(:type AS TEXT) IS NULL OR type = CAST(:type AS TEXT))
                 ORDER BY CASE status WHEN 'REPORTED' THEN 0 WHEN 'CANDIDATE' THEN 1 ELSE 2 END,
                          settlement_date DESC, updated_at DESC
                 LIMIT :limit
                """).param("type", type).param("limit", limit).query().listOfRows();
    }

    /** One part of a story, at most {@link #STORY_LIMIT} rows; a part cut short is named in the part {@code more}. */
    private void bounded(Map<String, List<Map<String, Object>>> story, String part, String sql, Map<String, ?> params) {
        List<Map<String, Object>> rows = rows(sql + " LIMIT " + (STORY_LIMIT + 1), params);
        if (rows.size() > STORY_LIMIT) {
            story.get("more").add(Map.of("part", part, "shown", STORY_LIMIT));
            rows = rows.subList(0, STORY_LIMIT);
        }
        story.put(part, rows);
    }

    private List<Map<String, Object>> rows(String sql, Map<String, ?> params) {
        var spec = jdbc.sql(sql);
        for (var p : params.entrySet()) {
            spec = spec.param(p.getKey(), p.getValue());
        }
        return spec.query().listOfRows();
    }

    private static OffsetDateTime at(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
