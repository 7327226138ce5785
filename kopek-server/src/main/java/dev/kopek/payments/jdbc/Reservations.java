package dev.kopek.payments.jdbc;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Phase 1's reservation of a capture, a void or a refund on the payment (L7): one conditional UPDATE each, run on its own in
 * the transactional phase 1, or as a CTE named {@code reserved} of the one statement that claims the key, reserves
 * and inserts the operation in autocommit (made only when the CTE {@code guard} has a row).
 */
@Repository
public class Reservations {

    private final JdbcClient jdbc;
    private final Clock clock;

    Reservations(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Reserves {@code amount} for a capture in flight. One conditional UPDATE: the payment must be capturable,
     * unexpired and not finalized, and the reservation must fit inside the authorization. A final capture also
     * releases the rest, and waits until no other capture is in flight. As for refunds, the fit is a comparison
     * with what is left, never a sum that a huge amount could overflow.
     */
    public Optional<Payment> capture(MerchantId merchant, PaymentId id, long amount, boolean finalCapture) {
        return run(capture(merchant, id, amount, finalCapture, ""));
    }

    /** {@link #capture} as the CTE {@code reserved}, made only when {@code guard} has a row. */
    public SqlPart capturePart(MerchantId merchant, PaymentId id, long amount, boolean finalCapture, String guard) {
        return reserved(capture(merchant, id, amount, finalCapture, guarded(guard)));
    }

    /** Reserves a void: only an unexpired authorization with nothing captured or being captured. */
    public Optional<Payment> release(MerchantId merchant, PaymentId id) {
        return run(release(merchant, id, ""));
    }

    /** {@link #release} as the CTE {@code reserved}, made only when {@code guard} has a row. */
    public SqlPart releasePart(MerchantId merchant, PaymentId id, String guard) {
        return reserved(release(merchant, id, guarded(guard)));
    }

    /**
     * Reserves {@code amount} for a refund in flight: only a paid payment, and only what was captured and is neither
     * refunded, being refunded nor disputed (L7). A comparison with what is left, never a sum.
     */
    public Optional<Payment> refund(MerchantId merchant, PaymentId id, long amount) {
        return run(refund(merchant, id, amount, ""));
    }

    /** {@link #refund} as the CTE {@code reserved}, made only when {@code guard} has a row. */
    public SqlPart refundPart(MerchantId merchant, PaymentId id, long amount, String guard) {
        return reserved(refund(merchant, id, amount, guarded(guard)));
    }

    private SqlPart refund(MerchantId merchant, PaymentId id, long amount, String guard) {
        return new SqlPart(
                """
                UPDATE payments
                   SET amount_refund_pending = amount_refund_pending + :res_amount, updated_at = :res_now
                 WHERE id = :res_id AND merchant_id = :res_merchant AND status IN %s
                   AND :res_amount <= amount_captured - amount_refunded - amount_refund_pending - amount_disputed%s
                RETURNING *
                """.formatted(PaymentStore.REFUNDABLE_STATES, guard),
                Map.of(
                        "res_amount", amount,
                        "res_now", Db.at(clock.instant()),
                        "res_id", id.value(),
                        "res_merchant", merchant.value()));
    }

    private SqlPart capture(MerchantId merchant, PaymentId id, long amount, boolean finalCapture, String guard) {
        return new SqlPart(
                """
                UPDATE payments
                   SET amount_capture_pending = amount_capture_pending + :res_amount,
                       amount_released = CASE WHEN :res_final
                           THEN amount_authorized - amount_captured - amount_capture_pending - :res_amount
                           ELSE amount_released END,
                       capture_finalized = :res_final, updated_at = :res_now
                 WHERE id = :res_id AND merchant_id = :res_merchant AND status IN %s
                   AND NOT capture_finalized AND capture_before > :res_now
                   AND :res_amount <= amount_authorized - amount_captured - amount_capture_pending - amount_released
                   AND (NOT :res_final OR amount_capture_pending = 0)%s
                RETURNING *
                """.formatted(PaymentStore.CAPTURABLE_STATES, guard),
                Map.of(
                        "res_amount", amount,
                        "res_final", finalCapture,
                        "res_now", Db.at(clock.instant()),
                        "res_id", id.value(),
                        "res_merchant", merchant.value()));
    }

    private SqlPart release(MerchantId merchant, PaymentId id, String guard) {
        return new SqlPart(
                """
                UPDATE payments
                   SET amount_released = amount_authorized, capture_finalized = TRUE, updated_at = :res_now
                 WHERE id = :res_id AND merchant_id = :res_merchant AND status IN %s AND NOT capture_finalized
                   AND amount_captured = 0 AND amount_capture_pending = 0 AND capture_before > :res_now%s
                RETURNING *
                """.formatted(PaymentStore.VOIDABLE_STATES, guard),
                Map.of("res_now", Db.at(clock.instant()), "res_id", id.value(), "res_merchant", merchant.value()));
    }

    private static String guarded(String guard) {
        return " AND EXISTS (SELECT 1 FROM " + guard + ")";
    }

    private static SqlPart reserved(SqlPart update) {
        return new SqlPart("reserved AS (" + update.sql() + ")", update.params());
    }

    private Optional<Payment> run(SqlPart update) {
        return jdbc.sql(update.sql())
                .params(update.params())
                .query(PaymentStore::map)
                .optional();
    }
}
