package dev.kopek.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL 17 per test JVM (zonky's embedded binaries), with a fresh database per caller that asks
 * for one. Started once, stopped when the JVM exits.
 *
 * <p>This is the one place where Kopek trades durability for speed: {@link #FAST_UNSAFE_TEST_SETTINGS}. Run
 * mode and the benchmarks keep fsync and synchronous commit on (DatabaseConfiguration.EmbeddedDatabase).
 */
public final class TestDatabase {

    /**
     * Tests only: a crash may lose the last commits (no fsync, no synchronous commit, no full-page writes), which
     * a throwaway test database can afford and which makes the suite several times faster on 2 cores.
     */
    public static final Map<String, String> FAST_UNSAFE_TEST_SETTINGS = Map.of(
            "fsync", "off",
            "synchronous_commit", "off",
            "full_page_writes", "off",
            "max_connections", "300",
            "wal_level", "logical",
            "max_replication_slots", "10",
            "max_wal_senders", "10");

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres postgres;

    private TestDatabase() {}

    public static synchronized EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
                FAST_UNSAFE_TEST_SETTINGS.forEach(builder::setServerConfig);
                postgres = builder.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is going away either way
                }
            }));
        }
        return postgres;
    }

    /** A new, empty database; its JDBC URL. */
    public static String newDatabase() {
        String name = "kopek_test_" + DATABASES.incrementAndGet();
        try (Connection c = server().getPostgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return server().getJdbcUrl("postgres", name);
    }
}
