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
        if (!props.statementTimeout().isZero()) {
            // Every statement of Kopek's sessions is bounded: none of Kopek's own needs minutes, and one that grows
            // without bound (a balance read while the projection is held back) is cancelled and answered 503 instead
            // of holding a connection. Migrations and the drift check's whole-journal read lift it for themselves.
            config.addDataSourceProperty(
                    "options",
                    "-c statement_timeout=" + props.statementTimeout().toMillis());
        }
        config.setPoolName("kopek");
        config.setMaximumPoolSize(props.poolSize());
        config.setConnectionTimeout(props.connectionTimeout().toMillis());
        config.setInitializationFailTimeout(props.connectionTimeout().toMillis());
        try {
            HikariDataSource dataSource = new HikariDataSource(config);
            verify(dataSource);
            return dataSource;
        } catch (RuntimeException | SQLException e) {
            throw new DatabaseUnavailableException(
                    "Kopek cannot use PostgreSQL at " + redact(config.getJdbcUrl()) + " as user '"
                            + config.getUsername() + "': " + rootMessage(e),
                    e);
        }
    }

    private static void verify(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            int major = connection.getMetaData().getDatabaseMajorVersion();
            if (!"PostgreSQL".equals(product) || major < 14) {
                throw new SQLException("need PostgreSQL 14 or newer, found " + product + " " + major);
            }
            log.info("database ready: {} {}", product, connection.getMetaData().getDatabaseProductVersion());
        }
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
                EmbeddedPostgres.Builder builder =
                        EmbeddedPostgres.builder().setDataDirectory(pgData).setCleanDataDirectory(false);
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
