package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.kopek.invariants.InvariantAuditor;
import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.OwnKopek;
import dev.kopek.support.OwnPostgres;
import dev.kopek.support.SharedSimulator;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a failover does to requests, seen one cause at a time on a server of the test's own (issue 22 §2, §3): a
 * session the server ends (57P01, as Patroni's demotion does), a server that turned read-only (25006, a standby or a
 * demoted primary), a server that is gone. Each is a 503 database_unavailable with Retry-After — never a 500 — on
 * the API, the admin API and the PSP notification endpoint (the PSP sends it again), counted in
 * kopek_database_unavailable_total; the retry with the same key charges once; a read-only answer replaces every
 * pooled connection; and the background workers (the invariant audit among them) warn once per outage, never log an
 * ERROR, and resume by themselves.
 */
class DatabaseGoneTest {

    private static final String SECRET = "whsec_simulator";

    private static OwnKopek own;
    private static OwnPostgres server;
    private static ConfigurableApplicationContext kopek;
    private static URI base;
    private static Api api;
    private static Api admin;

    @BeforeAll
    static void start() {
        own = OwnKopek.start(
                "--kopek.db.pool-size=4",
                "--kopek.db.connection-timeout=500ms",
                "--kopek.db.payment-connection-wait=1s");
        server = own.server();
        kopek = own.context();
        base = own.base();
        api = own.merchant("Failover merchant");
        admin = new Api(base, IntegrationTest.ADMIN_TOKEN);
    }

    /** Each test starts with a pool that works, whatever the test before it did to the server. */
    @BeforeEach
    void poolWorks() throws InterruptedException {
        for (int i = 0; api.get("/v1/balance").status() != 200; i++) {
            assertThat(i).as("Kopek reads from its database again").isLessThan(600);
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stop() {
        if (own != null) {
            own.close();
        }
    }

    @Test
    void aSessionTheServerEndsMidRequestIsA503AndTheRetryChargesOnce() throws Exception {
        String reference = Api.unique("ended");
        String key = Api.newKey();
        String body = Api.payment(reference, 700, "EUR", "pm_ok");
        double before = unavailable("http", "shutdown");
        Api.Response answer;
        // The test holds the merchant's row, so the payment's phase 1 waits for it where the test can end its session.
        try (Connection holder = server.connect(OwnPostgres.DATABASE)) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.execute("SELECT 1 FROM merchants FOR UPDATE");
            }
            CompletableFuture<Api.Response> paying = CompletableFuture.supplyAsync(() -> api.pay(key, body));
            terminate(blockedBackend(paying));
            answer = paying.join();
            holder.rollback();
        }

        assertUnavailable(answer);
        assertThat(unavailable("http", "shutdown")).isEqualTo(before + 1);
        Api.Response retried = api.pay(key, body);
        assertThat(retried.status()).isEqualTo(201);
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void aServerThatTurnedReadOnlyIsA503AndEveryPooledConnectionIsReplaced() throws Exception {
        String reference = Api.unique("readonly");
        String key = Api.newKey();
        String body = Api.payment(reference, 800, "EUR", "pm_ok");
        assertThat(api.get("/v1/balance").status()).isEqualTo(200);
        Set<Integer> before = kopekBackends();
        assertThat(before).isNotEmpty();
        readOnly(true);
        try {
            assertUnavailable(api.pay(key, body));
            assertUnavailable(admin.post(
                    "/v1/admin/merchants", Api.newKey(), "{\"name\":\"" + Api.unique("written on a standby") + "\"}"));
            assertUnavailable(notification());
        } finally {
            readOnly(false);
        }

        // Kopek's sessions opened before are gone (closing them takes the pool a moment): it let go of them on the
        // read-only answer, so none is left talking to a server that takes no writes.
        Set<Integer> left = stillOpen(before);
        for (int i = 0; i < 100 && !left.isEmpty(); i++) {
            Thread.sleep(50);
            left = stillOpen(before);
        }
        assertThat(left).as("sessions from before the read-only answer").isEmpty();
        assertThat(api.pay(key, body).status()).isEqualTo(201);
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void aServerThatIsGoneIsA503EverywhereAndTheWorkersWarnOnceAndResume() throws Exception {
        ListAppender<ILoggingEvent> log = capture();
        InvariantAuditor auditor = kopek.getBean(InvariantAuditor.class);
        String reference = Api.unique("gone");
        String key = Api.newKey();
        String body = Api.payment(reference, 900, "EUR", "pm_ok");
        double projectorFailures = unavailable("ledger projector", "no_connection");
        server.stop();
        try {
            assertUnavailable(api.pay(key, body));
            assertUnavailable(api.get("/v1/balance"));
            assertUnavailable(admin.get("/v1/ops/audit"));
            assertUnavailable(notification());
            auditor.tick();
            auditor.tick();
            // The projector runs every 200 ms; it pauses 1 s, then 2 s, after a failed pass, and warns only once.
            for (int i = 0; unavailable("ledger projector", "no_connection") < projectorFailures + 3; i++) {
                assertThat(i).as("failed passes of the projector, counted").isLessThan(600);
                Thread.sleep(100);
            }
        } finally {
            server.restart();
        }
        // The client retries with the same key, as Retry-After says, until the pool has connected again.
        Api.Response retried = api.pay(key, body);
        for (int i = 0; retried.status() == 503; i++) {
            assertThat(i).as("the pool reconnects by itself").isLessThan(600);
            Thread.sleep(50);
            retried = api.pay(key, body);
        }
        assertThat(retried.status()).as(retried.body()).isEqualTo(201);
        for (int i = 0; !projectorResumed(log); i++) {
            assertThat(i).as("the projector says it resumed").isLessThan(600);
            Thread.sleep(100);
        }
        auditor.tick();
        detach(log);

        assertThat(lines(log, Level.WARN, "ledger projector: database unavailable"))
                .as("one warning for the whole outage")
                .hasSize(1);
        // Found in review: the audit's tick threw on its gauges, and the scheduler logged an ERROR with a stack.
        assertThat(lines(log, Level.WARN, "invariants: database unavailable"))
                .as("the audit's one warning")
                .hasSize(1);
        assertThat(lines(log, Level.INFO, "invariants: database available again"))
                .as("the audit's line when it resumed")
                .hasSize(1);
        List<ILoggingEvent> kopeks = log.list.stream()
                .filter(e -> e.getLoggerName().startsWith("dev.kopek."))
                .toList();
        assertThat(kopeks.stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage))
                .as("no ERROR line of Kopek's while the database was away")
                .isEmpty();
        assertThat(kopeks.stream().filter(e -> e.getThrowableProxy() != null).map(ILoggingEvent::getFormattedMessage))
                .as("no stack trace in Kopek's lines")
                .isEmpty();
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    private static List<String> lines(ListAppender<ILoggingEvent> log, Level level, String start) {
        return log.list.stream()
                .filter(e -> e.getLevel() == level && e.getFormattedMessage().startsWith(start))
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    private static boolean projectorResumed(ListAppender<ILoggingEvent> log) {
        return log.list.stream()
                .anyMatch(e -> e.getFormattedMessage().startsWith("ledger projector: database available"));
    }

    private static void assertUnavailable(Api.Response answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertThat(answer.text("code")).isEqualTo("database_unavailable");
        assertThat(answer.header("Retry-After")).isEqualTo("1");
    }

    /** A signed PSP notification about a charge Kopek does not know: stored, then matched later. */
    private static Api.Response notification() {
        String body = "{\"id\":\"evt_" + UUID.randomUUID() + "\",\"type\":\"charge.succeeded\",\"created\":"
                + Instant.now().getEpochSecond()
                + ",\"data\":{\"id\":\"ch_gone\",\"object\":\"charge\",\"status\":\"succeeded\",\"amount\":100,"
                + "\"currency\":\"EUR\",\"idempotency_key\":\"kpk_gone_" + UUID.randomUUID() + "\"}}";
        Api anonymous = new Api(base, null);
        return anonymous.send(anonymous
                .request("/v1/psp/simulator/webhooks")
                .header("Content-Type", "application/json")
                .header(
                        WebhookSignature.HEADER,
                        WebhookSignature.header(SECRET, Instant.now().getEpochSecond(), body))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    private static long chargesAtPsp(String reference) {
        return SharedSimulator.get().charges().stream()
                .filter(c -> reference.equals(c.reference()) && c.status().equals("succeeded"))
                .count();
    }

    private static double unavailable(String where, String reason) {
        var counter = kopek.getBean(MeterRegistry.class)
                .find("kopek.database.unavailable")
                .tags("where", where, "reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    /** Kopek's backend waiting for the row the test holds; fails if the request ended without waiting for it. */
    private static int blockedBackend(CompletableFuture<Api.Response> paying)
            throws SQLException, InterruptedException {
        while (true) {
            if (paying.isDone()) {
                throw new AssertionError("the payment never waited for the merchant's row: "
                        + paying.join().body());
            }
            try (Connection c = server.connect(OwnPostgres.DATABASE);
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("""
                            SELECT pid FROM pg_stat_activity
                             WHERE application_name = 'kopek' AND wait_event_type = 'Lock'
                            """)) {
                if (rs.next()) {
                    return rs.getInt(1);
                }
            }
            Thread.sleep(20);
        }
    }

    private static void terminate(int pid) throws SQLException {
        try (Connection c = server.connect(OwnPostgres.DATABASE);
                PreparedStatement s = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
            s.setInt(1, pid);
            s.execute();
        }
    }

    private static Set<Integer> stillOpen(Set<Integer> before) throws SQLException {
        Set<Integer> left = new HashSet<>(kopekBackends());
        left.retainAll(before);
        return left;
    }

    private static Set<Integer> kopekBackends() throws SQLException {
        Set<Integer> pids = new HashSet<>();
        try (Connection c = server.connect(OwnPostgres.DATABASE);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_activity WHERE application_name = 'kopek'")) {
            while (rs.next()) {
                pids.add(rs.getInt(1));
            }
        }
        return pids;
    }

    /**
     * Every session of the server, Kopek's open ones included, takes no writes from its next statement on: the
     * reload reaches the sessions a moment after it returns, so a session opened before it is asked until it has.
     */
    private static void readOnly(boolean on) throws SQLException, InterruptedException {
        try (Connection witness = server.connect(OwnPostgres.DATABASE);
                Statement s = witness.createStatement()) {
            s.execute(
                    on
                            ? "ALTER SYSTEM SET default_transaction_read_only = on"
                            : "ALTER SYSTEM RESET default_transaction_read_only");
            s.execute("SELECT pg_reload_conf()");
            String wanted = on ? "on" : "off";
            while (true) {
                try (ResultSet rs = s.executeQuery("SHOW default_transaction_read_only")) {
                    rs.next();
                    if (rs.getString(1).equals(wanted)) {
                        return;
                    }
                }
                Thread.sleep(10);
            }
        }
    }

    private static ListAppender<ILoggingEvent> capture() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(appender);
        return appender;
    }

    private static void detach(ListAppender<ILoggingEvent> appender) {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(appender);
    }
}
