package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.SmallCircuit;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15 §3, a circuit per adapter: every PSP account Kopek talks to has its own circuit, so one tenant's failures
 * refuse only that tenant's new payments. Stripe rate-limits per account: a merchant whose own Stripe account answers
 * 429 opens its own circuit and is refused with 503 {@code psp_unavailable} before its key is claimed or Stripe is
 * called, while another merchant on its own Stripe account and a merchant on Kopek's configured PSP (the simulator)
 * still pay. The circuit's state is a metric tagged with the PSP and the account, listed on {@code /v1/ops/psp} and
 * seen on {@code /actuator/health/psp}; it closes when the account answers again.
 */
class AccountCircuitsTest extends MerchantsOnStripe {

    private static final String BUSY_ACCOUNT = "sk_test_kopek_stub_busy_account";
    private static final String QUIET_ACCOUNT = "sk_test_kopek_stub_quiet_account";

    @DynamicPropertySource
    static void circuit(DynamicPropertyRegistry registry) {
        SmallCircuit.register(registry);
    }

    @Autowired
    MeterRegistry meters;

    private double state(String account) {
        return meters.get("kopek.psp.circuit.state")
                .tag("adapter", "stripe")
                .tag("account", account)
                .gauge()
                .value();
    }

    private JsonNode circuits() {
        return admin().get("/v1/ops/psp").json().path("circuits");
    }

    private static long requestsAtStripe(String reference) {
        return STRIPE.requests().stream()
                .filter(r -> reference.equals(r.form().get("metadata[kopek_reference]")))
                .count();
    }

    @Test
    void aMerchantsRateLimitedStripeAccountOpensOnlyItsOwnCircuit() {
        STRIPE.addAccount(BUSY_ACCOUNT).addAccount(QUIET_ACCOUNT);
        Merchant busy = onAccount(BUSY_ACCOUNT);
        Merchant quiet = onAccount(QUIET_ACCOUNT);
        Merchant onSimulator = merchant();
        assertThat(quiet.api()
                        .pay(Api.newKey(), payment(newReference(), 1_000, StripeStub.OK, "automatic"))
                        .status())
                .isEqualTo(201);

        for (int i = 0; i < 4; i++) {
            assertThat(busy.api()
                            .pay(Api.newKey(), payment(newReference(), 1_000, StripeStub.RATE_LIMITED, "automatic"))
                            .status())
                    .as("429 proves nothing: the payment is processing")
                    .isEqualTo(202);
        }
        assertThat(circuits().path("stripe:" + busy.id()).asString()).isEqualTo("open");
        assertThat(circuits().path("stripe:" + quiet.id()).asString()).isEqualTo("closed");
        assertThat(circuits().path("simulator").asString()).isEqualTo("closed");
        assertThat(state(busy.id())).isEqualTo(1);
        assertThat(state(quiet.id())).isZero();
        Api anonymous = new Api(baseUri(), null);
        assertThat(anonymous.get("/actuator/health/psp").text("status")).isEqualTo("CIRCUIT_OPEN");

        String key = Api.newKey();
        String reference = newReference();
        Api.Response refused = busy.api().pay(key, payment(reference, 1_000, StripeStub.OK, "automatic"));

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.text("code")).isEqualTo("psp_unavailable");
        assertThat(refused.header("Retry-After")).isEqualTo("600");
        assertThat(jdbc.sql("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = :key")
                        .param("key", key)
                        .query(Long.class)
                        .single())
                .as("no key claimed")
                .isZero();
        assertThat(requestsAtStripe(reference)).as("Stripe was not called").isZero();
        assertThat(meters.get("kopek.psp.circuit.refused")
                        .tag("adapter", "stripe")
                        .tag("account", busy.id())
                        .counter()
                        .count())
                .isEqualTo(1);

        String quietReference = newReference();
        Api.Response quietPaid =
                quiet.api().pay(Api.newKey(), payment(quietReference, 1_000, StripeStub.OK, "automatic"));
        assertThat(quietPaid.status())
                .as("another merchant's Stripe account is not refused")
                .isEqualTo(201);
        assertThat(STRIPE.chargedIntents(quietReference)).isEqualTo(1);
        String simulatorReference = newReference();
        assertThat(onSimulator
                        .api()
                        .pay(Api.newKey(), payment(simulatorReference, 1_000, "pm_ok", "automatic"))
                        .status())
                .as("nor a merchant on Kopek's configured PSP")
                .isEqualTo(201);
        assertThat(chargesAtPsp(simulatorReference)).isEqualTo(1);

        clock.advance(Duration.ofMinutes(10));
        Api.Response retried = busy.api().pay(key, payment(reference, 1_000, StripeStub.OK, "automatic"));
        assertThat(retried.status()).as("the same key, after the wait").isEqualTo(201);
        assertThat(busy.api()
                        .pay(Api.newKey(), payment(newReference(), 1_000, StripeStub.OK, "automatic"))
                        .status())
                .isEqualTo(201);
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
        assertThat(circuits().path("stripe:" + busy.id()).asString()).isEqualTo("closed");
        assertThat(state(busy.id())).isZero();
        assertThat(anonymous.get("/actuator/health/psp").status()).isEqualTo(200);
    }
}
