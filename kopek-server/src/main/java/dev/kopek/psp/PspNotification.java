package dev.kopek.psp;

import java.time.Instant;

/**
 * A verified PSP notification, reduced to what Kopek acts on.
 *
 * @param type e.g. {@code charge.succeeded}, {@code refund.declined}, {@code dispute.lost}
 * @param objectId the PSP's id of the object the event is about (charge, capture, void, refund or dispute)
 * @param chargeId the charge it belongs to
 * @param providerKey the idempotency key Kopek sent for the operation; null for disputes
 * @param outcome what the event says happened to that operation
 */
public record PspNotification(
        String eventId,
        String type,
        String objectId,
        String chargeId,
        String providerKey,
        long amountMinor,
        String currency,
        String reason,
        ChargeOutcome outcome,
        Instant created,
        String raw) {

    /** The object kind: the part of the type before the dot. */
    public String objectType() {
        int dot = type.indexOf('.');
        return dot < 0 ? type : type.substring(0, dot);
    }
}
