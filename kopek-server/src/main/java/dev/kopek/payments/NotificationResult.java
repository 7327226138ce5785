package dev.kopek.payments;

import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.psp.ChargeOutcome;

/** What applying a PSP notification did. */
public enum NotificationResult {
    /** It recorded the outcome of an open operation. */
    APPLIED,
    /** The object was already in the state the notification reports (a duplicate or late notification). */
    IGNORED,
    /** It contradicts a final state Kopek holds: recorded, changes nothing, and needs a person. */
    CONFLICT,
    /** Kopek does not know the object yet: kept, and matched again later. */
    UNMATCHED,
    /** Someone else was writing an outcome at that moment: try again later. */
    RETRY,
    /**
     * It names an object outside the PSP account that signed it (another merchant's payment): changes nothing, is
     * never tried again, and is logged for a person (a tenant's secret speaking about another tenant's payment).
     */
    FOREIGN;

    /** A notification about an object already past open: late or duplicate if it agrees, a conflict if not. */
    static NotificationResult agreesWith(PaymentStatus status, ChargeOutcome outcome) {
        boolean agrees = switch (outcome) {
            case ChargeOutcome.Succeeded s -> status.isPaid();
            case ChargeOutcome.Authorized a ->
                status == PaymentStatus.AUTHORIZED
                        || status.isPaid()
                        || status == PaymentStatus.VOIDED
                        || status == PaymentStatus.EXPIRED;
            case ChargeOutcome.Declined d -> status == PaymentStatus.DECLINED || status == PaymentStatus.FAILED;
            case ChargeOutcome.Failed f -> !status.isPaid();
            case ChargeOutcome.Unknown u -> true;
        };
        return agrees ? IGNORED : CONFLICT;
    }
}
