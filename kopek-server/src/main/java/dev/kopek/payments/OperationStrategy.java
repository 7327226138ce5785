package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.payments.jdbc.PaymentMoves;
import dev.kopek.platform.SqlPart;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What differs between a capture, a void and a refund once phase 1 reserved its amount; everything else (the PSP
 * call, resume by lookup, the key window, fencing, notifications, the reconciler, a person's decision) is
 * {@link OperationRunner}'s and {@link OutcomeRecorder}'s. {@link #accepted} serves phase 1; every other method
 * builds a part of phase 3, whose final outcome is two statements: the move (the fence, the operation, the payment's
 * amounts) and the answer (the stored answer, the events, the payment's status, the postings).
 */
public interface OperationStrategy {

    OperationKind kind();

    /**
     * The payment's side of the final move — the reservation confirmed when {@code done} succeeded, given back when
     * it failed — as a part of the move's statement ({@code PaymentMoves}: the CTE {@code payment}, made from the
     * operation's move).
     */
    SqlPart paymentPart(PaymentOperation done);

    /**
     * What the final move writes beside its stored answer, given the payment as the move's statement left it
     * (locked): the payment's status and event, and the money movements' postings.
     */
    Effects effects(PaymentOperation done, Payment moved);

    /** The event that announces the operation's state (L9), for the caller to write with its change. */
    BusinessEvent event(PaymentOperation op);

    /** The answer stored under the operation's key once it is final. */
    StoredAnswer answer(PaymentOperation op, Payment payment);

    /**
     * The answer the client gets in phase 1 already, for a kind that runs after answering (a refund's 202): its key
     * is stored completed with it, and the run is fenced by a key of its own ({@link OperationRunner#runKey}). Empty
     * for a kind whose client waits for the outcome under its own key.
     */
    default Optional<StoredAnswer> accepted(PaymentOperation pending) {
        return Optional.empty();
    }

    /**
     * The final move {@code done}'s part of a batch of phase 3s ({@link PhaseThreeBatches}), for an outcome its kind
     * batches; empty for one it does not, which runs alone.
     */
    default Optional<Batched> batched(PaymentOperation done) {
        return Optional.empty();
    }

    /**
     * A final move in a batch: what it does to the payment's amounts in the move's statement, and what it writes
     * beside its stored answer, given the payment as that statement left it (locked).
     */
    record Batched(PaymentMoves.AmountMove amounts, Function<Payment, PaymentEffects.Paid> paid) {}

    record StoredAnswer(int status, String body) {}

    /**
     * Parts of the answer's statement ({@code parts}: CTEs made from the stored answer's CTE, or from an earlier
     * part), the events of the payment's change that the statement writes with the operation's own, and
     * {@code required}, CTEs of the parts that must each write whenever the answer is stored. {@code payment} is the
     * payment as they leave it.
     */
    record Effects(Payment payment, List<SqlPart> parts, List<BusinessEvent> events, List<String> required) {

        static final Effects NONE = none(null);

        /** Nothing beside the answer: the move's statement did all there was to do to the payment. */
        public static Effects none(Payment payment) {
            return new Effects(payment, List.of(), List.of(), List.of());
        }
    }
}
