package dev.kopek.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL 17 per test JVM (zonky's embedded binaries), with a fresh database per caller that asks
 * for one. Started once, stopped when the JVM exits.
 */
public final class TestDatabase {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres postgres;

    private TestDatabase() {
    }

    public static synchronized EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder()
                        .setServerConfig("max_connections", "300")
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        .setServerConfig("wal_level", "logical")
                        .setServerConfig("max_replication_slots", "10")
                        .setServerConfig("max_wal_senders", "10")
                        .start();
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
        try (Connection c = server().getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return server().getJdbcUrl("postgres", name);
    }
}
