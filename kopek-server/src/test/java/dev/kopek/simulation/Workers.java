package dev.kopek.simulation;

import dev.kopek.notifications.NotificationInbox;
import dev.kopek.reconciliation.StuckAttemptReconciler;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.support.CrashSwitch;
import dev.kopek.support.MutableClock;
import java.time.Duration;
import java.util.List;
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

    void armCrash(boolean second) {
        (second ? secondCrash : crash).crashNextPspCall();
    }

    void disarmCrashes() {
        crash.disarm();
        secondCrash.disarm();
    }
}
