package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.payments.OperationStrategy.Effects;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.PaymentMoves;
import dev.kopek.platform.SqlPart;
import java.util.List;
import org.springframework.stereotype.Component;

/** A void: closes the authorization and releases the hold, or gives the authorization back. */
@Component
class VoidStrategy implements OperationStrategy {

    private final PaymentMoves moves;
    private final PaymentEvents events;
    private final PaymentEffects effects;

    VoidStrategy(PaymentMoves moves, PaymentEvents events, PaymentEffects effects) {
        this.moves = moves;
        this.events = events;
        this.effects = effects;
    }

    @Override
    public OperationKind kind() {
        return OperationKind.VOID;
    }

    /** Success closes the authorization (the move's statement sets VOIDED); a refusal makes it capturable again. */
    @Override
    public SqlPart paymentPart(PaymentOperation done) {
        return done.status() == OperationStatus.SUCCEEDED
                ? moves.confirmVoid(done.payment())
                : moves.releaseVoid(done.payment());
    }

    /** A confirmed void announces the voided payment and releases the hold phase 1 set aside as released. */
    @Override
    public Effects effects(PaymentOperation done, Payment voided) {
        if (done.status() != OperationStatus.SUCCEEDED) {
            return Effects.none(voided);
        }
        long released = voided.amounts().released();
        return effects.announced(
                voided,
                released > 0
                        ? List.of(
                                events.movement(done.id(), MoneyMovement.Kind.AUTHORIZATION_RELEASED, voided, released))
                        : List.of());
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
