package dev.kopek.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Three etcd members (Debian's {@code etcd-server}), each on two random loopback ports with its own data directory:
 * Patroni's distributed configuration store, where the leader key lives. Three, as in production, so that the loss
 * of one member leaves a quorum and must not cost the database its primary; the HA run kills the etcd leader to
 * show it. A system etcd on 2379 is not used.
 */
final class EtcdCluster implements AutoCloseable {

    /** One member: its name, client port and process. */
    record Member(String name, int clientPort, ChildProcess process) {
        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + clientPort + path);
        }
    }

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final List<Member> members = new ArrayList<>();

    EtcdCluster(Path workDir) {
        List<String> names = List.of("etcd1", "etcd2", "etcd3");
        List<Integer> clientPorts = new ArrayList<>();
        List<String> peers = new ArrayList<>();
        for (String name : names) {
            clientPorts.add(Ports.fixed());
            peers.add(name + "=http://127.0.0.1:" + Ports.fixed());
        }
        String initialCluster = String.join(",", peers);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String client = "http://127.0.0.1:" + clientPorts.get(i);
            String peer = peers.get(i).substring(name.length() + 1);
            ChildProcess process = new ChildProcess(
                    name,
                    List.of(
                            "etcd",
                            "--name",
                            name,
                            "--data-dir",
                            workDir.resolve(name).toString(),
                            "--listen-client-urls",
                            client,
                            "--advertise-client-urls",
                            client,
                            "--listen-peer-urls",
                            peer,
                            "--initial-advertise-peer-urls",
                            peer,
                            "--initial-cluster",
                            initialCluster,
                            "--initial-cluster-state",
                            "new",
                            "--initial-cluster-token",
                            "kopek-ha",
                            // Patroni's etcd (v2) client: see PatroniCluster for why not its etcd3 one.
                            "--enable-v2=true",
                            "--log-level",
                            "warn"),
                    Map.of(),
                    workDir.resolve(name + ".log"));
            members.add(new Member(name, clientPorts.get(i), process));
        }
    }

    /** Starts every member (a quorum forms only once two are up) and waits until each answers healthy. */
    void start() {
        members.forEach(m -> m.process().start());
        if (!awaitHealthy(Duration.ofSeconds(60))) {
            throw new IllegalStateException("etcd did not form a cluster; see "
                    + members.getFirst().process().log());
        }
    }

    /** host:port of every member, for Patroni's {@code etcd.hosts}. */
    String hosts() {
        return members.stream().map(m -> "127.0.0.1:" + m.clientPort()).collect(Collectors.joining(","));
    }

    /** The member that leads the Raft group now, as the members themselves report it. */
    Optional<Member> leader() {
        return members.stream()
                .filter(m -> m.process().alive())
                .filter(m -> get(m.uri("/v2/stats/self")).contains("\"StateLeader\""))
                .findFirst();
    }

    /** True once every member is running and reports itself healthy (it has a leader and a quorum) in time. */
    boolean awaitHealthy(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (members.stream()
                    .allMatch(m -> m.process().alive() && get(m.uri("/health")).contains("\"health\":\"true\""))) {
                return true;
            }
            Pause.millis(250);
        }
        return false;
    }

    /** The body of a GET, or empty when the member does not answer. */
    private static String get(URI uri) {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(uri)
                                    .timeout(Duration.ofSeconds(2))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    @Override
    public void close() {
        members.forEach(m -> m.process().stop());
    }
}
