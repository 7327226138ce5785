package dev.kopek.support;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.reconciliation.StuckAttemptReconciler;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.simulator.ChargeRecord;
import java.net.URI;
import java.time.Clock;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A whole Kopek over real HTTP, on a real PostgreSQL, charging through the real simulator over HTTP. The
 * simulator's own record of charges is the oracle.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {KopekApplication.class, IntegrationTest.TestBeans.class})
public abstract class IntegrationTest {

    public static final String ADMIN_TOKEN = "test-admin-token-0123456789";
    /** A fixed secrets key, so no test writes a key file; base64 of 32 bytes. */
    public static final String SECRETS_KEY = "a29wZWstdGVzdC1zZWNyZXRzLWtleS0wMTIzNDU2Nzg=";

    protected static final AcquirerSimulator SIMULATOR = SharedSimulator.get();
    private static final String DATABASE = TestDatabase.newDatabase();

    @LocalServerPort
    protected int port;

    @Autowired
    protected MutableClock clock;

    @Autowired
    protected Merchants merchants;

    @Autowired
    protected StuckAttemptReconciler reconciler;

    @Autowired
    protected CrashSwitch crash;

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    protected EventRecorder recorder;

    @DynamicPropertySource
    static void kopek(DynamicPropertyRegistry registry) {
        commonProperties(registry, DATABASE);
    }

    public static void commonProperties(DynamicPropertyRegistry registry, String database) {
        registry.add("kopek.db.url", () -> database);
        registry.add("kopek.db.user", () -> "postgres");
        registry.add("kopek.psp.simulator-url", () -> SIMULATOR.baseUri().toString());
        registry.add("kopek.psp.read-timeout", () -> "1s");
        registry.add("kopek.psp.budget", () -> "3s");
        registry.add("kopek.demo-enabled", () -> "false");
        registry.add("kopek.reconciler.enabled", () -> "false");
        // Tests plant broken rows on purpose; the production audit runs when a test asks (InvariantAuditorTest).
        registry.add("kopek.invariants.enabled", () -> "false");
        registry.add("kopek.refunds.dispatch", () -> "false");
        // The retention cleanup runs when a test asks (OutboxCleanupTest). On its own schedule it would delete events
        // that earlier tests aged by moving the clock past the retention, under a test that counts rows (TableCounts).
        registry.add("kopek.outbox.cleanup-initial-delay", () -> "3650d");
        registry.add("kopek.admin-token", () -> ADMIN_TOKEN);
        registry.add("kopek.secrets-key", () -> SECRETS_KEY);
        // Webhook tests post to a receiver on 127.0.0.1 over plain http, as the demo may.
        registry.add("kopek.outbox.webhooks.allow-http-loopback", () -> "true");
        // Far above any test's load: tests that are not about rate limits must never see a 429. RateLimitTest sets
        // small limits per merchant through the admin API.
        registry.add("kopek.rate-limits.writes-per-second", () -> "1000000");
        registry.add("kopek.rate-limits.writes-burst", () -> "10000000");
        registry.add("kopek.rate-limits.reads-per-second", () -> "1000000");
        registry.add("kopek.rate-limits.reads-burst", () -> "10000000");
        registry.add("kopek.rate-limits.global-writes-per-second", () -> "1000000");
        registry.add("kopek.rate-limits.global-writes-burst", () -> "10000000");
        registry.add("kopek.rate-limits.global-reads-per-second", () -> "1000000");
        registry.add("kopek.rate-limits.global-reads-burst", () -> "10000000");
    }

    @TestConfiguration(proxyBeanMethods = false)
    public static class TestBeans {
        @Bean
        @Primary
        MutableClock mutableClock() {
            return new MutableClock();
        }

        @Bean
        CrashSwitch crashSwitch() {
            return new CrashSwitch();
        }

        @Bean
        EventRecorder eventRecorder() {
            return new EventRecorder();
        }

        @Bean
        HandlerLookups handlerLookups() {
            return new HandlerLookups();
        }
    }

    /** The PSP's clock starts where Kopek's is: earlier tests may have moved Kopek's time ahead by days. */
    @BeforeEach
    void alignSimulatorClock() {
        SIMULATOR.advanceClock(clock.offset());
    }

    @AfterEach
    void resetSimulator() {
        SIMULATOR.reset();
    }

    protected URI baseUri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** A new merchant with a fresh key: tests never see each other's data. */
    protected Api newMerchant() {
        var merchant = merchants.create("Merchant " + UUID.randomUUID());
        return new Api(baseUri(), merchants.issueKey(merchant.id()).secret());
    }

    protected Api admin() {
        return new Api(baseUri(), ADMIN_TOKEN);
    }

    /** A fresh payment intent (see {@link Api#unique} for why it is not a plain UUID). */
    protected static String newReference() {
        return Api.unique("order");
    }

    /** Money actually moved at the PSP for this intent: the oracle. */
    protected static long chargesAtPsp(String reference) {
        return SIMULATOR.charges().stream()
                .filter(c -> reference.equals(c.reference()) && c.status().equals("succeeded"))
                .count();
    }

    protected static java.util.List<ChargeRecord> recordsAtPsp(String reference) {
        return SIMULATOR.charges().stream()
                .filter(c -> reference.equals(c.reference()))
                .toList();
    }

    protected long rows(String table) {
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }

    protected Clock clock() {
        return clock;
    }
}
