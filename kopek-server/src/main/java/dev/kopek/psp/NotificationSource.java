package dev.kopek.psp;

import dev.kopek.money.MerchantId;
import java.util.Objects;
import java.util.Optional;

/**
 * Whose account at a PSP a verified notification speaks for: Kopek's configured account (the global route, its
 * secrets) or one merchant's own account (its per-merchant route, its own secrets). A notification may only move
 * objects held in that account; one tenant's signing secret never speaks about another tenant's payment.
 */
public record NotificationSource(String provider, Optional<MerchantId> merchant) {

    public NotificationSource {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(merchant, "merchant");
    }

    /** Kopek's configured PSP account: the global webhook route. */
    public static NotificationSource configured(String provider) {
        return new NotificationSource(provider, Optional.empty());
    }

    /** One merchant's own account at {@code provider}: its per-merchant webhook route. */
    public static NotificationSource merchant(String provider, MerchantId merchant) {
        return new NotificationSource(provider, Optional.of(merchant));
    }

    /** For logs and notes: the provider and, for a merchant's own account, the merchant's public id (no secret). */
    @Override
    public String toString() {
        return merchant.map(m -> provider + " account of " + m).orElse(provider + " (Kopek's account)");
    }
}
