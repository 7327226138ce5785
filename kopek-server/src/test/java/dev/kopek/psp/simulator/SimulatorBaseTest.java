package dev.kopek.psp.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.psp.InProcessPsp;
import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which simulator the simulator adapter talks to: the configured one, else the demo build's in-process one; the
 * production artifact has none, and then the start fails saying what to set.
 */
class SimulatorBaseTest {

    private static final InProcessPsp IN_PROCESS = () -> URI.create("http://127.0.0.1:40001");

    @Test
    void aConfiguredSimulatorComesFirst() {
        assertThat(SimulatorConfiguration.simulatorBase("http://psp.internal:9090", Optional.of(IN_PROCESS)))
                .isEqualTo(URI.create("http://psp.internal:9090"));
    }

    @Test
    void withoutOneTheDemoBuildsInProcessSimulatorServes() {
        assertThat(SimulatorConfiguration.simulatorBase(" ", Optional.of(IN_PROCESS)))
                .isEqualTo(URI.create("http://127.0.0.1:40001"));
    }

    @Test
    void theProductionArtifactWithoutAUrlRefusesToStartAndSaysWhatToSet() {
        assertThatThrownBy(() -> SimulatorConfiguration.simulatorBase(null, Optional.empty()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("KOPEK_PSP_SIMULATOR_URL is not set")
                .hasMessageContaining("kopek-demo");
    }
}
