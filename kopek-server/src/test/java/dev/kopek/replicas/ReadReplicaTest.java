package dev.kopek.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.invariants.InvariantAuditor;
import dev.kopek.ledger.LedgerTransaction;
import dev.kopek.merchants.Merchants;
import dev.kopek.money.PaymentId;
import dev.kopek.money.PrefixedId;
import dev.kopek.outbox.store.OutboxStore.FeedPosition;
import dev.kopek.support.Api;
import dev.kopek.support.ConsoleSession;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.MutableClock;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.StreamingReplica;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Seed 000's incident on a real streaming replica: with the replica's replay paused (a lagging replica, as in the
 * incident), a client's retry with the same idempotency key gets the stored answer and the PSP is charged once —
 * the key store is on the primary, whatever the replica says — and the caller's own payment is there on a GET
 * right after its POST. The console's lists come from the replica: they still work, say how far behind they are,
 * and do not yet show the payment.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {KopekApplication.class, IntegrationTest.TestBeans.class})
// Closed after the class: @AfterAll stops its servers, and a cached context would go on running its workers against
// nothing, each warning "database unavailable" a few seconds later, inside whichever class runs next
// (DatabaseGoneTest counts exactly those warnings).
@DirtiesContext
class ReadReplicaTest {

    private static final String DATABASE = "kopek_replicated";
    private static final StreamingReplica SERVERS = StreamingReplica.start(DATABASE);

    @DynamicPropertySource
    static void primaryAndReplica(DynamicPropertyRegistry registry) {
        IntegrationTest.commonProperties(registry, SERVERS.primaryUrl(DATABASE));
        registry.add("kopek.db.read.url", () -> SERVERS.standbyUrl(DATABASE));
    }

    @AfterAll
    static void stopServers() throws IOException {
        SERVERS.close();
    }

    @LocalServerPort
    private int port;

    @Autowired
    private Merchants merchants;

    @Autowired
    private InvariantAuditor auditor;

    @Autowired
    private MutableClock clock;

    @Test
    void aRetryWhileTheReplicaLagsGetsTheStoredAnswerAndChargesOnce() throws Exception {
        URI base = URI.create("http://127.0.0.1:" + port);
        var merchant = merchants.create("Replicated " + UUID.randomUUID());
        Api shop = new Api(base, merchants.issueKey(merchant.id()).secret());
        ConsoleSession console = ConsoleSession.logIn(base, IntegrationTest.ADMIN_TOKEN);
        SERVERS.pauseReplay();
        try {
            String reference = Api.unique("seed000");
            String key = Api.newKey();
            String body = Api.payment(reference, 4_990, "EUR", "pm_ok");

            Api.Response first = shop.pay(key, body);
            Api.Response retry = shop.pay(key, body);

            assertThat(first.status()).isEqualTo(201);
            assertThat(retry.status()).as("the retry's answer").isEqualTo(201);
            assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(retry.body()).isEqualTo(first.body());
            assertThat(chargesAtPsp(reference)).as("charged at the PSP").isEqualTo(1);
            assertThat(SERVERS.caughtUp())
                    .as("the replica has not seen the payment")
                    .isFalse();
            String id = first.text("id");
            assertThat(shop.get("/v1/payments/" + id).status())
                    .as("the caller's own write, right after it")
                    .isEqualTo(200);

            String payments = console.page("/console/payments?q=" + reference);
            assertThat(payments).contains("lists read from a replica").doesNotContain(id);
            assertThat(console.page("/console/health")).contains("lists read from a replica");
            assertThat(console.page("/console/attention")).contains("behind");
        } finally {
            SERVERS.resumeReplay();
        }
    }

    @Test
    void historyAndBalancesComeFromTheReplicaAndAReadByIdFromThePrimary() throws Exception {
        Shop shop = newShop("History");
        SERVERS.pauseReplay();
        String paymentId;
        String balanceBefore;
        try {
            balanceBefore = shop.api().get("/v1/balance").body();
            Api.Response paid = shop.api().pay(Api.newKey(), Api.payment(Api.unique("history"), 2_500, "EUR", "pm_ok"));
            assertThat(paid.status()).isEqualTo(201);
            paymentId = paid.text("id");

            Api.Response history = shop.api().get("/v1/ledger/transactions?payment_id=" + paymentId);
            assertThat(history.status()).isEqualTo(200);
            assertThat(history.json().get("data"))
                    .as("history read from the paused replica")
                    .isEmpty();
            assertThat(shop.api().get("/v1/balance").body())
                    .as("the balance read from the paused replica")
                    .isEqualTo(balanceBefore);
            String journalId = ledgerTransactionOf(paymentId);
            assertThat(shop.api().get("/v1/ledger/transactions/" + journalId).status())
                    .as("a journal transaction read by its id, on the primary")
                    .isEqualTo(200);
        } finally {
            SERVERS.resumeReplay();
        }
        SERVERS.awaitCaughtUp();
        assertThat(shop.api()
                        .get("/v1/ledger/transactions?payment_id=" + paymentId)
                        .json()
                        .get("data"))
                .as("history once the replica caught up")
                .isNotEmpty();
        assertThat(shop.api().get("/v1/balance").body()).isNotEqualTo(balanceBefore);
    }

    /**
     * The feed's cursor from the primary (an instance that read it there while its standby was down, then reads a
     * standby that lags) gives an empty page on the lagging replica that keeps the cursor, and once the replica
     * caught up, exactly the events after it: a shorter page, never a hole.
     */
    @Test
    void theFeedOnALaggingReplicaIsShorterNeverAHole() throws Exception {
        Shop shop = newShop("Feed");
        assertThat(shop.api()
                        .pay(Api.newKey(), Api.payment(Api.unique("feed-1"), 1_000, "EUR", "pm_ok"))
                        .status())
                .isEqualTo(201);
        SERVERS.awaitCaughtUp();
        UUID merchant = shop.merchant();
        SERVERS.pauseReplay();
        String primaryCursor;
        try {
            Api.Response second =
                    shop.api().pay(Api.newKey(), Api.payment(Api.unique("feed-2"), 2_000, "EUR", "pm_ok"));
            Api.Response third = shop.api().pay(Api.newKey(), Api.payment(Api.unique("feed-3"), 3_000, "EUR", "pm_ok"));
            assertThat(second.status()).isEqualTo(201);
            assertThat(third.status()).isEqualTo(201);
            primaryCursor = cursorAfterLastEventOf(second.text("id"));

            Api.Response lagging = shop.api().get("/v1/events?after=" + primaryCursor);
            assertThat(lagging.status()).isEqualTo(200);
            assertThat(lagging.json().get("data"))
                    .as("a page the replica cannot fill yet")
                    .isEmpty();
            assertThat(lagging.text("next_cursor"))
                    .as("an empty page keeps the cursor")
                    .isEqualTo(primaryCursor);
            List<String> fromStart = eventIds(shop.api().get("/v1/events?limit=100"));
            assertThat(fromStart)
                    .as("from the start, the replica's events: a shorter page than the primary's")
                    .isEqualTo(eventIdsAfter(SERVERS.standby(DATABASE), merchant, 0, 0))
                    .isNotEmpty()
                    .hasSizeLessThan(eventIdsAfter(SERVERS.primary(DATABASE), merchant, 0, 0)
                            .size());
        } finally {
            SERVERS.resumeReplay();
        }
        SERVERS.awaitCaughtUp();
        FeedPosition from = decode(primaryCursor);
        assertThat(eventIds(shop.api().get("/v1/events?limit=100&after=" + primaryCursor)))
                .as("after the primary's cursor, every later event and nothing skipped")
                .isNotEmpty()
                .isEqualTo(eventIdsAfter(SERVERS.primary(DATABASE), merchant, from.txId(), from.logPosition()));
    }

    @Test
    void theAuditReadsItsSlicesOnTheReplicaAndWritesItsCursorsOnThePrimary() throws Exception {
        Shop shop = newShop("Audit");
        SERVERS.pauseReplay();
        try {
            assertThat(shop.api()
                            .pay(Api.newKey(), Api.payment(Api.unique("audit"), 4_000, "EUR", "pm_ok"))
                            .status())
                    .isEqualTo(201);
            auditor.completePasses();
            assertThat(lastPassRows("ledger_balanced"))
                    .as("the last pass covered the replica's journal, written on the primary")
                    .isEqualTo(count(SERVERS.standby(DATABASE), "ledger_transactions"))
                    .isLessThan(count(SERVERS.primary(DATABASE), "ledger_transactions"));
            assertThat(SERVERS.primary(DATABASE).sql("""
                                    SELECT count(*) FROM invariant_violations
                                     WHERE check_name = 'balances_equal_entries' AND cleared_at IS NULL
                                    """).query(Long.class).single())
                    .as("the balances' running sums, written on the primary ahead of the paused replica, are never"
                            + " read from it: no false finding")
                    .isZero();
        } finally {
            SERVERS.resumeReplay();
        }
        SERVERS.awaitCaughtUp();
        auditor.completePasses();
        assertThat(lastPassRows("ledger_balanced")).isEqualTo(count(SERVERS.primary(DATABASE), "ledger_transactions"));
        assertThat(new Api(base(), IntegrationTest.ADMIN_TOKEN)
                        .get("/v1/ops/invariants")
                        .json()
                        .get("violations")
                        .asLong())
                .isZero();
    }

    /**
     * The settlement scan reads the replica once it has the file: a difference planted on the primary while replay
     * is paused is not seen by a pass (the replica's past: no sighting is written), and is a candidate, written on
     * the primary, once the replica caught up.
     */
    @Test
    void theSettlementScanReadsTheReplicaOnceItHasTheFile() {
        SharedSimulator.get().advanceClock(clock.offset());
        try {
            Shop shop = newShop("Settled");
            Api.Response paid = shop.api().pay(Api.newKey(), Api.payment(Api.unique("settled"), 6_000, "EUR", "pm_ok"));
            assertThat(paid.status()).isEqualTo(201);
            String reference = paid.text("psp_reference");
            LocalDate day = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
            Duration ahead = Duration.between(
                    clock.instant(), day.plusDays(1).atTime(0, 30).toInstant(ZoneOffset.UTC));
            clock.advance(ahead);
            SharedSimulator.get().advanceClock(ahead);
            settle(day);
            SERVERS.awaitCaughtUp();

            SERVERS.pauseReplay();
            try {
                SERVERS.primary(DATABASE)
                        .sql("UPDATE payments SET amount_captured = amount_captured - 1 WHERE psp_reference = :r")
                        .param("r", reference)
                        .update();
                assertThat(newCandidates(settle(day), day))
                        .as("the scan read the paused replica, where the amounts agree")
                        .isZero();
            } finally {
                SERVERS.resumeReplay();
            }
            SERVERS.awaitCaughtUp();
            assertThat(newCandidates(settle(day), day))
                    .as("the planted difference, once the replica has it")
                    .isEqualTo(1);
        } finally {
            SharedSimulator.get().reset();
        }
    }

    private JsonNode settle(LocalDate day) {
        Api.Response ran = new Api(base(), IntegrationTest.ADMIN_TOKEN)
                .post("/v1/ops/settlements/runs", null, "{\"date\":\"" + day + "\"}");
        assertThat(ran.status()).as(ran.body()).isEqualTo(200);
        return ran.json();
    }

    private static int newCandidates(JsonNode run, LocalDate day) {
        for (JsonNode pass : run.get("passes")) {
            if (pass.get("settlement_date").asString().equals(day.toString())) {
                return pass.get("new_candidates").asInt();
            }
        }
        throw new AssertionError("no pass of " + day + " in " + run);
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** A new merchant's API client, and its id. */
    private record Shop(Api api, UUID merchant) {}

    private Shop newShop(String name) {
        var merchant = merchants.create(name + " " + UUID.randomUUID());
        return new Shop(
                new Api(base(), merchants.issueKey(merchant.id()).secret()),
                merchant.id().value());
    }

    private static String ledgerTransactionOf(String paymentId) {
        UUID id = SERVERS.primary(DATABASE)
                .sql("SELECT id FROM ledger_transactions WHERE payment_id = :p ORDER BY id LIMIT 1")
                .param("p", PaymentId.parse(paymentId).orElseThrow().value())
                .query(UUID.class)
                .single();
        return PrefixedId.format(LedgerTransaction.ID_PREFIX, id);
    }

    /** The feed's cursor format (a version byte, the transaction id and the log position, base64url). */
    private static String cursorAfterLastEventOf(String paymentId) {
        FeedPosition last = SERVERS.primary(DATABASE)
                .sql("""
                        SELECT tx_id, log_position FROM outbox WHERE public_id = :p
                         ORDER BY tx_id DESC, log_position DESC LIMIT 1
                        """)
                .param("p", paymentId)
                .query((rs, n) -> new FeedPosition(rs.getLong("tx_id"), rs.getLong("log_position")))
                .single();
        ByteBuffer bytes = ByteBuffer.allocate(1 + 2 * Long.BYTES)
                .put((byte) 1)
                .putLong(last.txId())
                .putLong(last.logPosition());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    private static FeedPosition decode(String cursor) {
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getUrlDecoder().decode(cursor), 1, 2 * Long.BYTES);
        return new FeedPosition(bytes.getLong(), bytes.getLong());
    }

    private static List<String> eventIdsAfter(JdbcClient server, UUID merchant, long txId, long logPosition) {
        return server
                .sql("""
                        SELECT envelope FROM outbox
                         WHERE merchant_id = :m AND (tx_id, log_position) > (:tx, :position)
                         ORDER BY tx_id, log_position
                        """)
                .param("m", merchant)
                .param("tx", txId)
                .param("position", logPosition)
                .query(String.class)
                .list()
                .stream()
                .map(envelope -> Api.JSON.readTree(envelope).get("id").asString())
                .toList();
    }

    private static List<String> eventIds(Api.Response page) {
        assertThat(page.status()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        page.json().get("data").forEach(event -> ids.add(event.get("id").asString()));
        return ids;
    }

    private static long lastPassRows(String check) {
        return SERVERS.primary(DATABASE)
                .sql("SELECT last_pass_rows FROM invariant_cursors WHERE check_name = :c")
                .param("c", check)
                .query(Long.class)
                .single();
    }

    private static long count(JdbcClient jdbc, String table) {
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }

    private static long chargesAtPsp(String reference) {
        return SharedSimulator.get().charges().stream()
                .filter(c -> reference.equals(c.reference()) && c.status().equals("succeeded"))
                .count();
    }
}
