package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.support.Api;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, defect 5: a merchant's own Stripe account captures an authorization once (Kopek does not know whether it
 * has multicapture), so a capture that would leave the rest capturable is refused before anything is stored or sent,
 * with a problem that says what to send instead; the same capture marked final goes through.
 */
class PartialCapturesOnStripeTest extends MerchantsOnStripe {

    @Test
    void aCaptureThatLeavesTheRestIsRefusedWhereTheAccountCapturesOnce() {
        Merchant merchant = merchantOnStripe(StripeStub.WEBHOOK_SECRET);
        Api.Response authorized =
                merchant.api().pay(Api.newKey(), payment(newReference(), 1_000, StripeStub.OK, "manual"));
        assertThat(authorized.status()).as(authorized.body()).isEqualTo(201);
        String id = authorized.text("id");
        String intent = authorized.text("psp_reference");
        long requests = STRIPE.requests().size();

        Api.Response refused = merchant.api().post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":400}");

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.text("code")).isEqualTo("partial_capture_unsupported");
        assertThat(STRIPE.requests()).as("nothing sent to Stripe").hasSize((int) requests);
        assertThat(jdbc.sql("SELECT count(*) FROM payment_operations WHERE payment_id = :p")
                        .param("p", PaymentId.parse(id).orElseThrow().value())
                        .query(Long.class)
                        .single())
                .as("nothing stored")
                .isZero();
        assertThat(merchant.api()
                        .get("/v1/payments/" + id)
                        .json()
                        .get("amount_capturable")
                        .asLong())
                .isEqualTo(1_000);

        Api.Response captured =
                merchant.api().post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":400,\"final\":true}");

        assertThat(captured.status()).as(captured.body()).isEqualTo(200);
        assertThat(STRIPE.received(intent)).as("captured once, at Stripe").isEqualTo(400);
    }
}
