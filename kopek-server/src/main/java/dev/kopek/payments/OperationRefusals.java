package dev.kopek.payments;

import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * Why a capture, void or refund did not fit, in words a merchant can act on. The conditional UPDATE already refused it;
 * this only names the reason, from the state it read.
 */
final class OperationRefusals {

    private OperationRefusals() {}

    static PaymentAnswer.Refused capture(Payment p, long amount, boolean closing, Instant now) {
        return common(p, now, "capture")
                .orElseGet(() -> amount <= 0
                        ? conflict("nothing_to_capture", "Nothing remains to capture on this payment.")
                        : p.captureFinalized()
                                ? conflict("capture_finalized", "A final capture closed this authorization.")
                                : closing && p.amounts().capturePending() > 0
                                        ? conflict(
                                                "capture_in_progress",
                                                "Another capture is in flight; retry when it is settled.")
                                        : conflict(
                                                "amount_exceeds_capturable",
                                                "At most " + p.amounts().capturable() + " can still be captured."));
    }

    static PaymentAnswer.Refused voiding(Payment p, Instant now) {
        return common(p, now, "void")
                .orElseGet(() -> p.amounts().captured() > 0 || p.amounts().capturePending() > 0
                        ? conflict("already_captured", "A payment with a capture cannot be voided; refund it instead.")
                        : conflict("authorization_closed", "This authorization can no longer be voided."));
    }

    static PaymentAnswer.Refused refund(Payment p, long amount) {
        if (!p.status().isPaid()) {
            return conflict(
                    "payment_not_captured",
                    "Only captured money can be refunded; this payment is "
                            + p.status().apiName()
                            + (p.isManualCapture() ? ". Void an uncaptured authorization instead." : "."));
        }
        return conflict(
                "amount_exceeds_refundable",
                "At most " + p.amounts().refundable() + " can still be refunded; " + amount + " was asked.");
    }

    private static Optional<PaymentAnswer.Refused> common(Payment p, Instant now, String what) {
        PaymentStatus s = p.status();
        if (s == PaymentStatus.VOIDED) {
            return Optional.of(conflict("authorization_voided", "This authorization was voided."));
        }
        if (s == PaymentStatus.EXPIRED
                || (p.captureBefore() != null && !p.captureBefore().isAfter(now))) {
            return Optional.of(
                    conflict("authorization_expired", "This authorization expired at " + p.captureBefore() + "."));
        }
        if (!p.isManualCapture()
                || s == PaymentStatus.PENDING
                || s == PaymentStatus.UNKNOWN
                || s == PaymentStatus.DECLINED
                || s == PaymentStatus.FAILED) {
            return Optional.of(conflict(
                    "payment_not_authorized",
                    "Only an authorized payment with" + " capture_method 'manual' can " + what + "; this one is "
                            + s.apiName() + "."));
        }
        if (s == PaymentStatus.REFUNDED) {
            return Optional.of(conflict("payment_refunded", "This payment was refunded in full."));
        }
        return Optional.empty();
    }

    private static PaymentAnswer.Refused conflict(String code, String detail) {
        return new PaymentAnswer.Refused(409, code, detail);
    }
}
