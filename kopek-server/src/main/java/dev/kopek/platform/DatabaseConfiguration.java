package dev.kopek.platform;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DatabaseProperties.class)
class DatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DatabaseConfiguration.class);

    /**
     * The embedded server is a bean the data source depends on, so on shutdown it stops only after the web server
     * has drained its requests and the pool has closed — never underneath a payment that is still settling.
     */
    @Bean(destroyMethod = "close")
    EmbeddedDatabase embeddedDatabase(DatabaseProperties props, @Value("${kopek.data-dir:.kopek}") String dataDir) {
        return props.external() ? EmbeddedDatabase.none() : EmbeddedDatabase.start(Path.of(dataDir));
    }

    @Bean(destroyMethod = "close")
    HikariDataSource dataSource(DatabaseProperties props, EmbeddedDatabase embedded) {
        HikariConfig config = new HikariConfig();
        if (props.external()) {
            config.setJdbcUrl(props.url());
            config.setUsername(props.user());
            config.setPassword(props.password());
        } else {
            config.setJdbcUrl(embedded.postgres().getJdbcUrl("postgres", "postgres"));
            config.setUsername("postgres");
        }
        config.setPoolName("kopek");
        config.setMaximumPoolSize(props.poolSize());
        config.setConnectionTimeout(props.connectionTimeout().toMillis());
        config.setInitializationFailTimeout(props.connectionTimeout().toMillis());
        ReadOnlyEviction readOnly = new ReadOnlyEviction();
        failoverSettings(config, props, readOnly);
        try {
            HikariDataSource dataSource = new HikariDataSource(config);
            readOnly.evictFrom(dataSource);
            verify(dataSource);
            return dataSource;
        } catch (RuntimeException | SQLException e) {
            throw new DatabaseUnavailableException(
                    "Kopek cannot use PostgreSQL at " + redact(config.getJdbcUrl()) + " as user '"
                            + config.getUsername() + "': " + rootMessage(e),
                    e);
        }
    }

    /**
     * The pool and driver settings that let Kopek ride through a failover (docs/beyond-one-machine.md). They are the
     * driver's defaults for this pool: a parameter written in {@code KOPEK_DB_URL} wins over each of them. Only the
     * primary is written to ({@code targetServerType=primary}: with several hosts, the one that takes writes; with
     * one, a standby is refused at connect time rather than at its first write); no wait on a server is unbounded;
     * idle connections are checked, every connection retires after {@code maxLifetime}, and a read-only answer
     * replaces them all ({@link ReadOnlyEviction}). The one session setting is the statement timeout
     * ({@link #boundedWaits}).
     */
    static void failoverSettings(HikariConfig config, DatabaseProperties props, ReadOnlyEviction readOnly) {
        config.addDataSourceProperty("targetServerType", "primary");
        boundedWaits(config, props);
        config.setExceptionOverride(readOnly);
    }

    /**
     * No wait on a server is unbounded, idle connections are checked and every connection retires now and then: the
     * primary's pool and the read replica's alike, so that either recovers by itself when its server comes back.
     */
    static void boundedWaits(HikariConfig config, DatabaseProperties props) {
        config.addDataSourceProperty(
                "loginTimeout", Long.toString(props.loginTimeout().toSeconds()));
        config.addDataSourceProperty(
                "connectTimeout", Long.toString(Math.min(props.loginTimeout().toSeconds(), CONNECT_TIMEOUT_SECONDS)));
        config.addDataSourceProperty(
                "socketTimeout", Long.toString(props.socketTimeout().toSeconds()));
        config.addDataSourceProperty("tcpKeepAlive", "true");
        if (!props.statementTimeout().isZero()) {
            // Every statement is bounded on the server too: none of Kopek's own needs long, and one that grows without
            // bound (a balance read while the projection is held back) is cancelled and answered 503 instead of
            // holding a connection. Below the socket timeout, so that PostgreSQL ends the statement (and frees the
            // server) before the driver gives up on the socket. Migrations and the drift check lift it for
            // themselves; options= in the URL wins over it.
            config.addDataSourceProperty(
                    "options",
                    "-c statement_timeout=" + props.statementTimeout().toMillis());
        }
        config.addDataSourceProperty("ApplicationName", "kopek");
        config.setKeepaliveTime(props.keepaliveTime().toMillis());
        config.setMaxLifetime(props.maxLifetime().toMillis());
        // Below the wait for a connection, so that a check hanging on a frozen server does not use all of it.
        long validationMillis =
                Math.min(VALIDATION_TIMEOUT_MILLIS, props.connectionTimeout().toMillis() / 2);
        if (validationMillis >= MIN_VALIDATION_TIMEOUT_MILLIS) {
            config.setValidationTimeout(validationMillis);
        }
    }

    /**
     * The oldest PostgreSQL Kopek runs on. 15 is the first with {@code UNIQUE NULLS NOT DISTINCT} (V140: one PSP
     * event is stored once per account, the configured account being a NULL merchant); nothing Kopek runs needs a
     * newer one (docs/beyond-one-machine.md, "PostgreSQL versions").
     */
    static final int MIN_POSTGRES_MAJOR = 15;

    /** TCP connect to one host: a host that does not answer is skipped for the next one after this. */
    private static final long CONNECT_TIMEOUT_SECONDS = 5;

    private static final long VALIDATION_TIMEOUT_MILLIS = 2_000;
    private static final long MIN_VALIDATION_TIMEOUT_MILLIS = 250;

    /** Spring's own, but a rollback on a session a failover already ended is no error of its own. */
    @Bean
    LostSessionTransactionManager transactionManager(HikariDataSource dataSource) {
        return new LostSessionTransactionManager(dataSource);
    }

    private static void verify(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            String version = connection.getMetaData().getDatabaseProductVersion();
            Optional<String> refusal = refusal(product, connection.getMetaData().getDatabaseMajorVersion(), version);
            if (refusal.isPresent()) {
                throw new SQLException(refusal.get());
            }
            log.info("database ready: {} {}", product, version);
        }
    }

    /** Why Kopek will not run on this server, or empty when it will. */
    static Optional<String> refusal(String product, int major, String version) {
        if (!"PostgreSQL".equals(product)) {
            return Optional.of("need PostgreSQL " + MIN_POSTGRES_MAJOR + " or newer, found " + product);
        }
        if (major < MIN_POSTGRES_MAJOR) {
            return Optional.of("need PostgreSQL " + MIN_POSTGRES_MAJOR + " or newer (migration V140 uses UNIQUE NULLS"
                    + " NOT DISTINCT, new in 15), found PostgreSQL " + version);
        }
        return Optional.empty();
    }

    /** A password may be written into the URL; it never reaches a log line. */
    static String redact(String url) {
        return url == null ? "(none)" : url.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.replaceAll("\\s+", " ").trim();
    }

    /**
     * The embedded PostgreSQL 17 of the quickstart. Its data survives restarts under the data folder, and so does
     * every answer Kopek gave: the server runs durable (see {@link #RUN_MODE_SETTINGS}).
     */
    static final class EmbeddedDatabase implements AutoCloseable {

        /**
         * The server settings of run mode. The embedded library starts PostgreSQL for tests: {@code -F} (fsync off)
         * and {@code synchronous_commit=off}. A {@code 201 captured} must survive a power cut (RPO = 0 for the
         * ledger), so fsync, synchronous commit and full-page writes are switched back on here; {@code -c} options
         * come after {@code -F} on the command line and win. The rest sizes a small box: 256 MB of shared buffers
         * and 16 MB of WAL buffers, and checkpoints spread over 15 minutes or 2 GB of WAL instead of every 1 GB, so
         * that full-page images after each checkpoint do not dominate the WAL written per payment. {@code wal_level
         * logical} lets the CDC relay run without a restart. Benchmarks start their cluster with the same values
         * (benchmarks/run-side-by-side.sh).
         */
        static final Map<String, String> RUN_MODE_SETTINGS = runModeSettings();

        private static Map<String, String> runModeSettings() {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("fsync", "on");
            settings.put("synchronous_commit", "on");
            settings.put("full_page_writes", "on");
            settings.put("shared_buffers", "256MB");
            settings.put("wal_buffers", "16MB");
            settings.put("checkpoint_timeout", "15min");
            settings.put("max_wal_size", "2GB");
            settings.put("min_wal_size", "256MB");
            settings.put("checkpoint_completion_target", "0.9");
            settings.put("max_connections", "200");
            settings.put("wal_level", "logical");
            return Collections.unmodifiableMap(settings);
        }

        private final EmbeddedPostgres postgres;

        private EmbeddedDatabase(EmbeddedPostgres postgres) {
            this.postgres = postgres;
        }

        static EmbeddedDatabase none() {
            return new EmbeddedDatabase(null);
        }

        static EmbeddedDatabase start(Path dataDir) {
            Path pgData = dataDir.toAbsolutePath().resolve("postgres");
            try {
                Files.createDirectories(pgData.getParent());
                // Not the library's own JVM shutdown hook: it stops the server as soon as SIGTERM arrives, in
                // parallel with the web server's drain, so a payment in flight would lose its database. Spring
                // closes this bean after the drain and the pool instead (EmbeddedDatabaseShutdownTest).
                EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                        .setDataDirectory(pgData)
                        .setCleanDataDirectory(false)
                        .setRegisterShutdownHook(false);
                RUN_MODE_SETTINGS.forEach(builder::setServerConfig);
                EmbeddedPostgres postgres = builder.start();
                log.info("embedded PostgreSQL on port {} with data in {}", postgres.getPort(), pgData);
                return new EmbeddedDatabase(postgres);
            } catch (IOException | RuntimeException e) {
                throw new DatabaseUnavailableException(
                        "Kopek cannot start the embedded PostgreSQL in " + pgData + ": " + rootMessage(e), e);
            }
        }

        EmbeddedPostgres postgres() {
            return postgres;
        }

        @Override
        public void close() {
            if (postgres == null) {
                return;
            }
            try {
                postgres.close();
                log.info("embedded PostgreSQL stopped");
            } catch (IOException e) {
                log.warn("embedded PostgreSQL did not stop cleanly: {}", e.getMessage());
            }
        }
    }
}
