package dev.kopek.support;

import dev.kopek.simulator.AcquirerSimulator;

/** One simulator per test JVM, shared by every Kopek context the tests start; never stopped before exit. */
public final class SharedSimulator {

    private static AcquirerSimulator simulator;

    private SharedSimulator() {}

    public static synchronized AcquirerSimulator get() {
        if (simulator == null) {
            simulator = AcquirerSimulator.start(0);
        }
        return simulator;
    }
}
