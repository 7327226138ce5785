package dev.kopek.support;

import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Flyway as Kopek configures it (application.yml), for tests that migrate a database themselves: the schema's
 * migrations, strictly in order, and the lock between instances held as a session advisory lock, since an index built
 * CONCURRENTLY (V170) would wait for ever on a lock held in an open transaction.
 */
public final class Migrations {

    private Migrations() {}

    /** Up to {@code target} (a version, or {@code latest}). */
    public static Flyway flyway(DataSource source, String target) {
        return Flyway.configure()
                .dataSource(source)
                .locations("classpath:db/migration")
                .configuration(Map.of("flyway.postgresql.transactional.lock", "false"))
                .target(target)
                .load();
    }

    public static Flyway flyway(DataSource source) {
        return flyway(source, "latest");
    }
}
