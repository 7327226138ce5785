package dev.kopek.psp;

import dev.kopek.money.Money;
import java.util.Objects;

/**
 * One charge as the PSP sees it. The provider key is the whole of its idempotency. With {@code capture} false the
 * PSP only authorizes.
 */
public record ChargeRequest(String providerKey, Money amount, String paymentMethod, String reference, boolean capture) {
    public ChargeRequest {
        Objects.requireNonNull(providerKey, "providerKey");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(paymentMethod, "paymentMethod");
        if (!amount.isPositive()) {
            throw new IllegalArgumentException("a charge is for a positive amount");
        }
    }
}
