package dev.kopek.psp;

import dev.kopek.money.Money;
import java.util.Objects;

/**
 * One request to a PSP, whatever its kind: a payment's charge (or authorization) is the fourth kind beside the
 * capture, the void and the refund of one. Every kind goes through the same three calls of the port ({@code
 * execute}, {@code executeOnce}, {@code lookup}), so the runner and every adapter's wrapper (circuit, metrics, one
 * retry) treat them alike; what differs is what each adapter sends, by kind. Every request is idempotent by its
 * own provider key, which is the whole of it at the PSP.
 */
public sealed interface PspRequest {

    String providerKey();

    Money amount();

    /** The word metrics and the PSP call log name the request by: charge, capture, void or refund. */
    String operation();

    /** A payment: charge the card, or with {@code capture} false only authorize (hold) the amount. */
    record Charge(String providerKey, Money amount, String paymentMethod, String reference, boolean capture)
            implements PspRequest {
        public Charge {
            Objects.requireNonNull(providerKey, "providerKey");
            Objects.requireNonNull(amount, "amount");
            Objects.requireNonNull(paymentMethod, "paymentMethod");
            if (!amount.isPositive()) {
                throw new IllegalArgumentException("a charge is for a positive amount");
            }
        }

        @Override
        public String operation() {
            return "charge";
        }
    }

    /**
     * Captures (part of) the authorization {@code chargeReference}; {@code finalCapture} releases whatever stays
     * uncaptured.
     */
    record Capture(String providerKey, String chargeReference, Money amount, boolean finalCapture)
            implements PspRequest {
        public Capture {
            requireFollowUp(providerKey, chargeReference, amount);
        }

        @Override
        public String operation() {
            return "capture";
        }
    }

    /** Releases the authorization {@code chargeReference} ({@code amount}: what is released). */
    record Release(String providerKey, String chargeReference, Money amount) implements PspRequest {
        public Release {
            requireFollowUp(providerKey, chargeReference, amount);
        }

        @Override
        public String operation() {
            return "void";
        }
    }

    /** Refunds captured money of the charge {@code chargeReference}. */
    record Refund(String providerKey, String chargeReference, Money amount) implements PspRequest {
        public Refund {
            requireFollowUp(providerKey, chargeReference, amount);
        }

        @Override
        public String operation() {
            return "refund";
        }
    }

    private static void requireFollowUp(String providerKey, String chargeReference, Money amount) {
        Objects.requireNonNull(providerKey, "providerKey");
        Objects.requireNonNull(chargeReference, "chargeReference");
        Objects.requireNonNull(amount, "amount");
    }
}
