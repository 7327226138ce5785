package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * Incident 1 of the seed: the acquirer charged but answered after the read timeout. The retry inside the
 * budget carries the same provider key, so the PSP replays its first result instead of charging again.
 */
class PspTimeoutTest extends IntegrationTest {

    @Test
    void timeoutAfterChargeIsRetriedWithTheSameKeyAndChargesOnce() {
        SIMULATOR.configure(SimulatorConfig.defaults().withTimeoutHangMillis(2_500));
        Api api = newMerchant();
        String reference = newReference();

        Api.Response answer = api.pay(Api.newKey(), Api.payment(reference, 499_000, "RUB", "pm_timeout_after_charge"));

        assertThat(answer.status()).isEqualTo(201);
        assertThat(answer.text("status")).isEqualTo("captured");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        var records = recordsAtPsp(reference);
        assertThat(records).hasSize(1);
        assertThat(SIMULATOR.chargeRequests(records.getFirst().idempotencyKey()))
                .isEqualTo(2);
    }

    @Test
    void connectionResetAfterChargeIsRetriedWithTheSameKeyAndChargesOnce() {
        Api api = newMerchant();
        String reference = newReference();

        Api.Response answer = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_reset_after_charge"));

        assertThat(answer.status()).isEqualTo(201);
        assertThat(answer.text("status")).isEqualTo("captured");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void rateLimitIsUnknownAndNeverRetriedBlindly() {
        Api api = newMerchant();
        String reference = newReference();

        Api.Response answer = api.pay(Api.newKey(), Api.payment(reference, 1000, "EUR", "pm_429"));

        assertThat(answer.status()).isEqualTo(202);
        assertThat(answer.text("status")).isEqualTo("processing");
        assertThat(chargesAtPsp(reference)).isZero();
    }
}
