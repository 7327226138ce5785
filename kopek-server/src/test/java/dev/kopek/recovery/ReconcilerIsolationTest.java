package dev.kopek.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.money.RefundId;
import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, defect 7: one stuck item that throws does not end the reconciler's pass. A refund whose recording
 * fails (PostgreSQL refuses every write to its row, through a trigger this test installs and drops) stays for the
 * next pass, while the refund after it in the same pass is recorded and an authorization past its expiry is
 * closed.
 */
class ReconcilerIsolationTest extends IntegrationTest {

    private static final String TRIGGER = "refuse_one_operation_for_reconciler_isolation_test";

    @Test
    void aRefundWhoseRecordingFailsDoesNotStopTheLaterRefundsNorAuthorizationExpiry() {
        SIMULATOR.configure(SimulatorConfig.defaults().withAuthorizationTtlSeconds(60));
        Api api = newMerchant();
        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + newReference() + "\",\"amount\":5000,"
                        + "\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        assertThat(authorized.text("status")).isEqualTo("authorized");
        Instant captureBefore = Instant.parse(authorized.text("capture_before"));

        // Two refunds the PSP made but answered 500 for: unknown, and due for a lookup in that order (their grace).
        Api.Response failing = unknownRefund(api);
        clock.advance(Duration.ofSeconds(1));
        Api.Response later = unknownRefund(api);
        UUID failingId = RefundId.parse(failing.text("id")).orElseThrow().value();

        clock.advance(Duration.between(clock.instant(), captureBefore).plusMinutes(2));
        refuseWritesTo(failingId);
        try {
            reconciler.reconcileOnce();
        } finally {
            jdbc.sql("DROP TRIGGER " + TRIGGER + " ON payment_operations").update();
            SIMULATOR.configure(SimulatorConfig.defaults());
        }

        assertThat(api.get("/v1/refunds/" + failing.text("id")).text("status")).isEqualTo("pending");
        assertThat(api.get("/v1/refunds/" + later.text("id")).text("status"))
                .as("the refund after the failing one in the same pass")
                .isEqualTo("succeeded");
        assertThat(api.get("/v1/payments/" + authorized.text("id")).text("status"))
                .as("authorization expiry ran in the same pass")
                .isEqualTo("expired");
        assertThat(released(authorized.text("id"))).containsExactly(5_000L);

        clock.advance(Duration.ofSeconds(31));
        reconciler.reconcileOnce();
        assertThat(api.get("/v1/refunds/" + failing.text("id")).text("status"))
                .as("the failed item stayed for the next pass")
                .isEqualTo("succeeded");
    }

    private Api.Response unknownRefund(Api api) {
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 10_000, "EUR", "pm_ok"));
        SIMULATOR.armFault("refund", paid.text("psp_reference"), "5xx_after_success", 1);
        Api.Response refund =
                api.post("/v1/payments/" + paid.text("id") + "/refunds", Api.newKey(), "{\"amount\":3000}");
        assertThat(refund.status()).isEqualTo(202);
        reconciler.reconcileOnce();
        assertThat(api.get("/v1/refunds/" + refund.text("id")).text("status")).isEqualTo("pending");
        return refund;
    }

    /** From now on PostgreSQL refuses every update of this operation's row: its phase 3 throws. */
    private void refuseWritesTo(UUID operation) {
        jdbc.sql("""
                CREATE OR REPLACE FUNCTION refuse_operation_write() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'recording refused by ReconcilerIsolationTest';
                END $$
                """).update();
        jdbc.sql("CREATE TRIGGER " + TRIGGER + " BEFORE UPDATE ON payment_operations FOR EACH ROW WHEN (OLD.id = '"
                        + operation + "') EXECUTE FUNCTION refuse_operation_write()")
                .update();
    }

    private List<Long> released(String paymentId) {
        return jdbc.sql("""
                SELECT amount_minor FROM ledger_transactions WHERE payment_id = :p AND kind = 'AUTHORIZATION_RELEASED'
                """)
                .param("p", PaymentId.parse(paymentId).orElseThrow().value())
                .query(Long.class)
                .list();
    }
}
