package dev.kopek.psp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.SmallCircuit;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue 15 §3: the simulator's 5xx faults open the circuit; a new payment is then refused with 503
 * {@code psp_unavailable} and {@code Retry-After} before its key is claimed or the PSP is called; payments already in
 * flight still resolve through the reconciler's lookups; once the wait is over and the PSP answers again, the circuit
 * closes.
 */
class PspCircuitTest extends IntegrationTest {

    @DynamicPropertySource
    static void circuit(DynamicPropertyRegistry registry) {
        SmallCircuit.register(registry);
    }

    @Autowired
    MeterRegistry meters;

    private static String payment(String reference, String method) {
        return Api.payment(reference, 1_000, "EUR", method);
    }

    @Test
    void failuresOpenTheCircuitRefusedPaymentsStoreNothingAndItClosesWhenThePspRecovers() {
        Api api = newMerchant();
        List<String> inFlight = new ArrayList<>();
        List<String> chargedInFlight = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String reference = newReference();
            String method = i % 2 == 0 ? "pm_5xx_no_charge" : "pm_5xx_after_charge";
            assertThat(api.pay(Api.newKey(), payment(reference, method)).status())
                    .isEqualTo(202);
            inFlight.add(reference);
            if (i % 2 == 1) {
                chargedInFlight.add(reference);
            }
        }
        assertThat(admin().get("/v1/ops/psp").text("circuit")).isEqualTo("open");
        assertThat(meters.get("kopek.psp.circuit.state").gauge().value()).isEqualTo(1);
        Api anonymous = new Api(baseUri(), null);
        Api.Response health = anonymous.get("/actuator/health/psp");
        assertThat(health.status()).isEqualTo(503);
        assertThat(health.text("status")).isEqualTo("CIRCUIT_OPEN");
        assertThat(anonymous.get("/actuator/health").text("status"))
                .as("Kopek itself stays up")
                .isEqualTo("UP");

        String key = Api.newKey();
        String reference = newReference();
        Api.Response refused = api.pay(key, payment(reference, "pm_ok"));

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.text("code")).isEqualTo("psp_unavailable");
        assertThat(refused.header("Retry-After")).isEqualTo("600");
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(jdbc.sql("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = :key")
                        .param("key", key)
                        .query(Long.class)
                        .single())
                .as("no key claimed")
                .isZero();
        assertThat(recordsAtPsp(reference)).as("the PSP was not called").isEmpty();

        clock.advance(Duration.ofSeconds(31));
        reconciler.reconcileOnce();
        for (String stuck : inFlight) {
            String providerKey = jdbc.sql("SELECT provider_key FROM payments WHERE reference = :r")
                    .param("r", stuck)
                    .query(String.class)
                    .single();
            assertThat(SIMULATOR.lookups(providerKey))
                    .as("in flight, still looked up while open")
                    .isPositive();
        }
        for (String charged : chargedInFlight) {
            assertThat(jdbc.sql("SELECT status FROM payments WHERE reference = :r")
                            .param("r", charged)
                            .query(String.class)
                            .single())
                    .as("resolved by lookup while open")
                    .isEqualTo("CAPTURED");
            assertThat(chargesAtPsp(charged)).isEqualTo(1);
        }
        assertThat(admin().get("/v1/ops/psp").text("circuit")).isEqualTo("open");

        clock.advance(Duration.ofMinutes(10));
        Api.Response first = api.pay(key, payment(reference, "pm_ok"));
        Api.Response second = api.pay(Api.newKey(), payment(newReference(), "pm_ok"));

        assertThat(first.status()).as("the same key, retried after the wait").isEqualTo(201);
        assertThat(first.text("status")).isEqualTo("captured");
        assertThat(second.status()).isEqualTo(201);
        assertThat(admin().get("/v1/ops/psp").text("circuit")).isEqualTo("closed");
        assertThat(meters.get("kopek.psp.circuit.state").gauge().value()).isZero();
        assertThat(anonymous.get("/actuator/health/psp").status()).isEqualTo(200);
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    /**
     * A same-key retry of a payment that already has its final answer calls no PSP: while the circuit is open it is
     * still the stored answer, byte for byte, as a replay; a request that would call the PSP is still refused before
     * anything is claimed (a new key, and the same key with other parameters).
     */
    @Test
    void aFinalAnswerIsReplayedWhileTheCircuitIsOpen() {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        String body = payment(reference, "pm_ok");
        Api.Response captured = api.pay(key, body);
        assertThat(captured.status()).isEqualTo(201);
        try {
            replayWhileOpen(api, key, reference, captured);
        } finally {
            // Leave the circuit closed for the next test: past the wait, two trial payments close it.
            clock.advance(Duration.ofMinutes(10));
            api.pay(Api.newKey(), payment(newReference(), "pm_ok"));
            api.pay(Api.newKey(), payment(newReference(), "pm_ok"));
        }
        assertThat(admin().get("/v1/ops/psp").text("circuit")).isEqualTo("closed");
    }

    /**
     * Issue 24: half-open, the circuit lets a few trial payments through, and their outcomes decide whether it closes.
     * A request it lets through that then calls no PSP (a replay of a final answer, an intent that already has a paid
     * attempt) gives its permit back; kept, those permits left the circuit refusing the very trial payments it was
     * waiting for, until its wait ran out again.
     */
    @Test
    void aRequestThatCallsNoPspGivesItsHalfOpenTrialPermitBack() {
        Api api = newMerchant();
        String key = Api.newKey();
        String reference = newReference();
        Api.Response captured = api.pay(key, payment(reference, "pm_ok"));
        assertThat(captured.status()).isEqualTo(201);
        // Unknowns until the circuit opens: the last four calls decide, however the earlier tests left them.
        for (int i = 0; i < 4 && !admin().get("/v1/ops/psp").text("circuit").equals("open"); i++) {
            assertThat(api.pay(Api.newKey(), payment(newReference(), "pm_5xx_no_charge"))
                            .status())
                    .isEqualTo(202);
        }
        assertThat(admin().get("/v1/ops/psp").text("circuit")).isEqualTo("open");
        clock.advance(Duration.ofMinutes(10));

        Api.Response replay = api.pay(key, payment(reference, "pm_ok"));
        Api.Response paidAlready = api.pay(Api.newKey(), payment(reference, "pm_ok"));
        String firstTrial = newReference();
        String secondTrial = newReference();
        Api.Response first = api.pay(Api.newKey(), payment(firstTrial, "pm_ok"));
        Api.Response second = api.pay(Api.newKey(), payment(secondTrial, "pm_ok"));

        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(paidAlready.status()).as(paidAlready.body()).isEqualTo(409);
        assertThat(first.status())
                .as("a trial payment of the half-open circuit: " + first.body())
                .isEqualTo(201);
        assertThat(second.status()).as(second.body()).isEqualTo(201);
        assertThat(admin().get("/v1/ops/psp").text("circuit")).isEqualTo("closed");
        assertThat(chargesAtPsp(reference))
                .as("charged once, by the first request")
                .isEqualTo(1);
        assertThat(chargesAtPsp(firstTrial) + chargesAtPsp(secondTrial)).isEqualTo(2);
    }

    private void replayWhileOpen(Api api, String key, String reference, Api.Response captured) {
        // The last 4 calls decide: the success and three unknowns (75 %) open it.
        for (int i = 0; i < 3; i++) {
            assertThat(api.pay(Api.newKey(), payment(newReference(), "pm_5xx_no_charge"))
                            .status())
                    .isEqualTo(202);
        }
        assertThat(admin().get("/v1/ops/psp").text("circuit")).isEqualTo("open");

        Api.Response replay = api.pay(key, payment(reference, "pm_ok"));
        String newKey = Api.newKey();
        String freshReference = newReference();
        Api.Response fresh = api.pay(newKey, payment(freshReference, "pm_ok"));
        String otherReference = newReference();
        Api.Response otherBody = api.pay(key, payment(otherReference, "pm_ok"));

        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.body()).isEqualTo(captured.body());
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(chargesAtPsp(reference))
                .as("charged once, by the first request")
                .isEqualTo(1);
        assertThat(fresh.status()).isEqualTo(503);
        assertThat(fresh.text("code")).isEqualTo("psp_unavailable");
        assertThat(jdbc.sql("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = :key")
                        .param("key", newKey)
                        .query(Long.class)
                        .single())
                .as("no key claimed")
                .isZero();
        assertThat(recordsAtPsp(freshReference)).as("the PSP was not called").isEmpty();
        assertThat(otherBody.status()).isEqualTo(503);
        assertThat(recordsAtPsp(otherReference)).isEmpty();
    }
}
