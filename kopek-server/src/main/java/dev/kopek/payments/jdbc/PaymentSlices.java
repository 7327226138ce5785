package dev.kopek.payments.jdbc;

import dev.kopek.platform.Db;
import dev.kopek.platform.InvariantCheck;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Payments and operations a slice at a time, in id order, with the figures the production audit judges (issue 26
 * §2): what the payments module's invariant checks read, and nothing they would have to ask another module for.
 */
@Repository
public class PaymentSlices {

    private static final String BEFORE_ALL = "00000000-0000-0000-0000-000000000000";

    private final JdbcClient jdbc;

    PaymentSlices(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** One payment's row as the audit reads it. */
    public record PaymentRow(
            UUID id,
            UUID merchant,
            String pspAccount,
            String status,
            long version,
            long authorized,
            long captured,
            long capturePending,
            long released,
            long refunded,
            long refundPending,
            long disputed,
            Instant captureBefore,
            Instant createdAt,
            Instant updatedAt) {}

    /** One capture, void or refund as the audit reads it. */
    public record OperationRow(
            UUID id,
            UUID payment,
            UUID merchant,
            String pspAccount,
            String kind,
            String status,
            long version,
            Instant createdAt,
            Instant updatedAt) {}

    public List<PaymentRow> payments(String after, int limit) {
        return jdbc.sql("""
                SELECT id, merchant_id, psp_account, status, version, amount_authorized, amount_captured,
                       amount_capture_pending, amount_released, amount_refunded, amount_refund_pending,
                       amount_disputed, capture_before, created_at, updated_at
                  FROM payments WHERE id > CAST(:after AS uuid) ORDER BY id LIMIT :limit
                """)
                .param("after", after == null ? BEFORE_ALL : after)
                .param("limit", limit)
                .query((rs, n) -> new PaymentRow(
                        rs.getObject("id", UUID.class),
                        rs.getObject("merchant_id", UUID.class),
                        rs.getString("psp_account"),
                        rs.getString("status"),
                        rs.getLong("version"),
                        rs.getLong("amount_authorized"),
                        rs.getLong("amount_captured"),
                        rs.getLong("amount_capture_pending"),
                        rs.getLong("amount_released"),
                        rs.getLong("amount_refunded"),
                        rs.getLong("amount_refund_pending"),
                        rs.getLong("amount_disputed"),
                        Db.instant(rs, "capture_before"),
                        Db.instant(rs, "created_at"),
                        Db.instant(rs, "updated_at")))
                .list();
    }

    public List<OperationRow> operations(String after, int limit) {
        return jdbc.sql("""
                SELECT o.id, o.payment_id, o.merchant_id, p.psp_account, o.kind, o.status, o.version, o.created_at,
                       o.updated_at
                  FROM payment_operations o JOIN payments p ON p.id = o.payment_id
                 WHERE o.id > CAST(:after AS uuid) ORDER BY o.id LIMIT :limit
                """)
                .param("after", after == null ? BEFORE_ALL : after)
                .param("limit", limit)
                .query((rs, n) -> new OperationRow(
                        rs.getObject("id", UUID.class),
                        rs.getObject("payment_id", UUID.class),
                        rs.getObject("merchant_id", UUID.class),
                        rs.getString("psp_account"),
                        rs.getString("kind"),
                        rs.getString("status"),
                        rs.getLong("version"),
                        Db.instant(rs, "created_at"),
                        Db.instant(rs, "updated_at")))
                .list();
    }

    public long paymentCount() {
        return InvariantCheck.rowsOf(jdbc, "payments");
    }

    public long operationCount() {
        return InvariantCheck.rowsOf(jdbc, "payment_operations");
    }
}
