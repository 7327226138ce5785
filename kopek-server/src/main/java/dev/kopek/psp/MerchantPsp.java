package dev.kopek.psp;

import dev.kopek.money.MerchantId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The PSP a merchant's payments go to, and the merchant's credentials there (for Stripe: the account's secret key and
 * its webhook endpoint's signing secrets). Opened from {@code merchant_psp}; never printed.
 */
public record MerchantPsp(
        MerchantId merchant, String provider, Credentials credentials, int version, Instant updatedAt) {

    public MerchantPsp {
        Objects.requireNonNull(merchant, "merchant");
        Objects.requireNonNull(provider, "provider");
    }

    /** A secret key and the webhook signing secrets (several while one is rolled); empty for the simulator. */
    public record Credentials(String secretKey, List<String> webhookSecrets) {
        public static final Credentials NONE = new Credentials("", List.of());

        public Credentials {
            Objects.requireNonNull(secretKey, "secretKey");
            webhookSecrets = List.copyOf(webhookSecrets);
        }

        @Override
        public String toString() {
            return "Credentials[secretKey=" + (secretKey.isEmpty() ? "unset" : "set") + ", webhookSecrets="
                    + webhookSecrets.size() + "]";
        }
    }
}
