package dev.kopek.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A run asks for a dozen fixed ports; a port drawn twice made a broker fail to bind at start. */
class PortsTest {

    @Test
    void fixedPortsAreNeverHandedOutTwice() {
        // 2,000 draws from 12,000 ports: with each check's socket closed before the next draw, a repeat is all but
        // certain (the birthday bound puts it above 99.9 %) unless the handed-out ports are remembered.
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            assertThat(ports.add(Ports.fixed())).as("draw %d", i).isTrue();
        }
    }
}
