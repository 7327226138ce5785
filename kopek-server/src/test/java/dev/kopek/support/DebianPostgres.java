package dev.kopek.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL cluster of Debian's packaged binaries ({@code apt-get install postgresql-15}; the embedded binaries are
 * 17 only), made with initdb on a random loopback port for one test and removed after it: Kopek's oldest supported
 * version, run for real. PostgreSQL refuses to run as root, so when the build does (CI does) the cluster belongs to
 * the package's {@code postgres} user and its commands run as that user. Without the binaries the test is skipped on
 * a developer's machine and fails in CI ({@code CI=true}), where .ci/run installs them.
 */
public final class DebianPostgres implements AutoCloseable {

    public static final String DATABASE = "kopek";

    private final Path bin;
    private final Path dataDir;
    private final int port;

    private DebianPostgres(Path bin, Path dataDir, int port) {
        this.bin = bin;
        this.dataDir = dataDir;
        this.port = port;
    }

    /** The binaries of PostgreSQL {@code major}, or the test is skipped (fails in CI). */
    public static Path binaries(int major) {
        String variable = "POSTGRES" + major + "_BIN";
        Path bin = Path.of(System.getenv().getOrDefault(variable, "/usr/lib/postgresql/" + major + "/bin"));
        if (!Files.isExecutable(bin.resolve("postgres"))) {
            String message = "\n\n*** This test needs PostgreSQL " + major + " in " + bin
                    + " (apt-get install postgresql-" + major + ", or set " + variable + "). ***\n";
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException(message + "CI must run Kopek on it; .ci/run installs it.");
            }
            System.err.println(message + "Skipping it on this machine.\n");
            Assumptions.abort("PostgreSQL " + major + " is not installed");
        }
        return bin;
    }

    /** A new cluster of {@code bin}'s version, started, with an empty {@link #DATABASE}; logical decoding is on. */
    public static DebianPostgres start(Path bin) {
        try {
            Path dataDir = Files.createTempDirectory("kopek-debian-pg");
            DebianPostgres server = new DebianPostgres(bin, dataDir, freePort());
            server.asOwner(
                    bin.resolve("initdb").toString(),
                    "-D",
                    dataDir.resolve("data").toString(),
                    "-U",
                    "postgres",
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync");
            server.asOwner(
                    bin.resolve("pg_ctl").toString(),
                    "-D",
                    dataDir.resolve("data").toString(),
                    "-l",
                    dataDir.resolve("server.log").toString(),
                    "-w",
                    "-t",
                    "60",
                    "-o",
                    "-p " + server.port + " -k " + dataDir + " -c listen_addresses=127.0.0.1"
                            + " -c wal_level=logical -c max_replication_slots=10 -c max_wal_senders=10"
                            + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                            + " -c max_connections=100",
                    "start");
            try (Connection c = server.connect("postgres");
                    Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + DATABASE);
            }
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, "postgres", "");
    }

    @Override
    public void close() {
        try {
            asOwner(
                    bin.resolve("pg_ctl").toString(),
                    "-D",
                    dataDir.resolve("data").toString(),
                    "-m",
                    "immediate",
                    "-w",
                    "stop");
        } catch (RuntimeException e) {
            // not running: nothing to stop
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // a leftover temporary folder harms nothing
        }
    }

    /** Runs a command as the cluster's owner: this user, or {@code postgres} when this is root. */
    private void asOwner(String... command) {
        List<String> line = new ArrayList<>();
        if (isRoot()) {
            chownToPostgres();
            line.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        line.addAll(List.of(command));
        try {
            Process process = new ProcessBuilder(line)
                    .redirectErrorStream(true)
                    .redirectOutput(dataDir.resolve("commands.log").toFile())
                    .start();
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        String.join(" ", line) + " failed: " + Files.readString(dataDir.resolve("commands.log")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void chownToPostgres() {
        try {
            Process chown = new ProcessBuilder("chown", "-R", "postgres:postgres", dataDir.toString())
                    .inheritIO()
                    .start();
            if (chown.waitFor() != 0) {
                throw new IllegalStateException("chown of " + dataDir + " to postgres failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
