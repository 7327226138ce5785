package dev.kopek.payments.jdbc;

import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

    /**
     * What an operation's final move does to its payment's amounts, for a batch: each amount moves by its delta
     * (phase 1's reservation confirmed or given back).
     */
    public record AmountMove(
            UUID operation, PaymentId payment, long capturePending, long captured, long refundPending, long refunded) {

        /** A capture the PSP confirmed: its reservation becomes captured money. */
        public static AmountMove captureConfirmed(UUID operation, PaymentId payment, long amount) {
            return new AmountMove(operation, payment, -amount, amount, 0, 0);
        }

        /** A refund's reservation becomes refunded money ({@code refunded}), or goes back. */
        public static AmountMove refundSettled(UUID operation, PaymentId payment, long amount, boolean refunded) {
            return new AmountMove(operation, payment, 0, 0, -amount, refunded ? amount : 0);
        }
    }

    /**
     * {@link #confirmCapture} and its kin for a batch of operations' final moves: the CTE {@code payment}, made from
     * the CTE {@code moved} (the operations moved, one row each, at most one per payment), that moves each moved
     * operation's payment by its {@link AmountMove} and returns the payments' rows. An operation the CTE
     * {@code moved} left out moves nothing.
     */
    public SqlPart moveEachPart(List<AmountMove> moves) {
        Map<String, Object> params = new HashMap<>();
        params.put("pms_op", moves.stream().map(AmountMove::operation).toArray(UUID[]::new));
        params.put("pms_payment", moves.stream().map(m -> m.payment().value()).toArray(UUID[]::new));
        params.put(
                "pms_capturePending",
                moves.stream().mapToLong(AmountMove::capturePending).toArray());
        params.put(
                "pms_captured", moves.stream().mapToLong(AmountMove::captured).toArray());
        params.put(
                "pms_refundPending",
                moves.stream().mapToLong(AmountMove::refundPending).toArray());
        params.put(
                "pms_refunded", moves.stream().mapToLong(AmountMove::refunded).toArray());
        params.put("pms_now", Db.at(clock.instant()));
        return new SqlPart(PAYMENT + " AS (" + MOVE_EACH + ")", params);
    }

    private static final String MOVE_EACH = """
            UPDATE payments
               SET amount_capture_pending = amount_capture_pending + d.d_capture_pending,
                   amount_captured = amount_captured + d.d_captured,
                   amount_refund_pending = amount_refund_pending + d.d_refund_pending,
                   amount_refunded = amount_refunded + d.d_refunded, updated_at = :pms_now
              FROM unnest(CAST(:pms_op AS uuid[]), CAST(:pms_payment AS uuid[]),
                          CAST(:pms_capturePending AS bigint[]), CAST(:pms_captured AS bigint[]),
                          CAST(:pms_refundPending AS bigint[]), CAST(:pms_refunded AS bigint[]))
                   AS d(d_op, d_payment, d_capture_pending, d_captured, d_refund_pending, d_refunded)
              JOIN moved mv ON mv.id = d.d_op
             WHERE payments.id = d.d_payment AND mv.payment_id = d.d_payment
            RETURNING payments.*""";

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

    /** One payment's status move in a batch: its row as locked, after it, and the key's resource that moved it. */
    public record StatusMove(UUID keyResource, Payment locked, Payment after) {}

    /**
     * {@link #statusPart} for a batch: the CTE {@code paid}, each payment's status move made when the CTE
     * {@code source} has a row whose {@code id} is its key's resource; it returns one id per payment written.
     */
    public SqlPart statusEachPart(List<StatusMove> moves, String source) {
        Map<String, Object> params = new HashMap<>();
        params.put("pds_key", moves.stream().map(StatusMove::keyResource).toArray(UUID[]::new));
        params.put("pds_id", moves.stream().map(m -> m.locked().id().value()).toArray(UUID[]::new));
        params.put(
                "pds_next", moves.stream().map(m -> m.after().status().name()).toArray(String[]::new));
        params.put(
                "pds_version", moves.stream().mapToInt(m -> m.after().version()).toArray());
        params.put(
                "pds_now",
                moves.stream()
                        .map(m -> Db.micros(m.after().updatedAt()).toString())
                        .toArray(String[]::new));
        params.put(
                "pds_current",
                moves.stream().map(m -> m.locked().status().name()).toArray(String[]::new));
        params.put(
                "pds_seen", moves.stream().mapToInt(m -> m.locked().version()).toArray());
        return new SqlPart("""
                paid AS (
                    UPDATE payments SET status = s.s_next, version = s.s_version, updated_at = s.s_now
                      FROM unnest(CAST(:pds_key AS uuid[]), CAST(:pds_id AS uuid[]), CAST(:pds_next AS text[]),
                                  CAST(:pds_version AS integer[]), CAST(:pds_now AS timestamptz[]),
                                  CAST(:pds_current AS text[]), CAST(:pds_seen AS integer[]))
                           AS s(s_key, s_id, s_next, s_version, s_now, s_current, s_seen)
                     WHERE payments.id = s.s_id AND payments.status = s.s_current AND payments.version = s.s_seen
                       AND s.s_key IN (SELECT id FROM %s)
                    RETURNING payments.id
                )""".formatted(source), params);
    }
}
