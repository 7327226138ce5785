package dev.kopek.events;

import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Money that moved, or was reserved or released, at the PSP as Kopek recorded it. The ledger turns each into one
 * balanced journal transaction; {@code (sourceId, kind)} is unique, so a replayed or reconciled outcome posts
 * nothing twice.
 *
 * @param sourceId the operation that moved it: the payment (authorization, automatic capture), a capture, a
 *     void, a refund or a dispute
 * @param paymentId the payment the money belongs to
 */
public record MoneyMovement(
        UUID sourceId, Kind kind, MerchantId merchant, UUID paymentId, Money amount, Instant occurredAt) {

    public enum Kind {
        /** The PSP authorized: funds are held on the customer's card, nothing is payable yet. */
        AUTHORIZATION_HELD,
        /** Part or all of a hold was captured: receivable from the PSP, payable to the merchant (less fees). */
        CAPTURED,
        /** The uncaptured rest of a hold was released (void, final capture, or expiry). */
        AUTHORIZATION_RELEASED,
        /** A refund was accepted and its amount reserved from what the merchant is owed. */
        REFUND_RESERVED,
        /** The PSP confirmed the refund: the reserved amount left for the customer. */
        REFUND_SUCCEEDED,
        /** The PSP refused the refund: the reservation goes back to the merchant, once. */
        REFUND_RELEASED,
        /** A dispute withdrew funds from the merchant. */
        CHARGEBACK_WITHDRAWN,
        /** A dispute was won: the withdrawn funds came back. */
        CHARGEBACK_REVERSED
    }

    public MoneyMovement {
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(merchant, "merchant");
        Objects.requireNonNull(paymentId, "paymentId");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(occurredAt, "occurredAt");
        if (!amount.isPositive()) {
            throw new IllegalArgumentException("a movement is for a positive amount");
        }
    }
}
