package dev.kopek.chaos;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A one-member etcd (Debian's {@code etcd-server}) on two random loopback ports with its own data directory:
 * Patroni's distributed configuration store, where the leader key lives. A system etcd on 2379 is not used.
 */
final class Etcd implements AutoCloseable {

    private final ChildProcess process;
    private final int clientPort;

    Etcd(Path workDir) {
        clientPort = Ports.fixed();
        int peerPort = Ports.fixed();
        String client = "http://127.0.0.1:" + clientPort;
        String peer = "http://127.0.0.1:" + peerPort;
        process = new ChildProcess(
                "etcd",
                List.of(
                        "etcd",
                        "--name",
                        "ha",
                        "--data-dir",
                        workDir.resolve("etcd").toString(),
                        "--listen-client-urls",
                        client,
                        "--advertise-client-urls",
                        client,
                        "--listen-peer-urls",
                        peer,
                        "--initial-advertise-peer-urls",
                        peer,
                        "--initial-cluster",
                        "ha=" + peer,
                        // Patroni's etcd (v2) client: see PatroniCluster for why not its etcd3 one.
                        "--enable-v2=true",
                        "--log-level",
                        "warn"),
                Map.of(),
                workDir.resolve("etcd.log"));
    }

    void start() {
        process.start();
        if (!process.awaitHttpOk(URI.create("http://127.0.0.1:" + clientPort + "/health"), Duration.ofSeconds(30))) {
            throw new IllegalStateException("etcd did not start; see " + process.log());
        }
    }

    /** host:port for Patroni's {@code etcd.hosts}. */
    String hosts() {
        return "127.0.0.1:" + clientPort;
    }

    @Override
    public void close() {
        process.stop();
    }
}
