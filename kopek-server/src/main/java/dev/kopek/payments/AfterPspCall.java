package dev.kopek.payments;

import dev.kopek.money.PaymentId;
import dev.kopek.psp.ChargeOutcome;

/**
 * Runs between the PSP's first answer and phase 3 of every operation kind (payment, capture, void, refund),
 * with the payment the operation belongs to. Production does nothing here; the crash tests install one that
 * throws, which is exactly a process dying after the PSP moved money and before Kopek wrote it down.
 */
@FunctionalInterface
public interface AfterPspCall {

    void accept(PaymentId payment, ChargeOutcome outcome);

    /**
     * Runs after a PSP notification's outcome has taken a key over and before its phase 3: where a stalled process
     * would leave the key to others (a reconciler, a person). Production does nothing here; the race tests hold a
     * notification here to let another writer in deterministically.
     */
    default void afterNotificationTakeOver(PaymentId payment, ChargeOutcome outcome) {}
}
