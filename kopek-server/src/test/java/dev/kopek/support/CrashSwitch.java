package dev.kopek.support;

import dev.kopek.money.PaymentId;
import dev.kopek.payments.AfterPspCall;
import dev.kopek.psp.ChargeOutcome;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A process that dies after the PSP answered and before phase 3: armed, it throws exactly where that crash
 * would happen, so nothing of the PSP's answer is recorded. Kopek calls it after the first PSP call of every
 * operation kind (payment, capture, void, refund), so the next such call after arming is the one that dies.
 * It can also hold the next such call there instead, as a process stalled (a long GC pause, a frozen VM) past its
 * lease would be, and let it go on later; and hold the next PSP notification between its take-over of a key and its
 * phase 3, so another writer can be let in at exactly that point.
 */
public final class CrashSwitch implements AfterPspCall {

    public static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(PaymentId payment) {
            super("simulated crash after the PSP answered for " + payment, null, false, false);
        }
    }

    /** A held call: {@code reached} opens when it is held, {@code released} when it may go on. */
    public record Pause(CountDownLatch reached, CountDownLatch released) {

        public void awaitReached() throws InterruptedException {
            if (!reached.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no call reached the pause");
            }
        }

        public void release() {
            released.countDown();
        }
    }

    private final AtomicBoolean armed = new AtomicBoolean();
    private final AtomicReference<Pause> pause = new AtomicReference<>();
    private final AtomicReference<Pause> notificationPause = new AtomicReference<>();

    public void crashNextPayment() {
        armed.set(true);
    }

    /** Crashes after the next PSP call of any kind. */
    public void crashNextPspCall() {
        armed.set(true);
    }

    /**
     * Disarms a switch the last step did not use (it was refused before reaching the PSP), and lets go of a notification
     * pause no notification reached.
     */
    public void disarm() {
        armed.set(false);
        Pause unused = notificationPause.getAndSet(null);
        if (unused != null) {
            unused.release();
        }
    }

    /** Holds the next PSP call's thread after the PSP answered, before phase 3, until released (at most 30 s). */
    public Pause pauseNextPspCall() {
        Pause next = new Pause(new CountDownLatch(1), new CountDownLatch(1));
        pause.set(next);
        return next;
    }

    /**
     * Holds the next PSP notification that takes a key over, after its take-over and before its phase 3, until
     * released (at most 30 s): a receiving process stalled there, while a reconciler or a person may come in.
     */
    public Pause pauseNextNotification() {
        Pause next = new Pause(new CountDownLatch(1), new CountDownLatch(1));
        notificationPause.set(next);
        return next;
    }

    @Override
    public void accept(PaymentId payment, ChargeOutcome outcome) {
        if (armed.getAndSet(false)) {
            throw new SimulatedCrash(payment);
        }
        hold(pause.getAndSet(null));
    }

    @Override
    public void afterNotificationTakeOver(PaymentId payment, ChargeOutcome outcome) {
        hold(notificationPause.getAndSet(null));
    }

    private static void hold(Pause held) {
        if (held == null) {
            return;
        }
        held.reached().countDown();
        try {
            if (!held.released().await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("a paused call was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
