package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.Problems;
import org.springframework.stereotype.Component;

/** A capture: confirms the pending capture (a final one releases what is left), or gives it back. */
@Component
class CaptureStrategy implements OperationStrategy {

    private final PaymentStore payments;
    private final PaymentEvents events;

    CaptureStrategy(PaymentStore payments, PaymentEvents events) {
        this.payments = payments;
        this.events = events;
    }

    @Override
    public OperationKind kind() {
        return OperationKind.CAPTURE;
    }

    @Override
    public Payment confirm(PaymentOperation op) {
        Payment after = payments.moveToPaidStatus(payments.confirmCapture(op.payment(), op.amount()));
        events.changed(after, "captured");
        events.moved(op.id(), MoneyMovement.Kind.CAPTURED, after, op.amount());
        if (op.finalCapture() && after.amounts().released() > 0) {
            events.moved(
                    op.id(),
                    MoneyMovement.Kind.AUTHORIZATION_RELEASED,
                    after,
                    after.amounts().released());
        }
        return after;
    }

    @Override
    public Payment release(PaymentOperation op) {
        return payments.releaseCapture(op.payment(), op.amount(), op.finalCapture());
    }

    @Override
    public BusinessEvent event(PaymentOperation op) {
        return events.operationEvent(op);
    }

    @Override
    public StoredAnswer answer(PaymentOperation op, Payment payment) {
        return declinedOr(op, payment, "capture_declined");
    }

    /** A capture or void answers the payment as it is now, or 402 with why the PSP refused. */
    static StoredAnswer declinedOr(PaymentOperation op, Payment payment, String code) {
        return op.status() == OperationStatus.SUCCEEDED
                ? new StoredAnswer(200, PaymentJson.render(payment))
                : new StoredAnswer(
                        402,
                        Problems.json(
                                402,
                                code,
                                "The PSP refused the " + op.kind().apiName() + " (" + op.failureReason()
                                        + "); nothing changed."));
    }
}
