package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.payments.jdbc.PaymentStore;
import org.springframework.stereotype.Component;

/** A void: closes the authorization and releases the hold, or gives the authorization back. */
@Component
class VoidStrategy implements OperationStrategy {

    private final PaymentStore payments;
    private final PaymentEvents events;

    VoidStrategy(PaymentStore payments, PaymentEvents events) {
        this.payments = payments;
        this.events = events;
    }

    @Override
    public OperationKind kind() {
        return OperationKind.VOID;
    }

    @Override
    public Payment confirm(PaymentOperation op) {
        Payment after = payments.transition(
                        op.payment(), PaymentStatus.VOIDED, new PaymentStore.Outcome(null, null, null, null))
                .orElseThrow(() -> new IllegalStateException(
                        "void reserved on " + op.payment() + " but it is no longer authorized"));
        events.changed(after);
        events.moved(
                op.id(),
                MoneyMovement.Kind.AUTHORIZATION_RELEASED,
                after,
                after.amounts().released());
        return after;
    }

    @Override
    public Payment release(PaymentOperation op) {
        return payments.releaseVoid(op.payment());
    }

    @Override
    public BusinessEvent event(PaymentOperation op) {
        return events.operationEvent(op);
    }

    @Override
    public StoredAnswer answer(PaymentOperation op, Payment payment) {
        return CaptureStrategy.declinedOr(op, payment, "void_declined");
    }
}
