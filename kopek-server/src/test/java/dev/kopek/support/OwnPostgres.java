package dev.kopek.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A PostgreSQL 17 server of one test's own (the embedded binaries, {@link TestDatabase}'s settings but for synchronous
 * commit), which the test
 * may stop, kill, start again on the same port and data, or copy while it is down: what a failover does to Kopek,
 * without touching the server every other test shares.
 */
public final class OwnPostgres implements AutoCloseable {

    public static final String DATABASE = "kopek";

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres server;

    private OwnPostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /** A new cluster in a fresh folder with an empty {@link #DATABASE}. */
    public static OwnPostgres fresh() {
        try {
            OwnPostgres own = new OwnPostgres(Files.createTempDirectory("kopek-own-pg"), 0).started();
            own.execute("postgres", "CREATE DATABASE " + DATABASE);
            return own;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A server started on a copy of this one's data folder, made while this one is down: everything this one
     * committed is there (a synchronous standby promoted, RPO 0), its replication slots are not (PostgreSQL keeps
     * logical slots on the primary only), and it listens on a port of its own.
     */
    public OwnPostgres promotedCopy() {
        try {
            Path copy = Files.createTempDirectory("kopek-own-pg-copy");
            try (Stream<Path> files = Files.walk(dataDir)) {
                for (Path from : (Iterable<Path>) files::iterator) {
                    Path to = copy.resolve(dataDir.relativize(from).toString());
                    if (Files.isDirectory(from)) {
                        Files.createDirectories(to);
                    } else if (!from.getFileName().toString().equals("postmaster.pid")) {
                        Files.copy(from, to);
                    }
                }
            }
            try (Stream<Path> slots = Files.list(copy.resolve("pg_replslot"))) {
                for (Path slot : (Iterable<Path>) slots::iterator) {
                    delete(slot);
                }
            }
            return new OwnPostgres(copy, 0).started();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private OwnPostgres started() throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setPGStartupWait(Duration.ofSeconds(60));
        if (port != 0 || server != null) {
            builder.setPort(port());
        }
        TestDatabase.FAST_UNSAFE_TEST_SETTINGS.forEach(builder::setServerConfig);
        // A commit is acknowledged only once its WAL is written out of PostgreSQL's memory: a kill -9 then loses no
        // acknowledged commit, as a synchronous standby loses none (RPO 0). With the shared server's
        // synchronous_commit=off the copy lacked claims Kopek had been told were committed ("key vanished").
        builder.setServerConfig("synchronous_commit", "on");
        server = builder.start();
        return this;
    }

    public int port() {
        return server != null ? server.getPort() : port;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE + "?user=postgres";
    }

    /** Stops the server cleanly (sessions end with 57P01, as in a switchover). */
    public void stop() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts it again on the same port and data. */
    public void restart() {
        try {
            started();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code kill -9} of the postmaster, as when the primary's machine dies; its backends notice and exit. The
     * folder may then be copied ({@link #promotedCopy}) but this server is not started again.
     */
    public void kill() {
        try {
            long pid = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid"))
                    .getFirst()
                    .trim());
            ProcessHandle.of(pid).ifPresent(postmaster -> {
                postmaster.destroyForcibly();
                postmaster.onExit().join();
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void execute(String database, String sql) {
        try (Connection c = connect(database);
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public Connection connect(String database) throws SQLException {
        return server.getDatabase("postgres", database).getConnection();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException | RuntimeException e) {
            // killed already, or stopped: nothing is left running
        }
        delete(dataDir);
    }

    private static void delete(Path path) {
        try (Stream<Path> files = Files.walk(path)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // a leftover temporary folder harms nothing
        }
    }
}
