package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.client.Awaited;
import dev.kopek.client.KopekClient;
import dev.kopek.client.NewPayment;
import dev.kopek.client.OperationKey;
import dev.kopek.client.Payment;
import dev.kopek.client.Result;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, the Java client against a real Kopek whose merchant pays at its own (stub) Stripe account: a payment that
 * waits for 3-D Secure is a pending result, and awaiting it answers at once with what the customer must do; once
 * Stripe's event settles it, awaiting it answers the known outcome. Charged once, counted at the stub.
 */
class KopekClientOnStripeTest extends MerchantsOnStripe {

    @Test
    void aThreeDSecurePaymentIsActionRequiredUntilStripesEventSettlesIt() {
        Merchant merchant = merchantOnStripe(StripeStub.WEBHOOK_SECRET);
        KopekClient kopek = KopekClient.builder(baseUri(), merchant.apiKey()).build();
        String reference = newReference();

        Result<Payment> created = kopek.createPayment(
                OperationKey.of(reference + "/pay"),
                NewPayment.of(reference, 3_000, "EUR", StripeStub.THREE_D_SECURE_REDIRECT));
        Awaited waiting = kopek.awaitPayment(created.value().id(), Duration.ofSeconds(30));

        assertThat(created).isInstanceOf(Result.Pending.class);
        assertThat(created.value().requiresAction()).isTrue();
        assertThat(waiting).isInstanceOfSatisfying(Awaited.ActionRequired.class, action -> {
            assertThat(action.nextAction().type()).isEqualTo("redirect_to_url");
            assertThat(action.nextAction().redirectUrl()).startsWith("https://hooks.stripe.com/3d_secure_2/");
        });

        String event = STRIPE.event(
                "payment_intent.succeeded",
                STRIPE.completeAction(intentOf(reference).path("id").asString()));
        assertThat(deliver("/v1/psp/stripe/webhooks/" + merchant.id(), event, signed(StripeStub.WEBHOOK_SECRET, event))
                        .status())
                .isEqualTo(200);
        Awaited settled = kopek.awaitPayment(created.value().id(), Duration.ofSeconds(30));

        assertThat(settled)
                .isInstanceOfSatisfying(
                        Awaited.Known.class,
                        known -> assertThat(known.payment().status()).isEqualTo("captured"));
        assertThat(settled.payment().nextAction()).isNull();
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
    }
}
