package dev.kopek.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Stream;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A primary and a streaming replica of it, both real PostgreSQL 17 (the embedded binaries), for the read-replica
 * tests. The embedded binaries have no pg_basebackup, so the standby is made the way a base backup is when the
 * primary can stop: its stopped data directory is copied, the copy gets {@code standby.signal} and a
 * {@code primary_conninfo}, and both start again; the standby then streams the primary's WAL from where the copy
 * ends. Replay can be paused and resumed, as an overloaded or lagging replica would be.
 */
public final class StreamingReplica implements AutoCloseable {

    /** Files of a running server that a copy must not take. */
    private static final Set<String> RUNTIME_FILES = Set.of("postmaster.pid", "epg-lock");

    private static final Duration CATCH_UP_BOUND = Duration.ofSeconds(30);

    private final EmbeddedPostgres primary;
    private final EmbeddedPostgres standby;
    private final Path root;

    private StreamingReplica(EmbeddedPostgres primary, EmbeddedPostgres standby, Path root) {
        this.primary = primary;
        this.standby = standby;
        this.root = root;
    }

    /** Starts both, with a database {@code name} created on the primary (and so on the standby). */
    public static StreamingReplica start(String name) {
        try {
            Path root = Files.createTempDirectory("kopek-replica");
            Path primaryData = root.resolve("primary");
            Path standbyData = root.resolve("standby");
            EmbeddedPostgres first = server(primaryData, 0).start();
            int port = first.getPort();
            try (Connection c = first.getPostgresDatabase().getConnection();
                    Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + name);
            }
            first.close();
            copy(primaryData, standbyData);
            Files.writeString(standbyData.resolve("standby.signal"), "");
            // In the file, not on the command line: the embedded library passes -c options through pg_ctl's one
            // option string, which splits a value with spaces.
            Files.writeString(
                    standbyData.resolve("postgresql.auto.conf"),
                    "primary_conninfo = 'host=localhost port=" + port + " user=postgres'\n"
                            + "hot_standby = on\nhot_standby_feedback = on\n",
                    StandardOpenOption.APPEND);
            EmbeddedPostgres primary = server(primaryData, port).start();
            EmbeddedPostgres standby = server(standbyData, 0).start();
            return new StreamingReplica(primary, standby, root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static EmbeddedPostgres.Builder server(Path data, int port) {
        // The test settings stream WAL as they are (wal_level logical, ten WAL senders).
        EmbeddedPostgres.Builder builder =
                EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false);
        TestDatabase.FAST_UNSAFE_TEST_SETTINGS.forEach(builder::setServerConfig);
        if (port != 0) {
            builder.setPort(port);
        }
        return builder;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                if (RUNTIME_FILES.contains(file.getFileName().toString())) {
                    continue;
                }
                Path target = to.resolve(from.relativize(file));
                if (Files.isDirectory(file)) {
                    // PostgreSQL refuses a data directory that others may read (it must be 0700 or 0750).
                    Files.createDirectories(target);
                    Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(file));
                } else {
                    Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    public String primaryUrl(String database) {
        return primary.getJdbcUrl("postgres", database);
    }

    public String standbyUrl(String database) {
        return standby.getJdbcUrl("postgres", database);
    }

    /** Stops applying the WAL the standby receives: its reads stay where they are, however far the primary moves. */
    public void pauseReplay() {
        standbyJdbc().sql("SELECT pg_wal_replay_pause()").query().singleRow();
    }

    public void resumeReplay() {
        standbyJdbc().sql("SELECT pg_wal_replay_resume()").query().singleRow();
    }

    /**
     * Whether the standby has replayed everything the primary had written when this was called: up to the primary's
     * insert position, not its write position, because with the tests' asynchronous commit a commit record may sit
     * in the primary's WAL buffers, past the write position, for a while.
     */
    public boolean caughtUp() {
        String written = JdbcClient.create(primary.getPostgresDatabase())
                .sql("SELECT pg_current_wal_insert_lsn()::text")
                .query(String.class)
                .single();
        return standbyJdbc()
                .sql("SELECT pg_last_wal_replay_lsn() >= CAST(:lsn AS pg_lsn)")
                .param("lsn", written)
                .query(Boolean.class)
                .single();
    }

    /**
     * Waits until the standby has replayed everything the primary had written when this was called (after
     * {@link #resumeReplay}): streaming replication on one machine takes milliseconds, so the bound only ends a
     * broken replica's test.
     */
    public void awaitCaughtUp() {
        long deadline = System.nanoTime() + CATCH_UP_BOUND.toNanos();
        while (!caughtUp()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the standby did not catch up within " + CATCH_UP_BOUND);
            }
            Thread.onSpinWait();
        }
    }

    /** Statements on {@code database} of the primary, as the application's own writes see it. */
    public JdbcClient primary(String database) {
        return JdbcClient.create(primary.getDatabase("postgres", database));
    }

    /** Statements on {@code database} of the standby: what a read routed to the replica sees. */
    public JdbcClient standby(String database) {
        return JdbcClient.create(standby.getDatabase("postgres", database));
    }

    private JdbcClient standbyJdbc() {
        return JdbcClient.create(standby.getPostgresDatabase());
    }

    @Override
    public void close() throws IOException {
        try {
            standby.close();
        } finally {
            primary.close();
            try (Stream<Path> files = Files.walk(root)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(f -> f.toFile().delete());
            }
        }
    }
}
