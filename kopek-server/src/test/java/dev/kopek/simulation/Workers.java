package dev.kopek.simulation;

import dev.kopek.notifications.NotificationInbox;
import dev.kopek.reconciliation.StuckAttemptReconciler;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.support.CrashSwitch;
import dev.kopek.support.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The only place the simulation reaches into Kopek's internals: its background workers (run on demand, so a
 * run is replayable), the crash switch and the clocks. Everything else goes through HTTP and SQL.
 */
final class Workers {

    private final StuckAttemptReconciler reconciler;
    private final NotificationInbox inbox;
    private final List<MutableClock> clocks;
    private final CrashSwitch crash;
    private final CrashSwitch secondCrash;
    private final AcquirerSimulator psp;

    Workers(
            StuckAttemptReconciler reconciler,
            NotificationInbox inbox,
            List<MutableClock> clocks,
            CrashSwitch crash,
            CrashSwitch secondCrash,
            AcquirerSimulator psp) {
        this.reconciler = reconciler;
        this.inbox = inbox;
        this.clocks = clocks;
        this.crash = crash;
        this.secondCrash = secondCrash;
        this.psp = psp;
    }

    /** One reconciler pass; an exception out of it (other than a simulated crash) is a finding. */
    void reconcile(Consumer<String> findings) {
        try {
            reconciler.reconcileOnce();
        } catch (CrashSwitch.SimulatedCrash crashed) {
            // The process died in the pass; the next pass (another instance) carries on.
        } catch (RuntimeException e) {
            findings.accept("the reconciler pass threw and skipped the rest of its work: " + e);
        }
    }

    void retryNotifications(Consumer<String> findings) {
        try {
            inbox.retryWaiting();
        } catch (RuntimeException e) {
            findings.accept("the notification retry pass threw: " + e);
        }
    }

    /** Kopek's clocks (every instance) and the PSP's move together. */
    void advance(Duration by) {
        clocks.forEach(c -> c.advance(by));
        psp.advanceClock(by);
    }

    /**
     * Runs {@code notify} (a notification forwarded to the first instance) and, if it takes a key over, holds it there
     * before its phase 3 while {@code meanwhile} runs; true if it was held. A notification that takes no key over
     * (ignored, unmatched, a dispute) just runs.
     */
    boolean whileNotificationHeld(Runnable notify, Runnable meanwhile) {
        CrashSwitch.Pause pause = crash.pauseNextNotification();
        boolean held = false;
        try (var thread = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> notified = thread.submit(notify);
            while (!notified.isDone() && !held) {
                held = pause.reached().await(5, TimeUnit.MILLISECONDS);
            }
            if (held) {
                meanwhile.run();
            }
            pause.release();
            notified.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("forwarding a notification failed", e.getCause());
        } finally {
            crash.disarm();
        }
        return held;
    }

    void armCrash(boolean second) {
        (second ? secondCrash : crash).crashNextPspCall();
    }

    void disarmCrashes() {
        crash.disarm();
        secondCrash.disarm();
    }
}
