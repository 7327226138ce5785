package dev.kopek.psp;

import dev.kopek.money.Money;
import java.util.Objects;

/**
 * A follow-up operation on an existing charge: capture (part of) an authorization, void it, or refund captured
 * money. Like a charge, it is idempotent by its own provider key.
 *
 * @param chargeReference the PSP's id of the charge or authorization
 * @param finalCapture for a capture: release whatever stays uncaptured
 */
public record OperationRequest(
        Kind kind, String providerKey, String chargeReference, Money amount, boolean finalCapture) {

    public enum Kind {
        CAPTURE,
        VOID,
        REFUND
    }

    public OperationRequest {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(providerKey, "providerKey");
        Objects.requireNonNull(chargeReference, "chargeReference");
        Objects.requireNonNull(amount, "amount");
    }
}
