package dev.kopek.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.merchants.Merchants;
import dev.kopek.money.PaymentId;
import dev.kopek.money.PrefixedId;
import dev.kopek.notifications.NotificationInbox;
import dev.kopek.outbox.webhooks.DeliveryWorker;
import dev.kopek.support.Api;
import dev.kopek.support.ConsoleBrowser;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.WebhookReceiver;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What the console's pages say, checked against data made for the test over the real API and PSP simulator: the
 * payment search by id, merchant, status and date finds exactly the matching payments; a payment's story shows the
 * PSP's notifications, its webhook deliveries and its dispute; a Health figure moves by what the test added.
 */
class ConsoleSearchAndStoryTest extends IntegrationTest {

    private static final Pattern ROW = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL);
    private static final Pattern PAYMENT_LINK = Pattern.compile("href=\"/console/payments/(pay_[0-9a-f]{32})\"");

    @Autowired
    DeliveryWorker deliveries;

    @Autowired
    NotificationInbox inbox;

    @Test
    void searchByIdMerchantStatusAndDateFindsExactlyTheMatchingPayments() throws Exception {
        LocalDate first = moveToNoonOfTheNextDay();
        Merchants.Merchant a = merchants.create(Api.unique("Search A"));
        Merchants.Merchant b = merchants.create(Api.unique("Search B"));
        Api apiA = new Api(baseUri(), merchants.issueKey(a.id()).secret());
        Api apiB = new Api(baseUri(), merchants.issueKey(b.id()).secret());
        String a1 = paid(apiA, "pm_ok", 201);
        String a2 = paid(apiA, "pm_declined", 201);
        advance(Duration.ofDays(2));
        LocalDate third = first.plusDays(2);
        String a3 = paid(apiA, "pm_ok", 201);
        String b1 = paid(apiB, "pm_ok", 201);
        String merchantA = PrefixedId.format("mer", a.id().value());
        String merchantB = PrefixedId.format("mer", b.id().value());
        ConsoleBrowser console = ConsoleBrowser.loggedIn(baseUri(), ADMIN_TOKEN);

        assertThat(found(console, "q=" + a2)).containsExactly(a2);
        assertThat(found(console, "merchant=" + merchantA)).containsExactlyInAnyOrder(a1, a2, a3);
        assertThat(found(console, "merchant=" + enc(b.name()))).as("by name").containsExactly(b1);
        assertThat(found(console, "merchant=" + merchantA + "&status=declined")).containsExactly(a2);
        assertThat(found(console, "merchant=" + merchantA + "&status=captured")).containsExactlyInAnyOrder(a1, a3);
        assertThat(found(console, "merchant=" + merchantA + "&from=" + first + "&to=" + first))
                .containsExactlyInAnyOrder(a1, a2);
        assertThat(found(console, "merchant=" + merchantA + "&from=" + third)).containsExactly(a3);
        assertThat(found(console, "merchant=" + merchantA + "&to=" + first.plusDays(1)))
                .containsExactlyInAnyOrder(a1, a2);
        assertThat(found(console, "merchant=" + merchantB + "&status=captured&from=" + first + "&to=" + first))
                .isEmpty();

        String everyone = console.get("/console/payments?status=captured&from=" + third + "&to=" + third)
                .body();
        assertThat(paymentIds(everyone)).contains(a3, b1).doesNotContain(a1, a2);
        assertThat(rows(everyone, "payments"))
                .allSatisfy(row -> assertThat(row).contains(" captured ", " " + third + " "));
    }

    @Test
    void aPaymentsStoryShowsItsNotificationsDeliveriesAndDispute() throws Exception {
        SIMULATOR.configure(SIMULATOR
                .config()
                .withWebhooks(SIMULATOR.config().webhooks().withUrl(baseUri().resolve("/v1/psp/simulator/webhooks"))));
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Api api = newMerchant();
            assertThat(api.post(
                                    "/v1/webhook-endpoints",
                                    Api.newKey(),
                                    "{\"url\":\"" + receiver.url()
                                            + "\",\"event_types\":[\"payment.captured\",\"payment.disputed\"]}")
                            .status())
                    .isEqualTo(201);
            Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 8_000, "EUR", "pm_ok"));
            String id = paid.text("id");
            awaitNotifications(1);
            awaitOutcome(paid.text("psp_reference"));
            String dispute = SIMULATOR.openDispute(paid.text("psp_reference"), 3_000L, "product_not_received");
            awaitNotifications(2);
            assertThat(api.get("/v1/payments/" + id).text("status")).isEqualTo("disputed");
            awaitDeliveries(receiver, 2);

            String story = ConsoleBrowser.loggedIn(baseUri(), ADMIN_TOKEN)
                    .get("/console/payments/" + id)
                    .body();

            assertThat(rows(story, "notifications"))
                    .anySatisfy(row -> assertThat(row).contains("charge.succeeded", "ignored"))
                    .anySatisfy(row -> assertThat(row).contains("dispute.opened", "applied"));
            assertThat(rows(story, "operations"))
                    .singleElement()
                    .satisfies(row ->
                            assertThat(row).contains("dispute", dispute, "30.00 EUR", "open", "product_not_received"));
            assertThat(rows(story, "events"))
                    .anySatisfy(row -> assertThat(row).containsPattern("payment\\.captured .* 1 / 0 / 1 200"))
                    .anySatisfy(row -> assertThat(row).containsPattern("payment\\.disputed .* 1 / 0 / 1 200"))
                    .anySatisfy(row ->
                            assertThat(row).as("not subscribed").containsPattern("payment\\.created .* 0 / 0 / 0 —"));
            assertThat(rows(story, "ledger"))
                    .anySatisfy(row -> assertThat(row).contains("chargeback_withdrawn", "30.00 EUR"));
        }
    }

    /**
     * Issue 24: a payment's story reads each of its lists with a bound. A payment the PSP notified about 201 times
     * shows the first 200 notifications, and the page says that more exist.
     */
    @Test
    void aPaymentsStoryShowsTheFirstRowsOfAListAndSaysMoreExist() throws Exception {
        Api api = newMerchant();
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 1_000, "EUR", "pm_ok"));
        String id = paid.text("id");
        jdbc.sql("""
                INSERT INTO psp_notifications (id, provider, event_id, type, psp_reference, provider_key, payload,
                                               received_at, tries, processed_at, outcome)
                SELECT gen_random_uuid(), 'simulator', 'evt_story_' || gen_random_uuid(), 'charge.succeeded',
                       p.psp_reference, p.provider_key, '{}', now(), 1, now(), 'ignored'
                  FROM payments p, generate_series(1, :count)
                 WHERE p.id = :payment
                """)
                .param("count", ConsoleQueries.STORY_LIMIT + 1)
                .param("payment", PaymentId.parse(id).orElseThrow().value())
                .update();

        String story = ConsoleBrowser.loggedIn(baseUri(), ADMIN_TOKEN)
                .get("/console/payments/" + id)
                .body();

        assertThat(rows(story, "notifications")).hasSize(ConsoleQueries.STORY_LIMIT);
        assertThat(story).contains("id=\"more\"");
        assertThat(story.replaceAll("<[^>]+>", " ").replaceAll("\\s+", " "))
                .contains("Each list shows its first 200 rows; more exist in notifications.");
    }

    @Test
    void theHealthPageCountsTheUnknownOutcomesTheTestAdded() throws Exception {
        ConsoleBrowser console = ConsoleBrowser.loggedIn(baseUri(), ADMIN_TOKEN);
        String before = console.get("/console/health").body();
        Api api = newMerchant();
        for (int i = 0; i < 2; i++) {
            Api.Response unknown = api.pay(Api.newKey(), Api.payment(newReference(), 1_000, "EUR", "pm_5xx_no_charge"));
            assertThat(unknown.status()).as(unknown.body()).isEqualTo(202);
        }

        String after = console.get("/console/health").body();
        String scrape = admin().get("/actuator/prometheus").body();

        assertThat(kpi(after, "unknown outcomes")).isEqualTo(kpi(before, "unknown outcomes") + 2);
        long payments = byKind(after, "payment");
        assertThat(payments).isEqualTo(byKind(before, "payment") + 2);
        assertThat(scrape)
                .as("the page and the metric read the same figure")
                .containsPattern("(?m)^kopek_operations_unknown\\{kind=\"payment\"} " + payments + "\\.0$");
    }

    private String paid(Api api, String method, int status) {
        Api.Response answer = api.pay(Api.newKey(), Api.payment(newReference(), 1_500, "EUR", method));
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        return answer.text("id");
    }

    private List<String> found(ConsoleBrowser console, String query) throws Exception {
        var page = console.get("/console/payments?" + query);
        assertThat(page.statusCode()).as(query).isEqualTo(200);
        return paymentIds(page.body());
    }

    private static List<String> paymentIds(String page) {
        List<String> ids = new ArrayList<>();
        for (String row : rowsHtml(page, "payments")) {
            Matcher link = PAYMENT_LINK.matcher(row);
            if (link.find()) {
                ids.add(link.group(1));
            }
        }
        return ids;
    }

    /** Each body row of the table with that id, as text: tags gone, whitespace collapsed, spaces around cells. */
    private static List<String> rows(String page, String table) {
        return rowsHtml(page, table).stream()
                .map(row -> " "
                        + row.replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").strip() + " ")
                .toList();
    }

    private static List<String> rowsHtml(String page, String table) {
        Matcher found = Pattern.compile("<table[^>]* id=\"" + table + "\"[^>]*>(.*?)</table>", Pattern.DOTALL)
                .matcher(page);
        assertThat(found.find()).as("table " + table).isTrue();
        String body = found.group(1).substring(Math.max(0, found.group(1).indexOf("<tbody")));
        List<String> rows = new ArrayList<>();
        Matcher row = ROW.matcher(body);
        while (row.find()) {
            if (!row.group(1).contains("class=\"empty\"")) {
                rows.add(row.group(1));
            }
        }
        return rows;
    }

    private static long kpi(String page, String label) {
        Matcher m = Pattern.compile("<b>(\\d+)</b><span>" + Pattern.quote(label) + "</span>")
                .matcher(page);
        assertThat(m.find()).as(label).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static long byKind(String page, String kind) {
        return rows(page, "by-kind").stream()
                .filter(r -> r.startsWith(" " + kind + " "))
                .findFirst()
                .map(r -> Long.parseLong(r.strip().split(" ")[1]))
                .orElseThrow();
    }

    private void awaitNotifications(int delivered) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (SIMULATOR.webhookDeliveries().stream().filter(d -> d.delivered()).count() < delivered
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(SIMULATOR.webhookDeliveries().stream()
                        .filter(d -> d.delivered())
                        .count())
                .isGreaterThanOrEqualTo(delivered);
    }

    /**
     * A notification that arrives while the payment's owner still holds its key waits and is applied by the retry
     * pass (NotificationInbox); this runs that pass, on the moved clock, until the notification has an outcome.
     */
    private void awaitOutcome(String pspReference) {
        for (int pass = 0; pass < 20 && outcome(pspReference) == null; pass++) {
            advance(Duration.ofSeconds(10));
            inbox.retryWaiting();
        }
        assertThat(outcome(pspReference))
                .as("the charge's notification was applied or ignored")
                .isNotNull();
    }

    private String outcome(String pspReference) {
        return jdbc.sql("SELECT outcome FROM psp_notifications WHERE psp_reference = :ref")
                .param("ref", pspReference)
                .query(String.class)
                .optional()
                .orElse(null);
    }

    private void awaitDeliveries(WebhookReceiver receiver, int received) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (receiver.received().size() < received && System.nanoTime() < deadline) {
            deliveries.deliverDue();
            Thread.sleep(20);
        }
        assertThat(receiver.received()).hasSize(received);
    }

    private LocalDate moveToNoonOfTheNextDay() {
        LocalDate next = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).plusDays(1);
        advance(Duration.between(clock.instant(), next.atTime(LocalTime.NOON).toInstant(ZoneOffset.UTC)));
        return next;
    }

    private void advance(Duration ahead) {
        clock.advance(ahead);
        SIMULATOR.advanceClock(ahead);
    }

    private static String enc(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
