package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.KopekApplication;
import dev.kopek.support.IntegrationTest;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** An unusable database stops start-up with one clear sentence, and never shows a password. */
class DatabaseStartupTest {

    @Test
    void unreachableDatabaseFailsWithOneClearLine() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String url = "jdbc:postgresql://127.0.0.1:" + closedPort + "/kopek?password=hunter2";

        assertThatThrownBy(() -> new SpringApplicationBuilder(KopekApplication.class)
                        .run(
                                "--server.port=0",
                                "--kopek.db.url=" + url,
                                "--kopek.db.connection-timeout=1s",
                                "--kopek.demo-enabled=false",
                                "--kopek.reconciler.enabled=false",
                                "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY))
                .satisfies(e -> {
                    Throwable cause = e;
                    while (cause != null && !(cause instanceof DatabaseUnavailableException)) {
                        cause = cause.getCause();
                    }
                    assertThat(cause).isNotNull();
                    FailureAnalysis analysis = new DatabaseFailureAnalyzer().analyze(e);
                    assertThat(analysis.getDescription())
                            .contains("cannot use PostgreSQL at jdbc:postgresql://127.0.0.1:" + closedPort)
                            .contains("password=***")
                            .doesNotContain("hunter2")
                            .doesNotContain("\n");
                });
    }

    /**
     * PostgreSQL 15 is the oldest Kopek runs on (migration V140), 15 to 17 are run by the build (PostgreSql15Test and
     * the embedded 17); an older server is refused before any migration, with the reason.
     */
    @Test
    void aServerOlderThan15IsRefusedWithTheReason() {
        assertThat(DatabaseConfiguration.refusal("PostgreSQL", 14, "14.12"))
                .hasValueSatisfying(reason -> assertThat(reason)
                        .contains(
                                "need PostgreSQL 15 or newer", "UNIQUE NULLS NOT DISTINCT", "found PostgreSQL 14.12"));
        assertThat(DatabaseConfiguration.refusal("PostgreSQL", 15, "15.14")).isEmpty();
        assertThat(DatabaseConfiguration.refusal("PostgreSQL", 17, "17.6")).isEmpty();
        assertThat(DatabaseConfiguration.refusal("MySQL", 8, "8.4")).isPresent();
    }
}
