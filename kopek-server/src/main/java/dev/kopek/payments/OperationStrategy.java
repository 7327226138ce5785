package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import java.util.Optional;

/**
 * What differs between a capture, a void and a refund once phase 1 reserved its amount; everything else (the PSP
 * call, resume by lookup, the key window, fencing, notifications, the reconciler, a person's decision) is
 * {@link OperationRunner}'s and {@link OutcomeRecorder}'s. {@link #accepted} serves phase 1; every other method runs
 * inside phase 3's transaction, after the operation's own move.
 */
public interface OperationStrategy {

    OperationKind kind();

    /** The PSP did it: confirm the reservation on the payment and post the money movements. */
    Payment confirm(PaymentOperation succeeded);

    /** The PSP certainly did not: give the reservation back. */
    Payment release(PaymentOperation failed);

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

    record StoredAnswer(int status, String body) {}
}
