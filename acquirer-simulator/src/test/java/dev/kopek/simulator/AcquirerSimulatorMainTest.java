package dev.kopek.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class AcquirerSimulatorMainTest {

    @Test
    void defaultsToPort9090() {
        assertThat(AcquirerSimulatorMain.parse(new String[0]))
                .isEqualTo(new AcquirerSimulatorMain.Options("127.0.0.1", 9090, null));
    }

    @Test
    void parsesPortAndKeyWindow() {
        assertThat(AcquirerSimulatorMain.parse(
                        new String[] {"--bind", "0.0.0.0", "--port", "0", "--key-window-seconds", "30"}))
                .isEqualTo(new AcquirerSimulatorMain.Options("0.0.0.0", 0, 30L));
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--port"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--port", "70000"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--port", "x"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--bind"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--verbose"}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void startsWithTheRequestedKeyWindow() {
        try (AcquirerSimulator simulator =
                AcquirerSimulatorMain.start(new AcquirerSimulatorMain.Options("127.0.0.1", 0, 30L))) {
            assertThat(simulator.config().keyWindowSeconds()).isEqualTo(30);
            assertThat(simulator.port()).isPositive();
            assertThat(simulator.baseUri().toString()).isEqualTo("http://127.0.0.1:" + simulator.port());
        }
    }

    /** Another address of this machine's loopback range stands in for a container's network address. */
    @Test
    void listensOnlyOnTheAddressItWasToldToBind() throws Exception {
        try (AcquirerSimulator simulator =
                AcquirerSimulatorMain.start(new AcquirerSimulatorMain.Options("127.0.0.2", 0, null))) {
            assertThat(simulator.baseUri().toString()).isEqualTo("http://127.0.0.2:" + simulator.port());
            try (Socket socket = new Socket(InetAddress.getByName("127.0.0.2"), simulator.port())) {
                assertThat(socket.isConnected()).isTrue();
            }
            assertThatThrownBy(() -> new Socket(InetAddress.getByName("127.0.0.1"), simulator.port()).close())
                    .isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void onEveryAddressItIsReachedThroughLoopback() {
        try (AcquirerSimulator simulator =
                AcquirerSimulatorMain.start(new AcquirerSimulatorMain.Options("0.0.0.0", 0, null))) {
            assertThat(simulator.baseUri().toString()).isEqualTo("http://127.0.0.1:" + simulator.port());
        }
    }
}
