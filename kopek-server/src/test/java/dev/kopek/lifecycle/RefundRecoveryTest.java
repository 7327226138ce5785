package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.RefundId;
import dev.kopek.payments.NotificationResult;
import dev.kopek.payments.OperationRunner;
import dev.kopek.payments.PaymentOperations;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.support.Api;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Refund outcomes that arrive late, twice, or not at all still leave the money right. */
class RefundRecoveryTest extends LifecycleSupport {

    @Autowired
    PaymentOperations operations;

    @Autowired
    OperationRunner runner;

    /**
     * A PSP's notification of the refund's outcome as the inbox applies it: the refund read afresh, then the
     * runner's fenced phase 3. Whether it changed the refund.
     */
    private boolean applied(RefundId id, ChargeOutcome outcome) {
        return runner.apply(operations.find(id.value()).orElseThrow(), outcome) == NotificationResult.APPLIED;
    }

    @Test
    void refundWhosePspAnswerIsLostAfterRefundingIsReconciledToSucceeded() {
        Api api = newMerchant();
        var paid = charge(api, newReference(), 10_000);
        String charge = paid.get("psp_reference").asString();
        SIMULATOR.armFault("refund", charge, "5xx_after_success", 1);
        Api.Response accepted = refund(api, paid.get("id").asString(), 4_000);
        assertThat(accepted.status()).isEqualTo(202);
        assertThat(accepted.text("status")).isEqualTo("pending");

        reconciler.reconcileOnce();
        String refundPath = "/v1/refunds/" + accepted.text("id");
        assertThat(api.get(refundPath).text("status"))
                .as("unknown shows as pending")
                .isEqualTo("pending");
        assertThat(refundsAtPsp(charge)).isEqualTo(1);

        clock.advance(Duration.ofSeconds(31));
        reconciler.reconcileOnce();

        assertThat(api.get(refundPath).text("status")).isEqualTo("succeeded");
        assertThat(refundsAtPsp(charge)).isEqualTo(1);
        assertThat(amount(payment(api, paid.get("id").asString()), "amount_refunded"))
                .isEqualTo(4_000);
    }

    @Test
    void refundTimingOutAfterThePspRefundedIsRetriedWithItsKeyAndRefundsOnce() {
        Api api = newMerchant();
        var paid = charge(api, newReference(), 10_000);
        String charge = paid.get("psp_reference").asString();
        SIMULATOR.configure(SIMULATOR.config().withTimeoutHangMillis(2_500));
        SIMULATOR.armFault("refund", charge, "timeout_after_success", 1);
        Api.Response accepted = refund(api, paid.get("id").asString(), 2_500);

        reconciler.reconcileOnce();

        assertThat(api.get("/v1/refunds/" + accepted.text("id")).text("status")).isEqualTo("succeeded");
        assertThat(refundsAtPsp(charge)).isEqualTo(1);
    }

    @Test
    void failedRefundReleasesItsReservationOnceEvenWhenTheFailureArrivesTwice() throws Exception {
        Api api = newMerchant();
        var paid = charge(api, newReference(), 10_000);
        String id = paid.get("id").asString();
        SIMULATOR.armFault("refund", paid.get("psp_reference").asString(), "declined", 1);
        Api.Response accepted = refund(api, id, 7_000);
        assertThat(amount(payment(api, id), "amount_refund_pending")).isEqualTo(7_000);

        reconciler.reconcileOnce();
        var refund = api.get("/v1/refunds/" + accepted.text("id"));
        assertThat(refund.text("status")).isEqualTo("failed");
        var released = payment(api, id);
        assertThat(amount(released, "amount_refund_pending")).isZero();
        assertThat(amount(released, "amount_refunded")).isZero();

        RefundId refundId = RefundId.parse(accepted.text("id")).orElseThrow();
        List<Api.Response> ignored = dev.kopek.support.Race.of(4, i -> {
            assertThat(applied(refundId, new ChargeOutcome.Declined("refund_declined", null)))
                    .isFalse();
            return null;
        });
        assertThat(ignored).hasSize(4);
        assertThat(payment(api, id)).isEqualTo(released);
        assertThat(refund(api, id, 10_000).status())
                .as("the whole capture is refundable again")
                .isEqualTo(202);
    }

    @Test
    void unknownRefundFailureDeliveredConcurrentlyIsAppliedOnce() throws Exception {
        Api api = newMerchant();
        var paid = charge(api, newReference(), 10_000);
        String id = paid.get("id").asString();
        SIMULATOR.armFault("refund", paid.get("psp_reference").asString(), "5xx_no_effect", 1);
        Api.Response accepted = refund(api, id, 3_000);
        reconciler.reconcileOnce();
        RefundId refundId = RefundId.parse(accepted.text("id")).orElseThrow();

        List<Api.Response> deliveries = dev.kopek.support.Race.of(8, i -> {
            boolean applied = applied(refundId, new ChargeOutcome.Failed("refused by the psp"));
            return new Api.Response(applied ? 1 : 0, java.util.Map.of(), "");
        });

        assertThat(deliveries).filteredOn(d -> d.status() == 1).hasSize(1);
        var after = payment(api, id);
        assertThat(amount(after, "amount_refund_pending")).isZero();
        assertThat(amount(after, "amount_refunded")).isZero();
    }
}
