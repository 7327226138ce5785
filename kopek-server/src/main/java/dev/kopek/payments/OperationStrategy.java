package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;

/**
 * What differs between a capture, a void and a refund once phase 1 reserved its amount; everything else (the PSP
 * call, resume by lookup, the key window, fencing, notifications, the reconciler, a person's decision) is
 * {@link OperationRunner}'s and {@link OutcomeRecorder}'s. Each method runs inside phase 3's transaction, after the operation's own move.
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

    record StoredAnswer(int status, String body) {}
}
