package dev.kopek.payments;

import dev.kopek.psp.ChargeOutcome;
import java.util.UUID;

/**
 * Published inside phase 3's transaction when an outcome parked for a person is recorded after all (a PSP
 * notification brought it, or a person decided it): the open review item of that subject is closed with it.
 *
 * @param subject {@code payment}, {@code capture}, {@code void} or {@code refund}
 * @param resolution what was recorded, in the words of a person's decision on that subject (docs/api.md):
 *     {@code captured}, {@code authorized} or {@code failed} for a payment; {@code succeeded} or {@code failed}
 *     for a capture, void or refund
 */
public record ParkedOutcomeRecorded(String subject, UUID subjectId, String resolution) {

    /** The one vocabulary: a final outcome in the words a person would have decided it with. */
    static String resolutionOf(String subject, ChargeOutcome outcome) {
        return switch (outcome) {
            case ChargeOutcome.Succeeded s -> subject.equals("payment") ? "captured" : "succeeded";
            case ChargeOutcome.Authorized a -> "authorized";
            case ChargeOutcome.Declined d -> "failed";
            case ChargeOutcome.Failed f -> "failed";
            case ChargeOutcome.Unknown u -> throw new IllegalArgumentException("an unknown outcome settles nothing");
        };
    }
}
