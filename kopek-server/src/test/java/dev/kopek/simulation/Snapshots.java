package dev.kopek.simulation;

import dev.kopek.simulator.AcquirerSimulator;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Reads one run's world: Kopek's rows for the run's merchants by plain SQL (the only place that knows table
 * shapes), and the PSP's record of the run's intents from the simulator (the oracle).
 */
final class Snapshots {

    private final JdbcClient jdbc;
    private final AcquirerSimulator psp;

    Snapshots(JdbcClient jdbc, AcquirerSimulator psp) {
        this.jdbc = jdbc;
        this.psp = psp;
    }

    UUID merchantId(String name) {
        return jdbc.sql("SELECT id FROM merchants WHERE name = :name")
                .param("name", name)
                .query(UUID.class)
                .single();
    }

    /** A cheap fingerprint of everything that can still move: quiescence is when it stops changing. */
    String digest(List<UUID> merchants) {
        return jdbc.sql("""
                SELECT concat_ws('|',
                  (SELECT string_agg(status || version, ',' ORDER BY id) FROM payments WHERE merchant_id IN (:m)),
                  (SELECT string_agg(status || version, ',' ORDER BY id) FROM payment_operations WHERE merchant_id IN (:m)),
                  (SELECT string_agg(status || version, ',' ORDER BY id) FROM disputes WHERE merchant_id IN (:m)),
                  (SELECT count(*) FROM manual_reviews WHERE merchant_id IN (:m) AND status = 'OPEN'),
                  (SELECT count(*) FROM outbox WHERE merchant_id IN (:m)),
                  -- Something undecided and not with a person keeps the run going even if nothing else moved:
                  -- its next try may be due only after a longer grace.
                  'undecided:' || ((SELECT count(*) FROM payments p WHERE merchant_id IN (:m)
                                      AND status IN ('PENDING', 'UNKNOWN') AND NOT EXISTS (SELECT 1 FROM
                                      manual_reviews r WHERE r.subject_id = p.id AND r.status = 'OPEN'))
                                 + (SELECT count(*) FROM payment_operations o WHERE merchant_id IN (:m)
                                      AND status IN ('PENDING', 'UNKNOWN') AND NOT EXISTS (SELECT 1 FROM
                                      manual_reviews r WHERE r.subject_id = o.id AND r.status = 'OPEN'))))
                """).param("m", merchants).query(String.class).single();
    }

    World read(
            List<UUID> merchants,
            String prefix,
            Instant now,
            List<World.Observation> observations,
            List<World.Finding> findings) {
        List<World.PspCharge> charges = psp.charges().stream()
                .filter(c -> c.reference() != null && c.reference().startsWith(prefix + "-"))
                .map(c -> new World.PspCharge(
                        c.id(),
                        c.idempotencyKey(),
                        c.reference(),
                        c.amount(),
                        c.status().toLowerCase(Locale.ROOT)))
                .toList();
        Set<String> chargeIds = new HashSet<>();
        charges.forEach(c -> chargeIds.add(c.id()));
        List<World.PspMovement> movements = psp.movements().stream()
                .filter(m -> chargeIds.contains(m.chargeId()))
                .map(m -> new World.PspMovement(
                        m.id(),
                        m.chargeId(),
                        m.type(),
                        m.amount(),
                        m.idempotencyKey(),
                        m.status().toLowerCase(Locale.ROOT)))
                .toList();
        Set<String> pspObjects = new HashSet<>(chargeIds);
        movements.forEach(m -> pspObjects.add(m.id()));
        List<World.PaymentRow> payments = payments(merchants);
        List<World.Observation> seen = new ArrayList<>(observations);
        payments.forEach(p -> seen.add(new World.Observation(publicPaymentId(p.id()), apiStatus(p.status()))));
        return new World(
                now,
                payments,
                operations(merchants),
                refunds(merchants),
                disputes(merchants),
                reviews(merchants),
                events(merchants),
                ledger(merchants),
                notifications(pspObjects),
                charges,
                movements,
                seen,
                List.copyOf(findings));
    }

    static String publicPaymentId(UUID id) {
        return "pay_" + id.toString().replace("-", "");
    }

    private static String apiStatus(String status) {
        return switch (status) {
            case "PENDING", "UNKNOWN" -> "processing";
            default -> status.toLowerCase(Locale.ROOT);
        };
    }

    private List<World.PaymentRow> payments(List<UUID> merchants) {
        return jdbc.sql("""
                SELECT id, merchant_id, reference, status, amount, amount_authorized, amount_captured,
                       amount_capture_pending, amount_released, amount_refunded, amount_refund_pending,
                       amount_disputed, psp_reference, provider_key, version, capture_before
                  FROM payments WHERE merchant_id IN (:m) ORDER BY id
                """)
                .param("m", merchants)
                .query((rs, n) -> new World.PaymentRow(
                        uuid(rs, "id"),
                        uuid(rs, "merchant_id"),
                        rs.getString("reference"),
                        rs.getString("status"),
                        rs.getLong("amount"),
                        rs.getLong("amount_authorized"),
                        rs.getLong("amount_captured"),
                        rs.getLong("amount_capture_pending"),
                        rs.getLong("amount_released"),
                        rs.getLong("amount_refunded"),
                        rs.getLong("amount_refund_pending"),
                        rs.getLong("amount_disputed"),
                        rs.getString("psp_reference"),
                        rs.getString("provider_key"),
                        rs.getLong("version"),
                        instant(rs, "capture_before")))
                .list();
    }

    private List<World.OperationRow> operations(List<UUID> merchants) {
        return jdbc.sql("""
                SELECT id, payment_id, merchant_id, kind, amount, status, version, psp_reference, provider_key,
                       failure_reason
                  FROM payment_operations WHERE merchant_id IN (:m) AND kind IN ('capture', 'void') ORDER BY id
                """)
                .param("m", merchants)
                .query((rs, n) -> new World.OperationRow(
                        uuid(rs, "id"),
                        uuid(rs, "payment_id"),
                        uuid(rs, "merchant_id"),
                        rs.getString("kind"),
                        rs.getLong("amount"),
                        rs.getString("status"),
                        rs.getLong("version"),
                        rs.getString("psp_reference"),
                        rs.getString("provider_key"),
                        rs.getString("failure_reason")))
                .list();
    }

    private List<World.RefundRow> refunds(List<UUID> merchants) {
        return jdbc.sql("""
                SELECT id, payment_id, merchant_id, amount, status, version, psp_reference, provider_key,
                       failure_reason
                  FROM payment_operations WHERE merchant_id IN (:m) AND kind = 'refund' ORDER BY id
                """)
                .param("m", merchants)
                .query((rs, n) -> new World.RefundRow(
                        uuid(rs, "id"),
                        uuid(rs, "payment_id"),
                        uuid(rs, "merchant_id"),
                        rs.getLong("amount"),
                        rs.getString("status"),
                        rs.getLong("version"),
                        rs.getString("psp_reference"),
                        rs.getString("provider_key"),
                        rs.getString("failure_reason")))
                .list();
    }

    private List<World.DisputeRow> disputes(List<UUID> merchants) {
        return jdbc.sql("""
                SELECT id, payment_id, merchant_id, psp_dispute_id, amount, status, version
                  FROM disputes WHERE merchant_id IN (:m) ORDER BY id
                """)
                .param("m", merchants)
                .query((rs, n) -> new World.DisputeRow(
                        uuid(rs, "id"),
                        uuid(rs, "payment_id"),
                        uuid(rs, "merchant_id"),
                        rs.getString("psp_dispute_id"),
                        rs.getLong("amount"),
                        rs.getString("status"),
                        rs.getLong("version")))
                .list();
    }

    private List<World.ReviewRow> reviews(List<UUID> merchants) {
        return jdbc.sql("""
                SELECT id, payment_id, subject, subject_id, status FROM manual_reviews
                 WHERE merchant_id IN (:m) ORDER BY id
                """)
                .param("m", merchants)
                .query((rs, n) -> new World.ReviewRow(
                        uuid(rs, "id"),
                        uuid(rs, "payment_id"),
                        rs.getString("subject"),
                        uuid(rs, "subject_id"),
                        rs.getString("status").equals("OPEN")))
                .list();
    }

    private List<World.EventRow> events(List<UUID> merchants) {
        return jdbc.sql("""
                SELECT log_position, event_type, resource_type, resource_id, merchant_id, sequence, envelope
                  FROM outbox WHERE merchant_id IN (:m) ORDER BY log_position
                """)
                .param("m", merchants)
                .query((rs, n) -> new World.EventRow(
                        rs.getLong("log_position"),
                        rs.getString("event_type"),
                        rs.getString("resource_type"),
                        uuid(rs, "resource_id"),
                        uuid(rs, "merchant_id"),
                        rs.getLong("sequence"),
                        rs.getString("envelope")))
                .list();
    }

    private List<World.LedgerEntry> ledger(List<UUID> merchants) {
        return jdbc.sql("""
                SELECT t.id, t.payment_id, t.kind, t.reverses, a.type, e.side, e.amount_minor, e.currency
                  FROM ledger_transactions t
                  JOIN ledger_entries e ON e.transaction_id = t.id
                  JOIN ledger_accounts a ON a.id = e.account_id
                 WHERE t.merchant_id IN (:m) ORDER BY t.id, e.line
                """)
                .param("m", merchants)
                .query((rs, n) -> new World.LedgerEntry(
                        uuid(rs, "id"),
                        uuid(rs, "payment_id"),
                        rs.getString("kind"),
                        uuid(rs, "reverses"),
                        rs.getString("type"),
                        rs.getString("side"),
                        rs.getLong("amount_minor"),
                        rs.getString("currency")))
                .list();
    }

    private List<World.NotificationRow> notifications(Set<String> pspObjects) {
        if (pspObjects.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                SELECT event_id, type, psp_reference, outcome FROM psp_notifications
                 WHERE psp_reference IN (:refs) ORDER BY received_at, id
                """)
                .param("refs", List.copyOf(pspObjects))
                .query((rs, n) -> new World.NotificationRow(
                        rs.getString("event_id"),
                        rs.getString("type"),
                        rs.getString("psp_reference"),
                        rs.getString("outcome")))
                .list();
    }

    private static UUID uuid(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, UUID.class);
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
