package dev.kopek.support;

import dev.kopek.money.PaymentId;
import dev.kopek.payments.AfterPspCall;
import dev.kopek.psp.ChargeOutcome;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A process that dies after the PSP answered and before phase 3: armed, it throws exactly where that crash
 * would happen, so nothing of the PSP's answer is recorded.
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

    @Override
    public void accept(PaymentId payment, ChargeOutcome outcome) {
        if (armed.getAndSet(false)) {
            throw new SimulatedCrash(payment);
        }
    }
}
