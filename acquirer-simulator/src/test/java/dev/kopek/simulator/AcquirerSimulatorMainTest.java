package dev.kopek.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import org.junit.jupiter.api.Test;

class AcquirerSimulatorMainTest {

    @Test
    void defaultsToPort9090() {
        assertThat(AcquirerSimulatorMain.parse(new String[0]))
                .isEqualTo(new AcquirerSimulatorMain.Options("127.0.0.1", 9090, null, null));
    }

    @Test
    void parsesPortAndKeyWindow() {
        assertThat(AcquirerSimulatorMain.parse(
                        new String[] {"--bind", "0.0.0.0", "--port", "0", "--key-window-seconds", "30"}))
                .isEqualTo(new AcquirerSimulatorMain.Options("0.0.0.0", 0, 30L, null));
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
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--webhook-url", "/relative"}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AcquirerSimulatorMain.parse(new String[] {"--webhook-url", "ftp://lb/hooks"}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A container started by compose sends its notifications to Kopek without a POST /_sim/config first. */
    @Test
    void sendsNotificationsToTheWebhookUrlItStartedWith() {
        AcquirerSimulatorMain.Options options = AcquirerSimulatorMain.parse(
                new String[] {"--port", "0", "--webhook-url", "http://lb:8080/v1/psp/simulator/webhooks"});
        assertThat(options.webhookUrl()).isEqualTo(URI.create("http://lb:8080/v1/psp/simulator/webhooks"));
        try (AcquirerSimulator simulator = AcquirerSimulatorMain.start(options)) {
            assertThat(simulator.config().webhooks().url()).isEqualTo(options.webhookUrl());
        }
    }

    @Test
    void startsWithTheRequestedKeyWindow() {
        try (AcquirerSimulator simulator =
                AcquirerSimulatorMain.start(new AcquirerSimulatorMain.Options("127.0.0.1", 0, 30L, null))) {
            assertThat(simulator.config().keyWindowSeconds()).isEqualTo(30);
            assertThat(simulator.port()).isPositive();
            assertThat(simulator.baseUri().toString()).isEqualTo("http://127.0.0.1:" + simulator.port());
        }
    }

    /** Another address of this machine's loopback range stands in for a container's network address. */
    @Test
    void listensOnlyOnTheAddressItWasToldToBind() throws Exception {
        try (AcquirerSimulator simulator =
                AcquirerSimulatorMain.start(new AcquirerSimulatorMain.Options("127.0.0.2", 0, null, null))) {
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
                AcquirerSimulatorMain.start(new AcquirerSimulatorMain.Options("0.0.0.0", 0, null, null))) {
            assertThat(simulator.baseUri().toString()).isEqualTo("http://127.0.0.1:" + simulator.port());
        }
    }
}
