package dev.kopek.payments;

import dev.kopek.events.MoneyMovement;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.ledger.Ledger;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.PaymentMoves;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.SqlPart;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

/**
 * The payment's side of a refund's and a dispute's outcome, for the refunds and disputes modules: confirm or release
 * a refund's reservation (made in phase 1, {@link PaymentOperations}) as parts of the refund's phase 3, withdraw or
 * return a chargeback. Each call must run inside the caller's transaction, which also holds the refund's or dispute's
 * own guard.
 */
@Service
public class PaymentBalances {

    private final PaymentStore payments;
    private final PaymentMoves moves;
    private final PaymentEvents events;
    private final PaymentEffects effects;
    private final Ledger ledger;
    private final ApplicationEventPublisher publisher;

    PaymentBalances(
            PaymentStore payments,
            PaymentMoves moves,
            PaymentEvents events,
            PaymentEffects effects,
            Ledger ledger,
            ApplicationEventPublisher publisher) {
        this.payments = payments;
        this.moves = moves;
        this.events = events;
        this.effects = effects;
        this.ledger = ledger;
        this.publisher = publisher;
    }

    /**
     * A refund's side of its final move, as a part of the move's statement: the reservation becomes refunded money
     * when {@code done} succeeded, and goes back when it failed. The operation's status guard makes this happen once.
     */
    public SqlPart refundPart(PaymentOperation done) {
        return moves.settleRefund(done.payment(), done.amount(), done.status() == OperationStatus.SUCCEEDED);
    }

    /**
     * What a refund's final move writes beside its answer. The PSP refunded: the payment's status and event, and
     * the posting; recorded even while a dispute is open, and an overlap with a chargeback goes to a person. The
     * PSP refused: the reservation's posting goes back.
     */
    public OperationStrategy.Effects refundEffects(PaymentOperation done, Payment moved) {
        boolean refunded = done.status() == OperationStatus.SUCCEEDED;
        MoneyMovement movement = events.movement(
                done.id(),
                refunded ? MoneyMovement.Kind.REFUND_SUCCEEDED : MoneyMovement.Kind.REFUND_RELEASED,
                moved,
                done.amount());
        Ledger.Required posting = ledger.outcomePart(movement, IdempotencyKeys.COMPLETED);
        if (!refunded) {
            return new OperationStrategy.Effects(moved, List.of(posting.part()), List.of(), List.of(posting.written()));
        }
        reviewOverlap(moved, "refund", done.id());
        return effects.paid(moved, null, List.of(), posting);
    }

    /**
     * {@link #refundPart} and {@link #refundEffects} for a batch of phase 3s: the same amounts, status, event,
     * posting and review of an overlap, built from arrays by the batch ({@link PaymentEffects#partsEach}).
     */
    public Optional<OperationStrategy.Batched> refundBatched(PaymentOperation done) {
        boolean refunded = done.status() == OperationStatus.SUCCEEDED;
        return Optional.of(new OperationStrategy.Batched(
                PaymentMoves.AmountMove.refundSettled(done.id(), done.payment(), done.amount(), refunded), moved -> {
                    MoneyMovement outcome = events.movement(
                            done.id(),
                            refunded ? MoneyMovement.Kind.REFUND_SUCCEEDED : MoneyMovement.Kind.REFUND_RELEASED,
                            moved,
                            done.amount());
                    if (!refunded) {
                        return effects.releasedEach(moved, outcome);
                    }
                    reviewOverlap(moved, "refund", done.id());
                    return effects.refundedEach(moved, outcome);
                }));
    }

    /**
     * A dispute withdrew money: always recorded and posted, whatever the payment's state (the PSP has already
     * taken it). A paid payment is DISPUTED while the dispute is open.
     */
    public Payment disputeOpened(PaymentId id, UUID disputeId, long amount) {
        Payment locked = payments.changeDisputed(id, amount, true);
        Payment after = payments.moveTo(locked, locked.statusAfterDisputeOpened());
        events.changed(after, "disputed");
        events.moved(disputeId, MoneyMovement.Kind.CHARGEBACK_WITHDRAWN, after, amount);
        if (!locked.status().isPaid()) {
            review(
                    after,
                    disputeId,
                    "chargeback of " + amount + " on a payment that is " + locked.status()
                            + ": recorded and posted; check with the PSP what it charged");
        } else {
            reviewOverlap(after, "dispute", disputeId);
        }
        return after;
    }

    /**
     * A dispute ended: won returns the money. The payment stays DISPUTED while another dispute is open, becomes
     * CHARGED_BACK once all are closed and one was lost, and otherwise returns to what its amounts say.
     */
    public Payment disputeClosed(
            PaymentId id, UUID disputeId, long amount, boolean won, boolean othersOpen, boolean anyLost) {
        Payment locked = won ? payments.changeDisputed(id, amount, false) : payments.lock(id);
        Payment after = payments.moveTo(locked, locked.statusAfterDisputeClosed(othersOpen, anyLost));
        events.changed(after);
        if (won) {
            events.moved(disputeId, MoneyMovement.Kind.CHARGEBACK_REVERSED, after, amount);
        }
        return after;
    }

    /**
     * Opens a review when refunds and chargebacks exceed what was captured after a movement that adds to one of
     * them: that movement made the overlap grow (by up to its whole amount), one review per cause.
     */
    private void reviewOverlap(Payment after, String cause, UUID causeId) {
        if (after.amounts().overlap() > 0) {
            review(
                    after,
                    causeId,
                    "a " + cause + " made refunds and chargebacks exceed the captured "
                            + after.amounts().captured() + " by "
                            + after.amounts().overlap()
                            + ": recorded and posted; the merchant lost this twice, take it up with the PSP");
        }
    }

    private void review(Payment payment, UUID causeId, String reason) {
        publisher.publishEvent(new ManualReviewRequired(payment.id(), payment.merchant(), reason, "exposure", causeId));
    }

    /** Locks the payment's row for the rest of the caller's transaction. */
    public Payment lock(PaymentId id) {
        return payments.lock(id);
    }

    public List<Payment> findByPspReference(String pspReference) {
        return payments.findByPspReference(pspReference);
    }
}
