package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.KopekApplication;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.Migrations;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.TestDatabase;
import java.sql.Connection;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * One migration order everywhere. A database of the week when the dispute inquiries migration was numbered V200
 * and applied before V160 to V166 starts with this release's strict order once its history row is renumbered.
 */
class SchemaMigrationsTest {

    @Test
    void aDatabaseThatRanTheInquiriesMigrationAsV200MigratesInTheStrictOrder() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        JdbcClient jdbc = JdbcClient.create(source);
        flyway(source).migrate();
        recordAsTheOldRelease(jdbc);

        assertThatThrownBy(() -> flyway(source).validate())
                .as("without the renumbering, strict Flyway refuses the old history")
                .isInstanceOf(FlywayException.class);

        SchemaMigrations.renumber(flyway(source));
        Flyway strict = flyway(source);
        strict.validate();
        assertThat(strict.migrate().migrationsExecuted).isZero();
        assertThat(strict.info().pending()).isEmpty();
        assertThat(jdbc.sql("SELECT script FROM flyway_schema_history WHERE version = '167'")
                        .query(String.class)
                        .single())
                .isEqualTo("V167__dispute_inquiries.sql");
    }

    @Test
    void aNewDatabaseAppliesEveryMigrationInVersionOrder() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        Flyway strict = flyway(source);
        SchemaMigrations.renumber(strict);
        strict.migrate();

        MigrationInfo[] applied = strict.info().applied();
        for (int i = 1; i < applied.length; i++) {
            assertThat(applied[i].getVersion()).isGreaterThan(applied[i - 1].getVersion());
        }
    }

    @Test
    void aMigrationMayTakeLongerThanTheSocketTimeoutOfKopeksConnections() throws Exception {
        String url = TestDatabase.newDatabase();
        try (ConfigurableApplicationContext kopek = new SpringApplicationBuilder(KopekApplication.class)
                .run(
                        "--server.port=0",
                        "--kopek.db.url=" + url,
                        "--kopek.db.user=postgres",
                        "--kopek.db.socket-timeout=1s",
                        "--kopek.db.statement-timeout=500ms",
                        "--spring.flyway.locations=classpath:db/migration,classpath:db/slow-migration",
                        "--kopek.psp.simulator-url=" + SharedSimulator.get().baseUri(),
                        "--kopek.demo-enabled=false",
                        "--kopek.reconciler.enabled=false",
                        "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY)) {
            JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(url, "postgres", ""));
            assertThat(jdbc.sql("SELECT success FROM flyway_schema_history WHERE version = '9000'")
                            .query(Boolean.class)
                            .single())
                    .as("the 2.5 s migration ran to its end on a pool whose connections give up after 1 s")
                    .isTrue();
            try (Connection connection = kopek.getBean(DataSource.class).getConnection()) {
                assertThat(connection.getNetworkTimeout())
                        .as("Kopek's own connections keep the socket timeout")
                        .isEqualTo(1000);
            }
        }
    }

    /** The history as that release left it: V200 installed right after V150, before V160 to V166. */
    private static void recordAsTheOldRelease(JdbcClient jdbc) {
        int first = jdbc.sql("SELECT installed_rank FROM flyway_schema_history WHERE version = '160'")
                .query(Integer.class)
                .single();
        jdbc.sql("UPDATE flyway_schema_history SET installed_rank = -installed_rank WHERE installed_rank >= :first")
                .param("first", first)
                .update();
        jdbc.sql("""
                UPDATE flyway_schema_history
                   SET installed_rank = :first, version = '200', script = 'V200__dispute_inquiries.sql'
                 WHERE version = '167'
                """).param("first", first).update();
        jdbc.sql("UPDATE flyway_schema_history SET installed_rank = 1 - installed_rank WHERE installed_rank < 0")
                .update();
    }

    private static Flyway flyway(DriverManagerDataSource source) {
        return Migrations.flyway(source);
    }
}
