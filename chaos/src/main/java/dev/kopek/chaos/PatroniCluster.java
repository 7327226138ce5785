package dev.kopek.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Three PostgreSQL 15 nodes managed by Patroni with etcd: synchronous replication in strict mode (a commit is
 * acknowledged only once the synchronous standby has it, and only that standby may be promoted, so a failover
 * loses no acknowledged commit), fsync on, pg_rewind so that a deposed primary rejoins as a replica by itself.
 * Each node is its own Patroni process, run as the {@code postgres} user when the driver is root (PostgreSQL
 * refuses root). The faults act on whichever node leads at that moment.
 *
 * <p>Patroni talks to etcd through its v2 API: there it renews the leader key by compare-and-swap on its own
 * name. Debian's Patroni 3.0.2 renews it through the v3 API with an unconditional put once its lease has expired,
 * so a primary frozen past the TTL took the key back from the standby promoted meanwhile on resuming (seen in a
 * long run; Patroni fixed it in 3.0.3, pull request 2689).
 */
final class PatroniCluster implements AutoCloseable {

    /** Leader key lifetime, HA loop period and DCS/PostgreSQL retry budget: loop + 2 × retry ≤ TTL. */
    static final int TTL_SECONDS = 8;

    static final int LOOP_WAIT_SECONDS = 1;
    static final int RETRY_TIMEOUT_SECONDS = 3;
    static final String SCOPE = "kopek-ha";
    private static final Duration HEALTHY_TIMEOUT = Duration.ofSeconds(120);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    /** One node: its ports, its directory (configuration, data, socket) and its Patroni process. */
    record Node(String name, int pgPort, int apiPort, Path dir, ChildProcess patroni) {
        Path config() {
            return dir.resolve("patroni.yml");
        }

        Path dataDir() {
            return dir.resolve("data");
        }

        URI api(String path) {
            return URI.create("http://127.0.0.1:" + apiPort + path);
        }
    }

    /** A member as Patroni's {@code /cluster} shows it: role leader, sync_standby or replica. */
    record Member(String name, String role, String state, long timeline) {
        boolean running() {
            return state.equals("running") || state.equals("streaming");
        }
    }

    private final List<Node> nodes = new ArrayList<>();
    private final EtcdCluster etcd;
    private final Path pgBin;
    private final boolean asPostgres;

    PatroniCluster(Path workDir, EtcdCluster etcd, Path pgBin) {
        this.etcd = etcd;
        this.pgBin = pgBin;
        this.asPostgres = "root".equals(System.getProperty("user.name"));
        Path root = workDir.resolve("patroni");
        for (int i = 1; i <= 3; i++) {
            String name = "pg" + i;
            Path dir = root.resolve(name);
            int pgPort = Ports.fixed();
            int apiPort = Ports.fixed();
            List<String> command = new ArrayList<>();
            if (asPostgres) {
                // setpriv execs Patroni in place, so the pid the run holds is Patroni's own and kill -9 hits it.
                command.addAll(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"));
            }
            command.addAll(List.of("patroni", dir.resolve("patroni.yml").toString()));
            ChildProcess patroni = new ChildProcess(
                    "patroni-" + name, command, Map.of("HOME", dir.toString()), root.resolve(name + ".log"));
            nodes.add(new Node(name, pgPort, apiPort, dir, patroni));
        }
        writeConfigs(root, workDir, etcd.hosts());
    }

    /** The configuration store the nodes share, for the run to take a member of it away. */
    EtcdCluster etcd() {
        return etcd;
    }

    private void writeConfigs(Path root, Path workDir, String etcdHosts) {
        try {
            for (Node n : nodes) {
                Files.createDirectories(n.dir());
                Files.writeString(n.config(), config(n, etcdHosts));
            }
            if (asPostgres) {
                // The work directory is root's (mode 700): the postgres user must pass through it to its own.
                Files.setPosixFilePermissions(workDir, PosixFilePermissions.fromString("rwxr-xr-x"));
                UserPrincipalLookupService users = root.getFileSystem().getUserPrincipalLookupService();
                GroupPrincipal group = users.lookupPrincipalByGroupName("postgres");
                try (Stream<Path> paths = Files.walk(root)) {
                    for (Path p : paths.toList()) {
                        Files.setOwner(p, users.lookupPrincipalByName("postgres"));
                        Files.getFileAttributeView(p, PosixFileAttributeView.class)
                                .setGroup(group);
                    }
                }
                Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String config(Node n, String etcdHosts) {
        return """
                scope: %s
                namespace: /kopek/
                name: %s
                log:
                  level: WARNING
                restapi:
                  listen: 127.0.0.1:%d
                  connect_address: 127.0.0.1:%d
                etcd:
                  hosts: %s
                bootstrap:
                  dcs:
                    ttl: %d
                    loop_wait: %d
                    retry_timeout: %d
                    maximum_lag_on_failover: 1048576
                    synchronous_mode: true
                    synchronous_mode_strict: true
                    postgresql:
                      use_pg_rewind: true
                      use_slots: true
                      remove_data_directory_on_rewind_failure: true
                      remove_data_directory_on_diverged_timelines: true
                      parameters:
                        synchronous_commit: "on"
                        fsync: "on"
                        full_page_writes: "on"
                        wal_log_hints: "on"
                        wal_level: replica
                        hot_standby: "on"
                        max_connections: 200
                        max_wal_senders: 10
                        max_replication_slots: 10
                        wal_keep_size: 256MB
                        wal_retrieve_retry_interval: 500ms
                        shared_buffers: 64MB
                  initdb:
                    - encoding: UTF8
                    - data-checksums
                postgresql:
                  listen: 127.0.0.1:%d
                  connect_address: 127.0.0.1:%d
                  data_dir: %s
                  bin_dir: %s
                  pgpass: %s
                  authentication:
                    superuser:
                      username: postgres
                      password: postgres
                    replication:
                      username: replicator
                      password: replicator
                  parameters:
                    unix_socket_directories: '%s'
                  pg_hba:
                    - local all all trust
                    - host all all 127.0.0.1/32 trust
                    - host replication all 127.0.0.1/32 trust
                """.formatted(
                        SCOPE,
                        n.name(),
                        n.apiPort(),
                        n.apiPort(),
                        etcdHosts,
                        TTL_SECONDS,
                        LOOP_WAIT_SECONDS,
                        RETRY_TIMEOUT_SECONDS,
                        n.pgPort(),
                        n.pgPort(),
                        n.dataDir(),
                        pgBin,
                        n.dir().resolve("pgpass"),
                        n.dir());
    }

    List<Node> nodes() {
        return nodes;
    }

    /** Starts the three nodes; the first to take the leader key bootstraps, the others clone it. */
    void start() {
        nodes.forEach(n -> n.patroni().start());
        awaitHealthy();
    }

    /**
     * Waits until one leader, one synchronous standby and a third running member share the leader's timeline.
     * Returns how long it took.
     */
    Duration awaitHealthy() {
        long t0 = System.nanoTime();
        long deadline = t0 + HEALTHY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (healthy(members())) {
                return Duration.ofNanos(System.nanoTime() - t0);
            }
            Pause.millis(250);
        }
        throw new IllegalStateException("the Patroni cluster did not become healthy within "
                + HEALTHY_TIMEOUT.toSeconds() + " s: " + members() + "; see the logs in "
                + nodes.getFirst().dir().getParent());
    }

    static boolean healthy(List<Member> members) {
        Optional<Member> leader =
                members.stream().filter(m -> m.role().equals("leader")).findFirst();
        return members.size() == 3
                && leader.isPresent()
                && members.stream().allMatch(Member::running)
                && members.stream().anyMatch(m -> m.role().equals("sync_standby"))
                && members.stream().allMatch(m -> m.timeline() == leader.get().timeline());
    }

    /** The members as the first node that answers sees them; empty while none answers. */
    List<Member> members() {
        for (Node n : nodes) {
            JsonNode cluster = getJson(n.api("/cluster"));
            if (cluster != null && cluster.has("members")) {
                List<Member> out = new ArrayList<>();
                for (JsonNode m : cluster.path("members")) {
                    out.add(new Member(
                            Json.text(m, "name"),
                            String.valueOf(Json.text(m, "role")),
                            String.valueOf(Json.text(m, "state")),
                            m.path("timeline").asLong()));
                }
                return out;
            }
        }
        return List.of();
    }

    /** The node holding the leader key now, if a running one does. */
    Optional<Node> leader() {
        return members().stream()
                .filter(m -> m.role().equals("leader") && m.running())
                .findFirst()
                .map(m -> node(m.name()));
    }

    Optional<Node> syncStandby() {
        return members().stream()
                .filter(m -> m.role().equals("sync_standby") && m.running())
                .findFirst()
                .map(m -> node(m.name()));
    }

    Node node(String name) {
        return nodes.stream()
                .filter(n -> n.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no node " + name));
    }

    /** Waits (bounded) for a running leader other than {@code old}; empty when none came. */
    Optional<Node> awaitNewLeader(Node old, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Node> leader = leader();
            if (leader.isPresent() && !leader.get().name().equals(old.name())) {
                return leader;
            }
            Pause.millis(100);
        }
        return Optional.empty();
    }

    /**
     * kill -9 of a node's Patroni and its postmaster together, as a crash of the machine would do; the backends
     * follow the postmaster. The node's directory stays as the crash left it.
     */
    void crash(Node n) {
        long postmaster = postmasterPid(n);
        List<String> kill = new ArrayList<>(
                List.of("kill", "-KILL", Long.toString(n.patroni().pid())));
        if (postmaster > 0) {
            kill.add(Long.toString(postmaster));
        }
        Commands.run(kill, Duration.ofSeconds(10));
        n.patroni().kill();
    }

    /** The node's machine restarts: Patroni again, which finds the leader taken and rejoins (rewinding). */
    void restart(Node n) {
        n.patroni().start();
    }

    /** SIGSTOP or SIGCONT to every process of a node: Patroni, its postmaster and every backend. */
    void signal(Node n, String signal) {
        List<String> kill = new ArrayList<>(List.of("kill", "-" + signal));
        List<ProcessHandle> roots = new ArrayList<>();
        ProcessHandle.of(n.patroni().pid()).ifPresent(roots::add);
        ProcessHandle.of(postmasterPid(n)).ifPresent(roots::add);
        for (ProcessHandle r : roots) {
            kill.add(Long.toString(r.pid()));
            r.descendants().forEach(d -> kill.add(Long.toString(d.pid())));
        }
        Commands.run(kill, Duration.ofSeconds(10));
    }

    /** {@code patronictl switchover}: the leader hands over to the synchronous standby. */
    Commands.Outcome switchover(Node leader, Node candidate) {
        List<String> command = new ArrayList<>();
        if (asPostgres) {
            command.addAll(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"));
        }
        command.addAll(List.of(
                "patronictl",
                "-c",
                leader.config().toString(),
                "switchover",
                "--leader",
                leader.name(),
                "--candidate",
                candidate.name(),
                "--force",
                SCOPE));
        return Commands.run(command, Duration.ofSeconds(60));
    }

    private static long postmasterPid(Node n) {
        try {
            List<String> lines = Files.readAllLines(n.dataDir().resolve("postmaster.pid"));
            return lines.isEmpty() ? -1 : Long.parseLong(lines.getFirst().strip());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** The JDBC URL naming every node, for a client that must always write to the primary. */
    String url(String database, String options) {
        StringBuilder hosts = new StringBuilder();
        for (Node n : nodes) {
            hosts.append(hosts.isEmpty() ? "" : ",").append("127.0.0.1:").append(n.pgPort());
        }
        return "jdbc:postgresql://" + hosts + "/" + database + "?targetServerType=primary"
                + (options.isEmpty() ? "" : "&" + options);
    }

    /** One node alone, whatever its role (the freeze probe writes to a deposed primary through it). */
    static String nodeUrl(Node n, String database, String options) {
        return "jdbc:postgresql://127.0.0.1:" + n.pgPort() + "/" + database + "?" + options;
    }

    /** Runs statements on the primary, outside a transaction (CREATE DATABASE cannot run in one). */
    void execute(String database, String... statements) {
        Properties props = new Properties();
        props.put("user", "postgres");
        try (Connection c = DriverManager.getConnection(url(database, "connectTimeout=5"), props);
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static JsonNode getJson(URI uri) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(uri)
                            .timeout(Duration.ofSeconds(2))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Json.tryParse(response.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        // Replicas first, so the leader never waits on a synchronous standby that is going away.
        List<Node> order = new ArrayList<>(nodes);
        leader().ifPresent(l -> {
            order.remove(l);
            order.add(l);
        });
        order.forEach(n -> {
            signal(n, "CONT");
            n.patroni().stop();
        });
    }
}
