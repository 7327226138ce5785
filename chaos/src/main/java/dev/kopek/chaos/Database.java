package dev.kopek.chaos;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One PostgreSQL 17 cluster (zonky's binaries) with durable settings: fsync and synchronous commit on, so a
 * committed transaction survives a crash; {@code wal_level=logical} for the CDC relay. One database per run.
 */
final class Database implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    private Database(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    static Database start(Path dataDir) {
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on")
                    .setServerConfig("wal_level", "logical")
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("max_replication_slots", "10")
                    .setServerConfig("max_wal_senders", "10")
                    .setServerConfig("shared_buffers", "256MB")
                    .start();
            Database db = new Database(pg);
            db.requireDurable();
            return db;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** zonky starts the server with -F (no fsync); the settings above must have overridden it. */
    private void requireDurable() {
        for (String setting : new String[] {"fsync", "synchronous_commit", "wal_level"}) {
            String value = show(setting);
            String wanted = setting.equals("wal_level") ? "logical" : "on";
            if (!wanted.equals(value)) {
                throw new IllegalStateException("PostgreSQL " + setting + " is " + value + ", not " + wanted);
            }
        }
    }

    String show(String setting) {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new, empty database; its JDBC URL (user postgres, no password). */
    String create(String name) {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + name;
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
