package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.Race;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Races are released together by a barrier and judged by what the PSP saw, never by timing. */
class ConcurrentRetriesTest extends IntegrationTest {

    private static final int THREADS = 24;

    @Test
    void concurrentRetriesWithOneKeyChargeOnce() throws Exception {
        SIMULATOR.configure(SimulatorConfig.defaults().withLatency(300, 300));
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        String body = Api.payment(reference, 4990, "EUR", "pm_ok");

        List<Api.Response> answers = Race.of(THREADS, i -> api.pay(key, body));

        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(jdbc.sql("SELECT count(*) FROM payments WHERE reference = :r")
                        .param("r", reference)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        String id = answers.stream()
                .filter(a -> a.status() == 201)
                .findFirst()
                .orElseThrow()
                .text("id");
        for (Api.Response answer : answers) {
            assertThat(answer.status()).isIn(201, 409);
            if (answer.status() == 201) {
                assertThat(answer.text("id")).isEqualTo(id);
                assertThat(answer.text("status")).isEqualTo("captured");
            } else {
                assertThat(answer.text("code")).isEqualTo("request_in_progress");
                assertThat(answer.header("Retry-After")).isNotNull();
            }
        }
        assertThat(answers.stream().filter(a -> a.status() == 201 && a.header("Idempotent-Replayed") == null))
                .hasSize(1);
    }

    @Test
    void concurrentAttemptsWithDifferentKeysForOneIntentChargeOnce() throws Exception {
        SIMULATOR.configure(SimulatorConfig.defaults().withLatency(200, 200));
        Api api = newMerchant();
        String reference = newReference();

        List<Api.Response> answers =
                Race.of(THREADS, i -> api.pay(Api.newKey(), Api.payment(reference, 4990, "EUR", "pm_ok")));

        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(answers).filteredOn(a -> a.status() == 201).hasSize(1);
        assertThat(answers)
                .filteredOn(a -> a.status() == 409)
                .allSatisfy(a -> assertThat(a.text("code")).isEqualTo("intent_has_live_attempt"))
                .hasSize(THREADS - 1);
    }
}
