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
 * The payment row's invariants (L7, V160's trigger) as PostgreSQL enforces them, tried with plain SQL that bypasses
 * every line of Java: each write that breaks one is refused as a check violation naming the invariant, and the row
 * is unchanged.
 */
class PaymentInvariantsTest extends IntegrationTest {

    /** A write that breaks exactly one invariant of a captured payment of 1000, and the name it must report. */
    private static final Map<String, String> BREAKS = Map.ofEntries(
            Map.entry("amount = 0", "payments_amount_check"),
            Map.entry("currency = 'eur'", "payments_currency_check"),
            Map.entry("reference = ''", "payments_reference_check"),
            Map.entry("capture_method = 'later'", "payments_capture_method_check"),
            Map.entry("status = 'PAID'", "payments_status_check"),
            Map.entry("amount_refund_pending = -1", "ck_payments_amounts_not_negative"),
            Map.entry("amount_disputed = -1", "ck_payments_disputed_not_negative"),
            Map.entry("amount_authorized = 1001", "ck_payments_authorized_le_amount"),
            Map.entry("amount_capture_pending = 1", "ck_payments_captured_le_authorized"),
            Map.entry("amount_refunded = 1001, amount_authorized = 1000", "ck_payments_refunded_le_captured"),
            Map.entry("amount_captured = 0, amount_authorized = 0", "ck_payments_paid_states_have_money"),
            Map.entry("status = 'REFUNDED', amount_refunded = 999", "ck_payments_refunded_means_all"));

    @Test
    void everyInvariantRefusesAWriteThatBreaksItAndNamesIt() {
        Api api = newMerchant();
        String reference = newReference();
        assertThat(api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_ok"))
                        .status())
                .isEqualTo(201);
        String before = row(reference);

        BREAKS.forEach((change, constraint) -> assertThatThrownBy(
                        () -> jdbc.sql("UPDATE payments SET " + change + " WHERE reference = :r")
                                .param("r", reference)
                                .update())
                .as(change)
                .isInstanceOf(DataIntegrityViolationException.class)
                .rootCause()
                .isInstanceOfSatisfying(PSQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("23514");
                    assertThat(e.getServerErrorMessage().getConstraint()).isEqualTo(constraint);
                }));

        assertThat(row(reference)).isEqualTo(before);
        assertThat(jdbc.sql("UPDATE payments SET amount_refund_pending = 400 WHERE reference = :r")
                        .param("r", reference)
                        .update())
                .as("a write that keeps every invariant")
                .isEqualTo(1);
    }

    @Test
    void aMissingValueIsStillANotNullViolation() {
        Api api = newMerchant();
        String reference = newReference();
        assertThat(api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_ok"))
                        .status())
                .isEqualTo(201);

        assertThatThrownBy(() -> jdbc.sql("UPDATE payments SET amount_captured = NULL WHERE reference = :r")
                        .param("r", reference)
                        .update())
                .rootCause()
                .isInstanceOfSatisfying(
                        PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23502"));
    }

    private String row(String reference) {
        return jdbc.sql("SELECT CAST(p.* AS text) FROM payments p WHERE reference = :r")
                .param("r", reference)
                .query(String.class)
                .single();
    }
}
