package dev.kopek.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AcquirerSimulatorMainTest {

    @Test
    void defaultsToPort9090() {
        assertThat(AcquirerSimulatorMain.parse(new String[0]))
                .isEqualTo(new AcquirerSimulatorMain.Options(9090, null));
    }

    @Test
    void parsesPortAndKeyWindow() {
        assertThat(AcquirerSimulatorMain.parse(new String[] {"--port", "0", "--key-window-seconds", "30"}))
                .isEqualTo(new AcquirerSimulatorMain.Options(0, 30L));
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--port"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--port", "70000"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--port", "x"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--verbose"}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void startsWithTheRequestedKeyWindow() {
        try (AcquirerSimulator simulator = AcquirerSimulatorMain.start(new AcquirerSimulatorMain.Options(0, 30L))) {
            assertThat(simulator.config().keyWindowSeconds()).isEqualTo(30);
            assertThat(simulator.port()).isPositive();
            assertThat(simulator.baseUri().toString()).isEqualTo("http://127.0.0.1:" + simulator.port());
        }
    }
}
