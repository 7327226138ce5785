package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.outbox.EventsTopic;
import dev.kopek.outbox.SharedKafka;
import dev.kopek.outbox.store.Envelope;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.support.Api;
import dev.kopek.support.DebianPostgres;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.SharedSimulator;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Kopek on PostgreSQL 15, the oldest version it supports (issue 22 §1; Debian's postgresql-15, the version ha/run's
 * Patroni cluster runs): every migration applies in order, a payment is captured, another authorized and captured
 * later, refunded, disputed and charged back, and the CDC relay streams every event of theirs from 15's WAL to the
 * topic. The rest of the suite runs on the embedded 17.
 */
class PostgreSql15Test {

    private static final AcquirerSimulator SIMULATOR = SharedSimulator.get();

    @Test
    void kopekRunsItsMigrationsItsPaymentPathAndItsCdcRelayOnPostgres15() throws Exception {
        Path bin = DebianPostgres.binaries(15);
        try (DebianPostgres server = DebianPostgres.start(bin);
                ConfigurableApplicationContext kopek = kopek(server)) {
            assertThat(serverVersion(server)).startsWith("15.");
            assertThat(appliedMigrations(server)).isEqualTo(migrationFiles());

            URI base = URI.create("http://127.0.0.1:"
                    + ((WebServerApplicationContext) kopek).getWebServer().getPort());
            Merchants merchants = kopek.getBean(Merchants.class);
            Api api = new Api(
                    base,
                    merchants
                            .issueKey(merchants
                                    .create("On 15 " + UUID.randomUUID())
                                    .id())
                            .secret());
            SIMULATOR.configure(SIMULATOR
                    .config()
                    .withWebhooks(SIMULATOR.config().webhooks().withUrl(base.resolve("/v1/psp/simulator/webhooks"))));
            try {
                List<String> payments = scenario(api);
                List<UUID> events = outboxRows(server, payments);
                assertThat(events).hasSizeGreaterThanOrEqualTo(8);
                Set<String> onTopic = new HashSet<>();
                EventsTopic.read(
                        new HashSet<>(payments),
                        seen -> {
                            seen.forEach(p -> onTopic.add(p.eventId()));
                            return events.stream().map(Envelope::eventId).allMatch(onTopic::contains);
                        },
                        Duration.ofSeconds(60));
            } finally {
                SIMULATOR.reset();
            }
        }
    }

    /** Captured at once; authorized, captured, refunded in part; captured and charged back. Their payment ids. */
    private static List<String> scenario(Api api) throws InterruptedException {
        Api.Response captured = api.pay(Api.newKey(), Api.payment(Api.unique("pg15"), 4_000, "EUR", "pm_ok"));
        assertThat(captured.status()).as(captured.body()).isEqualTo(201);
        assertThat(captured.text("status")).isEqualTo("captured");

        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + Api.unique("pg15") + "\",\"amount\":5000,\"currency\":\"EUR\","
                        + "\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        assertThat(authorized.text("status")).isEqualTo("authorized");
        String later = authorized.text("id");
        Api.Response capture = api.post("/v1/payments/" + later + "/capture", Api.newKey(), "{}");
        assertThat(capture.status()).as(capture.body()).isEqualTo(200);
        Api.Response refund =
                api.post("/v1/payments/" + later + "/refunds", Api.newKey(), "{\"amount\":1500,\"reason\":\"pg15\"}");
        assertThat(refund.status()).as(refund.body()).isEqualTo(202);
        String refundId = refund.text("id");
        awaitField(api, "/v1/refunds/" + refundId, "succeeded");

        Api.Response disputed = api.pay(Api.newKey(), Api.payment(Api.unique("pg15"), 6_000, "EUR", "pm_ok"));
        String dispute = SIMULATOR.openDispute(disputed.text("psp_reference"), null, "fraudulent");
        awaitField(api, "/v1/payments/" + disputed.text("id"), "disputed");
        SIMULATOR.resolveDispute(dispute, false);
        awaitField(api, "/v1/payments/" + disputed.text("id"), "charged_back");
        assertThat(api.get("/v1/balance").status()).isEqualTo(200);
        return List.of(captured.text("id"), later, disputed.text("id"));
    }

    /** Waits (bounded) until the resource's status is {@code status}: a refund's dispatch and a webhook are async. */
    private static void awaitField(Api api, String path, String status) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            if (status.equals(api.get(path).text("status"))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(
                path + " never reached " + status + ": " + api.get(path).body());
    }

    private static ConfigurableApplicationContext kopek(DebianPostgres server) {
        return new SpringApplicationBuilder(KopekApplication.class)
                .run(
                        "--server.port=0",
                        "--kopek.db.url=" + server.jdbcUrl(),
                        "--kopek.db.user=postgres",
                        "--kopek.psp.simulator-url=" + SIMULATOR.baseUri(),
                        "--kopek.demo-enabled=false",
                        "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY,
                        "--kopek.settlement.enabled=false",
                        "--kopek.kafka.bootstrap-servers=" + SharedKafka.bootstrapServers(),
                        "--kopek.outbox.mode=cdc",
                        "--kopek.outbox.cdc.slot=kopek_pg15",
                        "--kopek.outbox.cdc.publication=kopek_pg15",
                        "--kopek.outbox.cdc.watchdog-interval=1s",
                        "--kopek.rate-limits.enabled=false");
    }

    private static String serverVersion(DebianPostgres server) throws SQLException {
        try (Connection c = server.connect(DebianPostgres.DATABASE);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW server_version")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static List<String> appliedMigrations(DebianPostgres server) throws SQLException {
        List<String> applied = new ArrayList<>();
        try (Connection c = server.connect(DebianPostgres.DATABASE);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT script FROM flyway_schema_history WHERE success ORDER BY installed_rank")) {
            while (rs.next()) {
                applied.add(rs.getString(1));
            }
        }
        return applied;
    }

    /** The migration files in the order Flyway applies them (by version). */
    private static List<String> migrationFiles() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src", "main", "resources", "db", "migration"))) {
            return files.map(p -> p.getFileName().toString())
                    .sorted((a, b) -> Integer.compare(version(a), version(b)))
                    .toList();
        }
    }

    private static int version(String file) {
        return Integer.parseInt(file.substring(1, file.indexOf("__")));
    }

    /** The payments' own events (the topic's key is the payment's id). */
    private static List<UUID> outboxRows(DebianPostgres server, List<String> payments) throws SQLException {
        List<UUID> ids = new ArrayList<>();
        try (Connection c = server.connect(DebianPostgres.DATABASE);
                PreparedStatement s = c.prepareStatement("SELECT id FROM outbox WHERE public_id = ?")) {
            for (String payment : payments) {
                s.setString(1, payment);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getObject(1, UUID.class));
                    }
                }
            }
        }
        return ids;
    }
}
