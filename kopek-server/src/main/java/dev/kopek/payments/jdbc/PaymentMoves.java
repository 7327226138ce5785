package dev.kopek.payments.jdbc;

import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.springframework.stereotype.Repository;

/**
 * The payment's side of a capture's, void's or refund's phase 3, as parts of phase 3's two statements, so that
 * nothing of it is a round trip of its own. In the move's statement, the CTE {@code payment} (made only when the CTE
 * {@code moved}, the operation's fenced move, has a row; it returns the payment's row): phase 1's reservation
 * ({@link Reservations}) confirmed or given back. In the answer's statement, the CTE {@code paid}: the status the
 * amounts now call for, on the row the move's statement locked.
 */
@Repository
public class PaymentMoves {

    /** The CTE of the move's statement that returns the payment's row. */
    public static final String PAYMENT = "payment";

    /** The CTE of the answer's statement that moves the payment's status. */
    public static final String PAID = "paid";

    private final Clock clock;

    PaymentMoves(Clock clock) {
        this.clock = clock;
    }

    /** A capture the PSP confirmed: its reservation becomes captured money. */
    public SqlPart confirmCapture(PaymentId id, long amount) {
        return payment("""
                SET amount_capture_pending = amount_capture_pending - :pm_amount,
                    amount_captured = amount_captured + :pm_amount, updated_at = :pm_now
                """, id, Map.of("pm_amount", amount));
    }

    /** A capture the PSP refused: its reservation, and for a final one the release of the rest, are undone. */
    public SqlPart releaseCapture(PaymentId id, long amount, boolean finalCapture) {
        return payment("""
                SET amount_capture_pending = amount_capture_pending - :pm_amount,
                    amount_released = CASE WHEN :pm_final THEN 0 ELSE amount_released END,
                    capture_finalized = CASE WHEN :pm_final THEN FALSE ELSE capture_finalized END,
                    updated_at = :pm_now
                """, id, Map.of("pm_amount", amount, "pm_final", finalCapture));
    }

    /**
     * A void the PSP confirmed: the authorization is closed (phase 1 released its amount). Only from where the
     * table allows a move to VOIDED; the caller treats a payment left out as a bug.
     */
    public SqlPart confirmVoid(PaymentId id) {
        String from = PaymentStore.inList(PaymentStatus.predecessorsOf(PaymentStatus.VOIDED));
        return payment("""
                SET status = 'VOIDED', version = version + 1, decline_code = NULL, failure_reason = NULL,
                    updated_at = :pm_now
                """, id, Map.of(), " AND status IN " + from);
    }

    /** A void the PSP refused: the authorization is capturable again. */
    public SqlPart releaseVoid(PaymentId id) {
        return payment("""
                SET amount_released = 0, capture_finalized = FALSE, updated_at = :pm_now
                """, id, Map.of(), " AND status IN " + PaymentStore.VOIDABLE_STATES);
    }

    /** A refund's reservation becomes refunded money ({@code refunded}), or goes back. */
    public SqlPart settleRefund(PaymentId id, long amount, boolean refunded) {
        return payment("""
                SET amount_refund_pending = amount_refund_pending - :pm_amount,
                    amount_refunded = amount_refunded + CASE WHEN :pm_refunded THEN :pm_amount ELSE 0 END,
                    updated_at = :pm_now
                """, id, Map.of("pm_amount", amount, "pm_refunded", refunded));
    }

    private SqlPart payment(String set, PaymentId id, Map<String, Object> more) {
        return payment(set, id, more, "");
    }

    private SqlPart payment(String set, PaymentId id, Map<String, Object> more, String guard) {
        Map<String, Object> params = new HashMap<>(more);
        params.put("pm_id", id.value());
        params.put("pm_now", Db.at(clock.instant()));
        return new SqlPart(
                PAYMENT + " AS (UPDATE payments " + set + " WHERE id = :pm_id" + guard
                        + " AND EXISTS (SELECT 1 FROM moved) RETURNING *)",
                params);
    }

    /**
     * The CTE {@code paid}: {@code locked} (the row as the move's statement left it, locked since) becomes
     * {@code after} ({@link Payment#changed}: the status its amounts call for, one more version), made once when the
     * CTE {@code source} has a row. It returns the id, so that the caller can require the row was written.
     */
    public SqlPart statusPart(Payment locked, Payment after, String source) {
        return new SqlPart(
                """
                paid AS (
                    UPDATE payments SET status = :pd_next, version = :pd_version, updated_at = :pd_now
                     WHERE id = :pd_id AND status = :pd_current AND version = :pd_seen
                       AND EXISTS (SELECT 1 FROM %s)
                    RETURNING id
                )""".formatted(source),
                Map.of(
                        "pd_next", after.status().name(),
                        "pd_version", after.version(),
                        "pd_now", Db.at(after.updatedAt()),
                        "pd_id", locked.id().value(),
                        "pd_current", locked.status().name(),
                        "pd_seen", locked.version()));
    }
}
