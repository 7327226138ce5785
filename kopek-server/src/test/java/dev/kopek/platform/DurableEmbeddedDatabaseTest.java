package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run mode's embedded PostgreSQL keeps what Kopek answered: the running server, asked with {@code SHOW}, has
 * fsync, synchronous commit and full-page writes on (the embedded library's defaults are {@code -F} and
 * {@code synchronous_commit=off}), and the small-box sizing of {@link DatabaseConfiguration.EmbeddedDatabase}.
 */
class DurableEmbeddedDatabaseTest {

    @Test
    void runModeServerIsDurable(@TempDir Path dataDir) throws SQLException {
        try (var database = DatabaseConfiguration.EmbeddedDatabase.start(dataDir);
                Connection c = database.postgres().getPostgresDatabase().getConnection()) {
            assertThat(show(c, "fsync")).isEqualTo("on");
            assertThat(show(c, "synchronous_commit")).isEqualTo("on");
            assertThat(show(c, "full_page_writes")).isEqualTo("on");
            assertThat(show(c, "shared_buffers")).isEqualTo("256MB");
            assertThat(show(c, "wal_buffers")).isEqualTo("16MB");
            assertThat(show(c, "checkpoint_timeout")).isEqualTo("15min");
            assertThat(show(c, "max_wal_size")).isEqualTo("2GB");
            assertThat(show(c, "wal_level")).isEqualTo("logical");
            DatabaseConfiguration.EmbeddedDatabase.RUN_MODE_SETTINGS.forEach(
                    (name, value) -> assertThat(show(c, name)).as(name).isEqualTo(value));
        }
    }

    private static String show(Connection c, String setting) {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
