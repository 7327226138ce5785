package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.MerchantId;
import dev.kopek.psp.MerchantPsp;
import dev.kopek.psp.MerchantPspStore;
import dev.kopek.support.Api;
import dev.kopek.support.Race;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 15: a merchant's first payments race an admin's change of its PSP (simulator → its own Stripe account). Each
 * payment is charged once, at the PSP account it records, and later looked up and recovered there, whatever its
 * merchant's setting says by then. Counted at the simulator and at the Stripe stub.
 */
class PspChangeRaceTest extends MerchantsOnStripe {

    private static final int PAYMENTS = 4;
    private static final int ROUNDS = 8;

    @Autowired
    MerchantPspStore store;

    @Test
    void firstPaymentsRacingAPspChangeStayAtThePspTheyWereSentTo() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Merchant merchant = merchant();
            List<String> references = new ArrayList<>();
            for (int i = 0; i < PAYMENTS; i++) {
                references.add(newReference());
            }

            List<Api.Response> answers = Race.of(PAYMENTS + 1, i -> i == PAYMENTS
                    ? putPsp(merchant.id(), onStripe(StripeStub.WEBHOOK_SECRET))
                    : merchant.api().pay(Api.newKey(), payment(references.get(i), 1_000 + i, "pm_ok", "automatic")));

            int change = answers.get(PAYMENTS).status();
            assertThat(change).as("round %d: the change is made or refused", round).isIn(200, 409);
            // Made: it was wholly before every payment, which all went to Stripe. Refused: a payment came first,
            // and the merchant stayed on the simulator with all of them.
            String expected = change == 200 ? "stripe" : "configured";
            for (int i = 0; i < PAYMENTS; i++) {
                String reference = references.get(i);
                assertThat(answers.get(i).text("status")).as("round %d payment %d", round, i).isEqualTo("captured");
                assertThat(account(reference)).as("round %d payment %d: recorded account", round, i)
                        .isEqualTo(expected);
                assertThat(chargesAtPsp(reference) + STRIPE.chargedIntents(reference)).as("charged once in all")
                        .isEqualTo(1);
                assertThat(change == 409 ? chargesAtPsp(reference) : STRIPE.chargedIntents(reference))
                        .as("round %d payment %d: charged where it says", round, i).isEqualTo(1);
            }
        }
    }

    /**
     * The merchant's setting changes under an unknown payment (as an instance whose cache was stale, or the race
     * above before it was closed, could make it): the reconciler still looks the payment up at the simulator it was
     * sent to, settles it there once, and never asks Stripe.
     */
    @Test
    void anUnknownPaymentIsLookedUpWhereItWasSentWhateverItsMerchantSaysNow() {
        Merchant merchant = merchant();
        String reference = newReference();
        Api.Response unknown = merchant.api().pay(Api.newKey(), payment(reference, 2_500, "pm_5xx_after_charge",
                "automatic"));
        assertThat(unknown.status()).isEqualTo(202);
        MerchantId id = MerchantId.parse(merchant.id()).orElseThrow();
        store.save(id, "stripe", new MerchantPsp.Credentials(StripeStub.SECRET_KEY, List.of(StripeStub.WEBHOOK_SECRET)),
                clock.instant());
        String providerKey = jdbc.sql("SELECT provider_key FROM payments WHERE reference = :r")
                .param("r", reference).query(String.class).single();

        // Past the lease, inside the 5-minute signature tolerance the other classes of this context sign within.
        clock.advance(Duration.ofSeconds(31));
        reconciler.reconcileOnce();

        assertThat(merchant.api().get("/v1/payments/" + unknown.text("id")).text("status")).isEqualTo("captured");
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(STRIPE.requests()).as("Stripe was never asked about it (other tests' payments may be)")
                .noneMatch(r -> r.toString().contains(providerKey) || r.toString().contains(reference));
        assertThat(STRIPE.chargedIntents(reference)).isZero();
    }

    private String account(String reference) {
        return jdbc.sql("SELECT coalesce(psp_account, 'configured') FROM payments WHERE reference = :r")
                .param("r", reference).query(String.class).single();
    }
}
