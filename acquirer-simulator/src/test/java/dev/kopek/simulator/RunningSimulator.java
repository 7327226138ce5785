package dev.kopek.simulator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh simulator on a free port per test, and an HTTP client for it. */
abstract class RunningSimulator {

    protected AcquirerSimulator simulator;
    protected SimClient client;

    @BeforeEach
    void startSimulator() {
        simulator = AcquirerSimulator.start(0);
        client = new SimClient(simulator);
    }

    @AfterEach
    void stopSimulator() {
        client.close();
        simulator.close();
    }
}
