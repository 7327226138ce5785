package dev.kopek.platform;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Migrations apply in one order everywhere: Flyway refuses a lower version after a higher one has run. One
 * migration was once numbered out of its place ({@code V200__dispute_inquiries}, applied before V160 to V166 on
 * databases of that week); it is {@code V167} now, and a database that recorded it under its old number has its
 * history row renamed before Flyway validates. The migrations involved touch disjoint tables, so the two orders
 * left the same schema; the row keeps its checksum and its place in the installed order.
 */
@Configuration(proxyBeanMethods = false)
class SchemaMigrations {

    private static final Logger log = LoggerFactory.getLogger(SchemaMigrations.class);

    /** Old version to new version, for migrations whose file was renumbered without a change of content. */
    static final Map<String, String> RENUMBERED = Map.of("200", "167");

    private static final String RENAME = """
            UPDATE %s
               SET version = :to, script = 'V' || :to || substr(script, length(:from) + 2)
             WHERE version = :from AND script LIKE 'V' || :from || '\\_\\_%%'
            """;

    @Bean
    FlywayMigrationStrategy renumberThenMigrate() {
        return flyway -> {
            renumber(flyway);
            withoutSocketTimeout(flyway).migrate();
            // Flyway's sessions ran without a statement timeout (spring.flyway.init-sqls): none of them may serve
            // Kopek afterwards with that setting, so the pool opens fresh ones.
            if (flyway.getConfiguration().getDataSource() instanceof HikariDataSource pool
                    && pool.getHikariPoolMXBean() != null) {
                pool.getHikariPoolMXBean().softEvictConnections();
            }
        };
    }

    /**
     * The same Flyway on connections that wait for the server's answer as long as it takes. Kopek's connections give
     * up on an answer after {@code kopek.db.socket-timeout} (30 s), so that a frozen primary cannot hold a request;
     * a migration's one statement may rightly take longer (an index built on a big table), and cut off there it
     * would fail Kopek's start on every instance, each time it is restarted.
     */
    static Flyway withoutSocketTimeout(Flyway flyway) {
        DataSource unbounded =
                new DelegatingDataSource(flyway.getConfiguration().getDataSource()) {
                    @Override
                    public Connection getConnection() throws SQLException {
                        Connection connection = super.getConnection();
                        // The pool puts the connection's own timeout back when Flyway returns it.
                        connection.setNetworkTimeout(Runnable::run, 0);
                        return connection;
                    }
                };
        return Flyway.configure(flyway.getConfiguration().getClassLoader())
                .configuration(flyway.getConfiguration())
                .dataSource(unbounded)
                .load();
    }

    static void renumber(Flyway flyway) {
        JdbcClient jdbc = JdbcClient.create(flyway.getConfiguration().getDataSource());
        String table = flyway.getConfiguration().getTable();
        boolean exists = jdbc.sql("SELECT to_regclass(:table) IS NOT NULL")
                .param("table", table)
                .query(Boolean.class)
                .single();
        if (!exists) {
            return;
        }
        RENUMBERED.forEach((from, to) -> {
            int renamed = jdbc.sql(RENAME.formatted(table))
                    .param("from", from)
                    .param("to", to)
                    .update();
            if (renamed > 0) {
                log.info("schema history: migration V{} is recorded as V{} now, its number in this release", from, to);
            }
        });
    }
}
