package dev.kopek.support;

import dev.kopek.money.PaymentId;
import dev.kopek.payments.AfterPspCall;
import dev.kopek.psp.ChargeOutcome;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A process that dies after the PSP answered and before phase 3: armed, it throws exactly where that crash
 * would happen, so nothing of the PSP's answer is recorded. Kopek calls it after the first PSP call of every
 * operation kind (payment, capture, void, refund), so the next such call after arming is the one that dies.
 */
public final class CrashSwitch implements AfterPspCall {

    public static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(PaymentId payment) {
            super("simulated crash after the PSP answered for " + payment, null, false, false);
        }
    }

    private final AtomicBoolean armed = new AtomicBoolean();

    public void crashNextPayment() {
        armed.set(true);
    }

    /** Crashes after the next PSP call of any kind. */
    public void crashNextPspCall() {
        armed.set(true);
    }

    /** Disarms a switch the last step did not use (it was refused before reaching the PSP). */
    public void disarm() {
        armed.set(false);
    }

    @Override
    public void accept(PaymentId payment, ChargeOutcome outcome) {
        if (armed.getAndSet(false)) {
            throw new SimulatedCrash(payment);
        }
    }
}
