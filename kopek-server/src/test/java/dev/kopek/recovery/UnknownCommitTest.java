package dev.kopek.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.MutableClock;
import dev.kopek.support.PgProxy;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The commit happened, its answer was lost (issue 22 §5): Kopek's connection is cut right after the server ended the
 * transaction, as when the primary dies between its COMMIT and the reply. Phase 1 of a payment answers 503 and the
 * key, claimed for real, makes the client's retry wait (409) until the lease ends and then resume by lookup; phase 3
 * of a payment and of a capture find, on their next try, the key completed by their own commit and give the stored
 * answer. Whichever it is, the PSP moves the money once (counted at the simulator) and the same key gives one
 * answer. docs/pipeline.md, "When the database goes away", says statement by statement why.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {KopekApplication.class, IntegrationTest.TestBeans.class})
// Closed after the class: @AfterAll stops its proxy, and a cached context would go on running its workers against
// nothing, each warning "database unavailable" a few seconds later, inside whichever class runs next
// (DatabaseGoneTest counts exactly those warnings).
@DirtiesContext
class UnknownCommitTest {

    private static final AcquirerSimulator SIMULATOR = SharedSimulator.get();
    private static final String DATABASE = databaseName(TestDatabase.newDatabase());
    private static final PgProxy PROXY = proxy();

    @LocalServerPort
    int port;

    @Autowired
    Merchants merchants;

    @Autowired
    MutableClock clock;

    @Autowired
    JdbcClient jdbc;

    private Api api;

    @DynamicPropertySource
    static void kopek(DynamicPropertyRegistry registry) {
        IntegrationTest.commonProperties(registry, PROXY.jdbcUrl(DATABASE));
    }

    @BeforeEach
    void merchant() {
        SIMULATOR.advanceClock(clock.offset());
        api = new Api(
                URI.create("http://127.0.0.1:" + port),
                merchants
                        .issueKey(merchants
                                .create("Merchant " + UUID.randomUUID())
                                .id())
                        .secret());
    }

    @AfterEach
    void resetSimulator() {
        SIMULATOR.reset();
    }

    @AfterAll
    static void closeProxy() {
        PROXY.close();
    }

    @Test
    void aPaymentWhoseClaimCommittedUnseenIsRefused503AndItsRetryChargesOnce() {
        String reference = Api.unique("lost-claim");
        String key = Api.newKey();
        String body = Api.payment(reference, 1_100, "EUR", "pm_ok");
        CompletableFuture<Void> cut = PROXY.cutAfterCommitOf("FOR KEY SHARE");

        Api.Response first = api.pay(key, body);

        assertThat(cut).isDone();
        assertThat(first.status()).as(first.body()).isEqualTo(503);
        assertThat(first.text("code")).isEqualTo("database_unavailable");
        assertThat(first.header("Retry-After")).isEqualTo("1");
        assertThat(keyStatus(key)).as("the claim committed").isEqualTo("IN_PROGRESS");
        assertThat(chargesAtPsp(reference)).isZero();

        // The claim is real: the same key waits for its lease, as for an owner that died, and is then resumed.
        assertThat(api.pay(key, body).status()).isEqualTo(409);
        clock.advance(Duration.ofSeconds(31));
        SIMULATOR.advanceClock(Duration.ofSeconds(31));
        Api.Response resumed = api.pay(key, body);
        assertThat(resumed.status()).as(resumed.body()).isEqualTo(201);
        assertThat(resumed.text("status")).isEqualTo("captured");
        assertThat(api.pay(key, body).body()).isEqualTo(resumed.body());
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void aPaymentWhosePhaseThreeCommittedUnseenAnswersWhatItStored() {
        String reference = Api.unique("lost-answer");
        String key = Api.newKey();
        String body = Api.payment(reference, 1_200, "EUR", "pm_ok");
        CompletableFuture<Void> cut = PROXY.cutAfterCommitOf("SELECT count(*) FROM completed");

        Api.Response first = api.pay(key, body);

        assertThat(cut).isDone();
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(first.text("status")).isEqualTo("captured");
        Api.Response retried = api.pay(key, body);
        assertThat(retried.status()).isEqualTo(201);
        assertThat(retried.body()).isEqualTo(first.body());
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
        assertThat(events(first.text("id"), "payment.captured")).isEqualTo(1);
    }

    @Test
    void aCaptureWhosePhaseThreeCommittedUnseenAnswersWhatItStoredAndCapturesOnce() {
        String reference = Api.unique("lost-capture");
        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + reference + "\",\"amount\":1300,\"currency\":\"EUR\","
                        + "\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        assertThat(authorized.text("status")).isEqualTo("authorized");
        String payment = authorized.text("id");
        String key = Api.newKey();
        CompletableFuture<Void> cut = PROXY.cutAfterCommitOf("UPDATE payment_operations");

        Api.Response first = api.post("/v1/payments/" + payment + "/capture", key, "{}");

        assertThat(cut).isDone();
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        Api.Response retried = api.post("/v1/payments/" + payment + "/capture", key, "{}");
        assertThat(retried.status()).isEqualTo(200);
        assertThat(retried.body()).isEqualTo(first.body());
        assertThat(api.get("/v1/payments/" + payment).text("status")).isEqualTo("captured");
        assertThat(SIMULATOR.capturedTotal(authorized.text("psp_reference")))
                .as("captured once at the PSP")
                .isEqualTo(1300);
    }

    private String keyStatus(String key) {
        return jdbc.sql("SELECT status FROM idempotency_keys WHERE idempotency_key = :key")
                .param("key", key)
                .query(String.class)
                .single();
    }

    private int events(String paymentId, String type) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE public_id = :id AND event_type = :type")
                .param("id", paymentId)
                .param("type", type)
                .query(Integer.class)
                .single();
    }

    private static long chargesAtPsp(String reference) {
        return SIMULATOR.charges().stream()
                .filter(c -> reference.equals(c.reference()) && c.status().equals("succeeded"))
                .count();
    }

    private static String databaseName(String jdbcUrl) {
        String path = jdbcUrl.substring(jdbcUrl.lastIndexOf('/') + 1);
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    private static PgProxy proxy() {
        try {
            return new PgProxy(TestDatabase.server().getPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
