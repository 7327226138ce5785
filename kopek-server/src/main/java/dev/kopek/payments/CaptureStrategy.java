package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.payments.OperationStrategy.Effects;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.PaymentMoves;
import dev.kopek.platform.Problems;
import dev.kopek.platform.SqlPart;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** A capture: confirms the pending capture (a final one releases what is left), or gives it back. */
@Component
class CaptureStrategy implements OperationStrategy {

    private final PaymentMoves moves;
    private final PaymentEvents events;
    private final PaymentEffects effects;

    CaptureStrategy(PaymentMoves moves, PaymentEvents events, PaymentEffects effects) {
        this.moves = moves;
        this.events = events;
        this.effects = effects;
    }

    @Override
    public OperationKind kind() {
        return OperationKind.CAPTURE;
    }

    @Override
    public SqlPart paymentPart(PaymentOperation done) {
        return done.status() == OperationStatus.SUCCEEDED
                ? moves.confirmCapture(done.payment(), done.amount())
                : moves.releaseCapture(done.payment(), done.amount(), done.finalCapture());
    }

    /**
     * A confirmed capture posts CAPTURED (its fee and the part of the open hold it closes computed in the statement),
     * and a final one also releases the rest of the hold, which phase 1 set aside as released.
     */
    @Override
    public Effects effects(PaymentOperation done, Payment moved) {
        if (done.status() != OperationStatus.SUCCEEDED) {
            return Effects.none(moved);
        }
        return effects.paid(moved, "captured", movements(done, moved), null);
    }

    /** A confirmed capture goes through a batch: its reservation becomes captured money, posted as alone. */
    @Override
    public Optional<Batched> batched(PaymentOperation done) {
        if (done.status() != OperationStatus.SUCCEEDED) {
            return Optional.empty();
        }
        return Optional.of(new Batched(
                PaymentMoves.AmountMove.captureConfirmed(done.id(), done.payment(), done.amount()),
                moved -> effects.paidEach(moved, "captured", movements(done, moved))));
    }

    /** CAPTURED, and for a final capture the release of what phase 1 set aside as released. */
    private List<MoneyMovement> movements(PaymentOperation done, Payment moved) {
        List<MoneyMovement> movements = new ArrayList<>();
        movements.add(events.movement(done.id(), MoneyMovement.Kind.CAPTURED, moved, done.amount()));
        if (done.finalCapture() && moved.amounts().released() > 0) {
            movements.add(events.movement(
                    done.id(),
                    MoneyMovement.Kind.AUTHORIZATION_RELEASED,
                    moved,
                    moved.amounts().released()));
        }
        return movements;
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
