package dev.kopek.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.money.PaymentId;
import dev.kopek.outbox.EventsTopic;
import dev.kopek.outbox.SharedKafka;
import dev.kopek.outbox.store.Envelope;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.OwnPostgres;
import dev.kopek.support.PgProxy;
import dev.kopek.support.SharedSimulator;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The primary dies mid-load and a standby that has everything it committed takes over (issue 22 §5, the in-build
 * version of ha/run): Kopek talks to PostgreSQL through a proxy; the primary's postmaster is killed with kill -9
 * while clients pay (some payments waiting for a slow PSP, so in phase 2), every connection drops, and a copy of its
 * data folder — no replication slot, as on a promoted standby — starts on another port behind the same address.
 * Requests during the gap answer 503 database_unavailable with Retry-After and never 500; phase 3 rides through;
 * the clients' retries with the same key succeed; the simulator counts one charge per payment; and the workers
 * resume on the new server by themselves — the relay publishes every event (the CDC relay recreates its lost slot
 * and sends again what was not marked published), the ledger projector projects again.
 */
class FailoverTest {

    private static final AcquirerSimulator SIMULATOR = SharedSimulator.get();
    private static final int CLIENTS = 6;
    private static final int SLOW_CLIENTS = 2;
    private static final int PAYMENTS_EACH_SIDE = 24;
    /** How often a client sends one payment before it gives up (a violation): minutes, never reached when it works. */
    private static final int MAX_TRIES = 600;
    /** 50 ms steps of a bounded wait for a condition: 3 minutes. */
    private static final int WAIT_STEPS = 3_600;

    @ParameterizedTest
    @ValueSource(strings = {"polling", "cdc"})
    void thePrimaryDiesMidLoadAndNothingIsLostOrAnswered500(String mode) throws Exception {
        try (OwnPostgres primary = OwnPostgres.fresh();
                PgProxy address = new PgProxy(primary.port());
                ConfigurableApplicationContext kopek = kopek(address, mode)) {
            Load load = new Load(api(kopek));
            load.start();
            load.awaitAcknowledged(PAYMENTS_EACH_SIDE);
            if (mode.equals("cdc")) {
                // The relay starts on a timer: the primary dies only once its slot exists there, to be lost.
                awaitCounter(kopek, "kopek.outbox.cdc.slot.created", 1, "the slot of the first start");
            }
            double projectedBefore = counter(kopek, "kopek.ledger.projected");

            primary.kill();
            address.refuse(true);
            address.cutAll();
            try (OwnPostgres promoted = primary.promotedCopy()) {
                address.target(promoted.port());
                address.refuse(false);
                int before = load.acknowledged();
                load.awaitAcknowledged(before + PAYMENTS_EACH_SIDE);
                load.stop();

                assertThat(load.violations())
                        .as("answers other than 2xx, 409 or a proper 503")
                        .isEmpty();
                assertThat(load.unavailable())
                        .as("503s while the primary was gone")
                        .isPositive();
                Map<String, String> paid = load.paid();
                for (String reference : paid.keySet()) {
                    assertThat(chargesAtPsp(reference)).as(reference).isEqualTo(1);
                }
                assertThat(statuses(promoted, paid.values())).containsOnly("CAPTURED");
                List<UUID> events = awaitAllPublished(promoted, paid.values());
                Set<String> onTopic = new HashSet<>();
                EventsTopic.read(
                        new HashSet<>(paid.values()),
                        seen -> {
                            seen.forEach(p -> onTopic.add(p.eventId()));
                            return events.stream().map(Envelope::eventId).allMatch(onTopic::contains);
                        },
                        Duration.ofSeconds(60));
                for (int i = 0; counter(kopek, "kopek.ledger.projected") <= projectedBefore; i++) {
                    assertThat(i).as("the ledger projector projected again").isLessThan(WAIT_STEPS);
                    Thread.sleep(50);
                }
                if (mode.equals("cdc")) {
                    assertThat(counter(kopek, "kopek.outbox.cdc.slot.created"))
                            .as("the slot of the first start, and again on the promoted server")
                            .isEqualTo(2);
                }
            } finally {
                load.stop();
            }
        }
    }

    private static ConfigurableApplicationContext kopek(PgProxy address, String mode) {
        String slot = "kopek_failover_" + mode;
        return new SpringApplicationBuilder(KopekApplication.class)
                .run(
                        "--server.port=0",
                        "--kopek.db.url=" + address.jdbcUrl(OwnPostgres.DATABASE),
                        "--kopek.db.user=postgres",
                        "--kopek.db.connection-timeout=500ms",
                        "--kopek.psp.simulator-url=" + SIMULATOR.baseUri(),
                        "--kopek.psp.read-timeout=10s",
                        "--kopek.psp.budget=12s",
                        // The lease outlasts the PSP budget, as in production: a slow PSP call is not taken over.
                        "--kopek.idempotency.lease=15s",
                        "--kopek.idempotency.grace=2s",
                        "--kopek.demo-enabled=false",
                        "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY,
                        "--kopek.reconciler.interval=1s",
                        "--kopek.settlement.enabled=false",
                        "--kopek.kafka.bootstrap-servers=" + SharedKafka.bootstrapServers(),
                        "--kopek.outbox.mode=" + mode,
                        "--kopek.outbox.cdc.slot=" + slot,
                        "--kopek.outbox.cdc.publication=" + slot,
                        "--kopek.outbox.cdc.watchdog-interval=1s",
                        "--kopek.rate-limits.enabled=false");
    }

    private static Api api(ConfigurableApplicationContext kopek) {
        Merchants merchants = kopek.getBean(Merchants.class);
        URI base = URI.create("http://127.0.0.1:"
                + ((WebServerApplicationContext) kopek).getWebServer().getPort());
        return new Api(
                base,
                merchants
                        .issueKey(merchants
                                .create("Failover " + UUID.randomUUID())
                                .id())
                        .secret());
    }

    /**
     * Clients paying in a loop with the retry contract (same key after a 503 or a 409), and one reading its balance;
     * each payment is retried until it has its final answer.
     */
    private static final class Load {

        private final Api api;
        private final AtomicBoolean stopping = new AtomicBoolean();
        private final AtomicInteger acknowledged = new AtomicInteger();
        private final AtomicInteger unavailable = new AtomicInteger();
        private final Map<String, String> paid = new ConcurrentHashMap<>();
        private final List<String> violations = new CopyOnWriteArrayList<>();
        private final List<Thread> threads = new ArrayList<>();

        Load(Api api) {
            this.api = api;
        }

        void start() {
            for (int i = 0; i < CLIENTS; i++) {
                String method = i < SLOW_CLIENTS ? "pm_slow" : "pm_ok";
                threads.add(Thread.ofVirtual().name("client-" + i).start(() -> pay(method)));
            }
            threads.add(Thread.ofVirtual().name("reader").start(this::read));
        }

        private void pay(String method) {
            while (!stopping.get()) {
                String reference = Api.unique("failover");
                String key = Api.newKey();
                String body = Api.payment(reference, 1_000, "EUR", method);
                for (int tries = 1; ; tries++) {
                    Api.Response answer = api.pay(key, body);
                    if (answer.status() == 201) {
                        paid.put(reference, answer.text("id"));
                        acknowledged.incrementAndGet();
                        break;
                    }
                    if (answer.status() != 202) {
                        check(answer); // 202: the PSP's answer is unknown for now; the same key tells the outcome
                    }
                    if (tries == MAX_TRIES) {
                        violations.add("no final answer for " + reference + " after " + tries + " tries");
                        return;
                    }
                    pause(answer.status() == 503 ? 200 : 500);
                }
            }
        }

        private void read() {
            while (!stopping.get()) {
                Api.Response answer = api.get("/v1/balance");
                if (answer.status() != 200) {
                    check(answer);
                }
                pause(50);
            }
        }

        /** A 409 (the key is in flight) and a proper 503 are answers to retry; anything else is a violation. */
        private void check(Api.Response answer) {
            if (answer.status() == 409) {
                return;
            }
            if (answer.status() == 503
                    && "database_unavailable".equals(answer.text("code"))
                    && "1".equals(answer.header("Retry-After"))) {
                unavailable.incrementAndGet();
                return;
            }
            violations.add(answer.status() + " " + answer.body());
        }

        /** A client's pause before it retries (the retry contract asks for one), not a wait for a condition. */
        private static void pause(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void awaitAcknowledged(int count) throws InterruptedException {
            for (int i = 0; acknowledged.get() < count; i++) {
                assertThat(i)
                        .as("payments acknowledged: %s of %s; %s", acknowledged, count, violations)
                        .isLessThan(WAIT_STEPS);
                Thread.sleep(50);
            }
        }

        int acknowledged() {
            return acknowledged.get();
        }

        void stop() throws InterruptedException {
            stopping.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
        }

        int unavailable() {
            return unavailable.get();
        }

        List<String> violations() {
            return violations;
        }

        Map<String, String> paid() {
            return paid;
        }
    }

    private static long chargesAtPsp(String reference) {
        return SIMULATOR.charges().stream()
                .filter(c -> reference.equals(c.reference()) && c.status().equals("succeeded"))
                .count();
    }

    private static void awaitCounter(ConfigurableApplicationContext kopek, String name, double count, String what)
            throws InterruptedException {
        for (int i = 0; counter(kopek, name) < count; i++) {
            assertThat(i).as(what).isLessThan(WAIT_STEPS);
            Thread.sleep(50);
        }
    }

    private static double counter(ConfigurableApplicationContext kopek, String name) {
        var counter = kopek.getBean(MeterRegistry.class).find(name).counter();
        return counter == null ? 0 : counter.count();
    }

    private static List<String> statuses(OwnPostgres server, Collection<String> payments) throws SQLException {
        List<String> statuses = new ArrayList<>();
        try (Connection c = server.connect(OwnPostgres.DATABASE);
                PreparedStatement s = c.prepareStatement("SELECT status FROM payments WHERE id = ?::uuid")) {
            for (String payment : payments) {
                s.setString(1, PaymentId.parse(payment).orElseThrow().value().toString());
                try (ResultSet rs = s.executeQuery()) {
                    statuses.add(rs.next() ? rs.getString(1) : "MISSING " + payment);
                }
            }
        }
        return statuses;
    }

    /** The outbox rows of the payments, once the relay has marked every one of them published. */
    private static List<UUID> awaitAllPublished(OwnPostgres server, Collection<String> payments)
            throws SQLException, InterruptedException {
        for (int i = 0; ; i++) {
            assertThat(i).as("every event of the payments marked published").isLessThan(WAIT_STEPS);
            List<UUID> ids = new ArrayList<>();
            boolean allPublished = true;
            try (Connection c = server.connect(OwnPostgres.DATABASE);
                    PreparedStatement s =
                            c.prepareStatement("SELECT id, published_at IS NOT NULL FROM outbox WHERE public_id = ?")) {
                for (String payment : payments) {
                    s.setString(1, payment);
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            ids.add(rs.getObject(1, UUID.class));
                            allPublished &= rs.getBoolean(2);
                        }
                    }
                }
            }
            if (allPublished) {
                return ids;
            }
            Thread.sleep(50);
        }
    }
}
