package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.MerchantId;
import dev.kopek.platform.SecretBox;
import dev.kopek.platform.SecretResealing;
import dev.kopek.psp.MerchantPsp;
import dev.kopek.psp.MerchantPspStore;
import dev.kopek.psp.PaymentProviders;
import dev.kopek.support.Api;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 15: after a KOPEK_SECRETS_KEY rotation, a merchant's Stripe credentials sealed by the retired key are sealed
 * again under the current key (the same runner as webhook endpoint secrets), open to the same credentials, and the
 * merchant still pays at its own Stripe account. A row sealed by a key this Kopek does not hold is left as it is.
 */
class MerchantPspResealingTest extends MerchantsOnStripe {

    private static final String SECRET = "whsec_resealed_0123456789abcdef";

    @Autowired
    SecretResealing resealing;

    @Autowired
    SecretBox box;

    @Autowired
    MerchantPspStore store;

    @Autowired
    PaymentProviders psps;

    @Test
    void credentialsSealedByARetiredKeyAreSealedAgainUnderTheCurrentKeyAndStillPay() {
        Merchant merchant = merchantOnStripe(SECRET);
        MerchantId id = MerchantId.parse(merchant.id()).orElseThrow();
        byte[] oldKey = Base64.getDecoder().decode(OLD_SECRETS_KEY);
        sealWith(new SecretBox(oldKey, List.of()), merchant);
        Merchant unopenable = merchantOnStripe(SECRET);
        sealWith(new SecretBox(SecretBox.newKey(), List.of()), unopenable);
        assertThat(sealedBy(merchant)).isEqualTo(SecretBox.keyId(oldKey));

        assertThat(resealing.resealAll()).isGreaterThanOrEqualTo(1);

        assertThat(sealedBy(merchant)).isEqualTo(box.currentKeyId());
        assertThat(store.find(id).orElseThrow().credentials())
                .isEqualTo(new MerchantPsp.Credentials(StripeStub.SECRET_KEY, List.of(SECRET)));
        assertThat(sealedBy(unopenable)).as("nothing here opens it: left alone").isNotEqualTo(box.currentKeyId());
        // The database outlives this context: later contexts must not start beside a row none of them can open.
        jdbc.sql("DELETE FROM merchant_psp WHERE merchant_id = :m")
                .param("m", unopenable.uuid())
                .update();
        psps.forget(id);
        String reference = newReference();
        Api.Response paid = merchant.api().pay(Api.newKey(), payment(reference, 900, StripeStub.OK, "automatic"));
        assertThat(paid.text("status")).isEqualTo("captured");
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
    }

    /** Seals the merchant's credentials as they are, with {@code with}, as an instance on that key would have. */
    private void sealWith(SecretBox with, Merchant merchant) {
        String json = "{\"secret_key\":\"" + StripeStub.SECRET_KEY + "\",\"webhook_secrets\":[\"" + SECRET + "\"]}";
        SecretBox.Sealed sealed = with.seal(json, "merchant_psp:" + merchant.uuid());
        jdbc.sql("""
                UPDATE merchant_psp SET credentials_key_id = :keyId, credentials_sealed = :sealed
                 WHERE merchant_id = :m
                """)
                .param("keyId", sealed.keyId())
                .param("sealed", sealed.bytes())
                .param("m", merchant.uuid())
                .update();
    }

    private String sealedBy(Merchant merchant) {
        return jdbc.sql("SELECT credentials_key_id FROM merchant_psp WHERE merchant_id = :m")
                .param("m", merchant.uuid())
                .query(String.class)
                .single();
    }
}
