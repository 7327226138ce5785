package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.Money;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspReferences;
import dev.kopek.psp.PspRequest;
import dev.kopek.support.Api;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15: one Kopek (configured with the simulator) runs a merchant on the simulator and a merchant on its own
 * Stripe account side by side. Each payment, capture, refund and notification reaches the merchant's own PSP, counted
 * at both PSPs; the Stripe credentials are sealed at rest and answered, audited or stored nowhere in clear.
 */
class SimulatorAndStripeSideBySideTest extends MerchantsOnStripe {

    @Autowired
    PspReferences references;

    @Autowired
    PspProperties limits;

    @Test
    void oneMerchantOnTheSimulatorAndOneOnStripeEachPayAtTheirOwnPsp() {
        Merchant onSimulator = merchant();
        Merchant onStripe = merchant();
        Api.Response set = putPsp(onStripe.id(), onStripe(StripeStub.WEBHOOK_SECRET));
        assertThat(set.status()).isEqualTo(200);
        assertThat(set.text("provider")).isEqualTo("stripe");
        assertThat(set.text("webhook_path")).isEqualTo("/v1/psp/stripe/webhooks/" + onStripe.id());

        String simulatorReference = newReference();
        Api.Response simulatorPayment =
                onSimulator.api().pay(Api.newKey(), payment(simulatorReference, 1_000, "pm_ok", "automatic"));
        String stripeReference = newReference();
        Api.Response stripePayment =
                onStripe.api().pay(Api.newKey(), payment(stripeReference, 2_000, StripeStub.OK, "manual"));

        assertThat(simulatorPayment.text("status")).isEqualTo("captured");
        assertThat(chargesAtPsp(simulatorReference)).isEqualTo(1);
        assertThat(STRIPE.chargedIntents(simulatorReference)).isZero();
        assertThat(stripePayment.text("status")).isEqualTo("authorized");
        String intent = stripePayment.text("psp_reference");
        assertThat(intent).startsWith("pi_stub");
        assertThat(recordsAtPsp(stripeReference))
                .as("the simulator never saw it")
                .isEmpty();

        String id = stripePayment.text("id");
        assertThat(onStripe.api()
                        .post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":1500,\"final\":true}")
                        .text("status"))
                .isEqualTo("captured");
        assertThat(onStripe.api()
                        .post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":500}")
                        .status())
                .isEqualTo(202);
        reconciler.reconcileOnce();
        assertThat(STRIPE.received(intent)).isEqualTo(1_500);
        assertThat(STRIPE.refunded(intent))
                .as("the reconciler ran the refund at the merchant's Stripe")
                .isEqualTo(500);
        assertThat(onStripe.api().get("/v1/payments/" + id).text("amount_refunded"))
                .isEqualTo("500");
    }

    @Test
    void aStripeMerchantsEventsAreVerifiedWithItsOwnSecretsOnItsOwnPath() {
        Merchant onStripe = merchant();
        putPsp(onStripe.id(), onStripe("whsec_rolled_out_old", StripeStub.WEBHOOK_SECRET));
        String reference = newReference();
        Api.Response processing =
                onStripe.api().pay(Api.newKey(), payment(reference, 1_200, StripeStub.HELD_AFTER_CHARGE, "automatic"));
        STRIPE.releaseHeld();
        assertThat(processing.status()).isEqualTo(202);
        JsonNode intent = intentOf(reference);
        String event = STRIPE.event("payment_intent.succeeded", intent);
        String path = "/v1/psp/stripe/webhooks/" + onStripe.id();

        assertThat(deliver("/v1/psp/stripe/webhooks", event, STRIPE.signature(event))
                        .status())
                .as("Kopek's own PSP is the simulator: no global Stripe endpoint")
                .isEqualTo(404);
        assertThat(deliver("/v1/psp/stripe/webhooks/" + merchant().id(), event, STRIPE.signature(event))
                        .status())
                .as("a merchant that names no PSP has no endpoint")
                .isEqualTo(404);
        assertThat(deliver(path, event, "t=1,v1=00").status()).isEqualTo(401);
        assertThat(deliver(path, event, STRIPE.signature(event)).status()).isEqualTo(200);

        assertThat(onStripe.api().get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("captured");
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
    }

    @Test
    void credentialsAreSealedAuditedWithoutSecretsAndThePspIsFixedOncePaymentsExist() {
        Merchant onStripe = merchant();
        Api.Response set = putPsp(onStripe.id(), onStripe(StripeStub.WEBHOOK_SECRET));
        assertThat(set.body()).doesNotContain(StripeStub.SECRET_KEY).doesNotContain(StripeStub.WEBHOOK_SECRET);
        assertThat(jdbc.sql("SELECT row_to_json(m)::text FROM merchant_psp m")
                        .query(String.class)
                        .list())
                .noneMatch(row -> row.contains(StripeStub.SECRET_KEY)
                        || row.contains(StripeStub.WEBHOOK_SECRET)
                        || row.contains("sk_test_")
                        || row.contains("whsec_"));
        assertThat(jdbc.sql("SELECT action || coalesce(after::text, '') FROM audit_events WHERE target_id = :m")
                        .param("m", onStripe.id())
                        .query(String.class)
                        .list())
                .anyMatch(a -> a.startsWith("merchant_psp.changed"))
                .noneMatch(a -> a.contains(StripeStub.SECRET_KEY) || a.contains(StripeStub.WEBHOOK_SECRET));
        assertThat(admin().get("/v1/admin/merchants/" + onStripe.id() + "/psp").text("secret_key_set"))
                .isEqualTo("true");

        onStripe.api().pay(Api.newKey(), payment(newReference(), 700, StripeStub.OK, "automatic"));
        Api.Response rotated = putPsp(onStripe.id(), onStripe(StripeStub.WEBHOOK_SECRET, "whsec_the_next_one"));
        Api.Response moved = putPsp(onStripe.id(), "{\"provider\":\"simulator\"}");

        assertThat(rotated.status()).as("credentials rotate at any time").isEqualTo(200);
        assertThat(rotated.text("version")).isEqualTo("2");
        assertThat(moved.status()).isEqualTo(409);
        assertThat(moved.text("code")).isEqualTo("psp_change_refused");
    }

    @Test
    void oddSettingsAreProblemsAndChangeNothing() {
        Merchant merchant = merchant();
        String[][] cases = {
            {"{\"provider\":\"paypal\"}", "invalid_provider"},
            {"{\"provider\":\"stripe\"}", "invalid_secret_key"},
            {
                "{\"provider\":\"stripe\",\"secret_key\":\"pk_live_abcd\",\"webhook_secrets\":[\"whsec_abcd\"]}",
                "invalid_secret_key"
            },
            {"{\"provider\":\"stripe\",\"secret_key\":\"sk_test_abcd\"}", "invalid_webhook_secrets"},
            {
                "{\"provider\":\"stripe\",\"secret_key\":\"sk_test_abcd\",\"webhook_secrets\":[1]}",
                "invalid_webhook_secrets"
            },
            {"{\"provider\":\"simulator\",\"secret_key\":\"sk_test_abcd\"}", "invalid_secret_key"},
            {"{\"provider\":\"simulator\",\"extra\":1}", "unknown_field"},
            {"[]", "invalid_json"},
        };
        for (String[] c : cases) {
            Api.Response refused = putPsp(merchant.id(), c[0]);
            assertThat(refused.status()).as(c[0]).isEqualTo(400);
            assertThat(refused.text("code")).as(c[0]).isEqualTo(c[1]);
        }
        assertThat(putPsp("mer_00000000000000000000000000000000", "{\"provider\":\"simulator\"}")
                        .status())
                .isEqualTo(404);
        assertThat(putPsp(
                                merchant.id(),
                                "{\"provider\":\"stripe\",\"secret_key\":\"sk_" + "a".repeat(20_000)
                                        + "\",\"webhook_secrets\":[\"whsec_abcd\"]}")
                        .status())
                .isBetween(400, 413);
        assertThat(admin().get("/v1/admin/merchants/" + merchant.id() + "/psp").text("source"))
                .isEqualTo("default");
        assertThat(new Api(baseUri(), null)
                        .get("/v1/admin/merchants/" + merchant.id() + "/psp")
                        .status())
                .isEqualTo(401);
    }

    /**
     * Issue 15: the PaymentIntent id of an unknown outcome (here one waiting for 3-D Secure) survives the adapter:
     * a fresh instance — a restart, another Kopek — retrieves it by id, while Stripe's search has not caught up.
     */
    @Test
    void aPaymentIntentLearnedBeforeARestartIsRetrievedByIdNotSearched() {
        PspRequest.Charge request = new PspRequest.Charge(
                "kpk_" + UUID.randomUUID().toString().replace("-", ""),
                Money.of(1_000, "EUR"),
                StripeStub.THREE_D_SECURE,
                newReference(),
                true);
        StripeProperties stripe = StripeHarness.properties(STRIPE);
        STRIPE.lagSearch();
        ChargeOutcome waiting =
                new StripePaymentProvider(stripe, limits, clock, OutboundHeaders.none(), references).execute(request);
        String intent = jdbc.sql("SELECT psp_reference FROM psp_references WHERE provider_key = :k")
                .param("k", request.providerKey())
                .query(String.class)
                .single();
        STRIPE.completeAction(intent);

        StripePaymentProvider restarted =
                new StripePaymentProvider(stripe, limits, clock, OutboundHeaders.none(), references);
        LookupResult found = restarted.lookup(request);

        assertThat(waiting).isInstanceOf(ChargeOutcome.Unknown.class);
        assertThat(STRIPE.requests().getLast().path()).isEqualTo("/v1/payment_intents/" + intent);
        assertThat(found)
                .isInstanceOfSatisfying(
                        LookupResult.Found.class,
                        f -> assertThat(f.outcome()).isInstanceOf(ChargeOutcome.Succeeded.class));
    }
}
