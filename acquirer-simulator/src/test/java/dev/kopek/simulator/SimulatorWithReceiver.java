package dev.kopek.simulator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A running simulator whose webhooks go to a local receiver that records them. */
abstract class SimulatorWithReceiver extends RunningSimulator {

    protected WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new WebhookReceiver();
        simulator.configure(SimulatorConfig.defaults().withWebhookUrl(receiver.uri()));
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }
}
