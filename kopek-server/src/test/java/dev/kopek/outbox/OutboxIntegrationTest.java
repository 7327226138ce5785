package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.outbox.relay.KafkaPublisher;
import dev.kopek.outbox.relay.PollingRelay;
import dev.kopek.outbox.store.OutboxStore;
import dev.kopek.outbox.webhooks.DeliveryWorker;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.MutableClock;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.TestDatabase;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A whole Kopek with Kafka configured (the shared embedded KRaft broker) and the outbox workers switched off, so
 * tests run relays and deliveries by hand and move the clock instead of sleeping. It is IntegrationTest's set-up
 * with its own database: the plain IntegrationTest context runs the webhook worker on schedule with its own
 * clock, and on a shared database it would take this context's deliveries. All outbox tests share this one
 * context.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {KopekApplication.class, IntegrationTest.TestBeans.class})
abstract class OutboxIntegrationTest {

    private static final String DATABASE = TestDatabase.newDatabase();
    /** A retired secrets key this context can still open with (rotation tests); base64 of 32 bytes. */
    protected static final String OLD_SECRETS_KEY = "b2xkLWtvcGVrLXRlc3Qtc2VjcmV0cy1rZXktMDEyMzQ=";

    @LocalServerPort
    protected int port;

    @Autowired
    protected MutableClock clock;

    @Autowired
    protected Merchants merchants;

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    protected TransactionTemplate tx;

    @Autowired
    protected OutboxStore store;

    @Autowired
    protected KafkaPublisher publisher;

    @Autowired
    protected PollingRelay relay;

    @Autowired
    protected DeliveryWorker deliveries;

    @DynamicPropertySource
    static void outbox(DynamicPropertyRegistry registry) {
        IntegrationTest.commonProperties(registry, DATABASE);
        registry.add("kopek.kafka.bootstrap-servers", SharedKafka::bootstrapServers);
        registry.add("kopek.outbox.workers-enabled", () -> "false");
        registry.add("kopek.secrets-old-keys", () -> OLD_SECRETS_KEY);
        registry.add("kopek.outbox.cdc.slot", () -> "kopek_outbox_test");
        registry.add("kopek.outbox.cdc.publication", () -> "kopek_outbox_test");
    }

    @AfterEach
    void resetSimulator() {
        SharedSimulator.get().reset();
    }

    protected URI baseUri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    protected Api newMerchant() {
        var merchant = merchants.create("Merchant " + UUID.randomUUID());
        return new Api(baseUri(), merchants.issueKey(merchant.id()).secret());
    }

    protected static String newReference() {
        return Api.unique("order");
    }

    /** Publishes whatever is unpublished, so a test starts from an empty outbox. */
    protected void drainOutbox() {
        relay.drain(10_000);
    }

    /** A slot nobody reads retains WAL for ever: tests drop theirs (the walsender may take a moment to leave). */
    protected void dropSlot(String slot) throws InterruptedException {
        for (int i = 0; i < 50; i++) {
            int dropped = jdbc.sql("""
                    SELECT count(pg_drop_replication_slot(slot_name)) FROM pg_replication_slots
                     WHERE slot_name = :slot AND NOT active
                    """).param("slot", slot).query(Integer.class).single();
            if (dropped == 1) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("slot " + slot + " stayed active after the engine stopped");
    }

    /** One gauge's value as Prometheus scrapes it; the Kafka relay's gauges exist only in a Kafka context. */
    protected double scraped(String metric) {
        Api.Response scrape = new Api(baseUri(), IntegrationTest.ADMIN_TOKEN).get("/actuator/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        Matcher value =
                Pattern.compile("(?m)^" + metric + "(?:\\{[^}]*})? (\\S+)$").matcher(scrape.body());
        assertThat(value.find()).as(metric + " is scraped").isTrue();
        return Double.parseDouble(value.group(1));
    }

    protected record StoredEvent(UUID id, String type, long sequence, boolean published) {}

    /** The outbox rows of one resource (by public id), in their order. */
    protected List<StoredEvent> eventsOf(String publicId) {
        return jdbc.sql("""
                SELECT id, event_type, sequence, published_at IS NOT NULL AS published FROM outbox
                 WHERE public_id = :id ORDER BY log_position
                """)
                .param("id", publicId)
                .query((rs, n) -> new StoredEvent(
                        rs.getObject("id", UUID.class),
                        rs.getString("event_type"),
                        rs.getLong("sequence"),
                        rs.getBoolean("published")))
                .list();
    }
}
