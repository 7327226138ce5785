package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.amountJson;
import static dev.kopek.simulator.SimClient.chargeJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class WebhookTest extends SimulatorWithReceiver {
    private static final Pattern SIGNATURE = Pattern.compile("t=(\\d+),v1=([0-9a-f]{64})");

    /** The documented algorithm, written out independently of WebhookSignature. */
    private static String hmacHex(String secret, String message) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void eachEventIsSignedWithTheDocumentedAlgorithm() throws Exception {
        simulator.configure(
                simulator.config().withWebhooks(simulator.config().webhooks().withSecret("whsec_test")));
        HttpResponse<String> charge = client.charge("k1", chargeJson("pm_ok"));

        WebhookReceiver.Received received = receiver.next();

        Matcher signature = SIGNATURE.matcher(received.signature());
        assertThat(signature.matches()).as(received.signature()).isTrue();
        assertThat(signature.group(2)).isEqualTo(hmacHex("whsec_test", signature.group(1) + "." + received.body()));
        assertThat(WebhookSignature.verify("whsec_test", received.signature(), received.body()))
                .isTrue();
        assertThat(WebhookSignature.verify("whsec_other", received.signature(), received.body()))
                .isFalse();
        assertThat(WebhookSignature.verify("whsec_test", received.signature(), received.body() + " "))
                .isFalse();
        assertThat(received.contentType()).isEqualTo("application/json");
        JsonNode event = received.json();
        assertThat(event.get("id").stringValue()).startsWith("evt_");
        assertThat(event.get("type").stringValue()).isEqualTo("charge.succeeded");
        // created is when the event was made, t when this attempt was signed: the same second or the next.
        assertThat(Long.parseLong(signature.group(1)) - event.get("created").longValue())
                .isBetween(0L, 1L);
        assertThat(event.get("data")).isEqualTo(json(charge));
        assertThat(event.get("data").get("idempotency_key").stringValue()).isEqualTo("k1");
        assertThat(simulator.webhookEvents())
                .singleElement()
                .satisfies(e -> assertThat(e.payload()).isEqualTo(received.body()));
    }

    @Test
    void everyStateChangeIsAnnounced() throws Exception {
        String auth = client.authorize("a", 1000);
        client.capture(auth, "c", amountJson(600));
        client.refund(auth, "r", 100);
        String other = client.authorize("b", 500);
        client.voidCharge(other, "v");
        client.charge("d", chargeJson("pm_declined"));
        String declinesRefunds = client.sale("e", 100, "pm_refund_declined");
        client.refund(declinesRefunds, "r2", 100);

        List<String> types =
                receiver.next(8).stream().map(WebhookReceiver.Received::type).toList();

        assertThat(types)
                .containsExactlyInAnyOrder(
                        "charge.authorized",
                        "capture.succeeded",
                        "refund.succeeded",
                        "charge.authorized",
                        "void.succeeded",
                        "charge.declined",
                        "charge.succeeded",
                        "refund.declined");
        receiver.assertQuietFor(Duration.ofMillis(100));
    }

    @Test
    void nonSuccessAnswersAreRetriedThreeTimes() throws Exception {
        receiver.answer(500, 503);
        simulator.sendWebhook("test.retry", "{\"n\": 1}");

        List<WebhookReceiver.Received> attempts = receiver.next(3);

        assertThat(attempts)
                .extracting(WebhookReceiver.Received::body)
                .containsOnly(attempts.getFirst().body());
        awaitDeliveries(3);
        assertThat(simulator.webhookDeliveries())
                .extracting(WebhookDelivery::attempt, WebhookDelivery::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, 500),
                        org.assertj.core.groups.Tuple.tuple(2, 503),
                        org.assertj.core.groups.Tuple.tuple(3, 200));

        receiver.answer(500, 500, 500, 500, 500);
        simulator.sendWebhook("test.give_up", "{}");
        receiver.next(4);
        receiver.assertQuietFor(Duration.ofMillis(400));
    }

    @Test
    void aRetryWindowKeepsRetryingThroughAnOutage() throws Exception {
        simulator.configure(
                simulator.config().withWebhooks(simulator.config().webhooks().withRetryForMillis(30_000)));
        // Six refusals: the first try, three quick retries, then 400 and 800 ms apart; the seventh try is taken.
        receiver.answer(503, 503, 503, 503, 503, 503);
        simulator.sendWebhook("test.outage", "{}");

        List<WebhookReceiver.Received> attempts = receiver.next(7);

        assertThat(attempts).extracting(WebhookReceiver.Received::type).containsOnly("test.outage");
        awaitDeliveries(7);
        assertThat(simulator.webhookDeliveries())
                .extracting(WebhookDelivery::attempt, WebhookDelivery::status)
                .endsWith(org.assertj.core.groups.Tuple.tuple(7, 200));
        receiver.assertQuietFor(Duration.ofMillis(200));
    }

    @Test
    void copiesUnderWayAreCountedUntilDeliveredOrGivenUp() throws Exception {
        simulator.configure(
                simulator.config().withWebhooks(simulator.config().webhooks().withRetryForMillis(30_000)));
        // Refused four times: the copy is under way through its retries and settled once the fifth try is taken.
        receiver.answer(503, 503, 503, 503);
        simulator.sendWebhook("test.outage", "{}");
        receiver.next(1);
        assertThat(pending()).isEqualTo(1);
        receiver.next(4);
        awaitPending(0);

        // Held for a batch: under way until the batch goes out. A copy refused for good (its first try and three
        // quick retries, with no window) is settled too: it will never arrive.
        simulator.configure(simulator
                .config()
                .withWebhooks(simulator
                        .config()
                        .webhooks()
                        .withRetryForMillis(0)
                        .withReorder(true)
                        .withDelayMillis(60_000)));
        simulator.sendWebhook("test.held", "{}");
        assertThat(pending()).isEqualTo(1);
        receiver.answer(500, 500, 500, 500);
        simulator.flushWebhooks();
        receiver.next(4);
        awaitPending(0);
        receiver.assertQuietFor(Duration.ofMillis(200));
    }

    private long pending() throws Exception {
        return json(client.get("/_sim/webhooks/pending")).get("pending").asLong();
    }

    private void awaitPending(long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (pending() != expected) {
            assertThat(System.nanoTime()).as("pending reaches %d", expected).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void withDuplicateRateOneEveryEventArrivesTwice() throws Exception {
        simulator.configure(
                simulator.config().withWebhooks(simulator.config().webhooks().withDuplicateRate(1)));

        WebhookEvent event = simulator.sendWebhook("test.duplicate", "{}");

        List<WebhookReceiver.Received> received = receiver.next(2);
        assertThat(received).extracting(WebhookReceiver.Received::id).containsOnly(event.id());
        assertThat(received).extracting(WebhookReceiver.Received::body).containsOnly(event.payload());
        receiver.assertQuietFor(Duration.ofMillis(200));
    }

    @Test
    void reorderingHoldsEventsAndSendsThemShuffled() throws Exception {
        // With reordering, webhook_delay_ms is the batch window; flushing ends it early.
        simulator.configure(simulator
                .config()
                .withWebhooks(simulator.config().webhooks().withReorder(true).withDelayMillis(60_000)));
        List<String> sent = IntStream.range(0, 10)
                .mapToObj(i -> simulator
                        .sendWebhook("test.order", "{\"n\": " + i + "}")
                        .id())
                .toList();
        receiver.assertQuietFor(Duration.ofMillis(100));

        simulator.flushWebhooks();

        List<String> arrived =
                receiver.next(10).stream().map(WebhookReceiver.Received::id).toList();
        assertThat(arrived).containsExactlyInAnyOrderElementsOf(sent);
        // 10! orders: the chance a shuffle keeps the original one is below 3e-7.
        assertThat(arrived).isNotEqualTo(sent);
    }

    @Test
    void aWebhookOnlyChargeIsDecidedLaterAndAnnouncedByWebhook() throws Exception {
        simulator.configure(
                simulator.config().withWebhooks(simulator.config().webhooks().withDelayMillis(500)));

        HttpResponse<String> accepted = client.charge("async", chargeJson("pm_webhook_only"));

        assertThat(accepted.statusCode()).isEqualTo(202);
        JsonNode processing = json(accepted);
        assertThat(processing.get("status").stringValue()).isEqualTo("processing");
        String id = processing.get("id").stringValue();
        HttpResponse<String> early = client.lookup("async");
        assertThat(early.statusCode()).isEqualTo(200);
        assertThat(json(early).get("status").stringValue()).isEqualTo("processing");
        assertThat(client.charge("async", chargeJson("pm_webhook_only")).body()).isEqualTo(accepted.body());
        assertThat(simulator.moneyMovements("async")).isZero();

        WebhookReceiver.Received decided = receiver.next();

        assertThat(decided.type()).isEqualTo("charge.succeeded");
        assertThat(decided.json().get("data").get("id").stringValue()).isEqualTo(id);
        assertThat(decided.json().get("data").get("idempotency_key").stringValue())
                .isEqualTo("async");
        HttpResponse<String> late = client.lookup("async");
        assertThat(json(late).get("status").stringValue()).isEqualTo("succeeded");
        assertThat(json(late).get("id").stringValue()).isEqualTo(id);
        HttpResponse<String> replay = client.charge("async", chargeJson("pm_webhook_only"));
        assertThat(replay.statusCode()).as("a replay is the first answer").isEqualTo(202);
        assertThat(replay.body()).isEqualTo(accepted.body());
        assertThat(simulator.moneyMovements("async")).isEqualTo(1);
        assertThat(simulator.capturedTotal(id)).isEqualTo(1000);
    }

    @Test
    void aWebhookOnlyDeclineIsAnnouncedToo() throws Exception {
        HttpResponse<String> accepted = client.charge("async", chargeJson("pm_webhook_only_declined"));

        assertThat(accepted.statusCode()).isEqualTo(202);
        assertThat(receiver.next().type()).isEqualTo("charge.declined");
        JsonNode decided = json(client.lookup("async"));
        assertThat(decided.get("status").stringValue()).isEqualTo("declined");
        assertThat(decided.get("decline_code").stringValue()).isEqualTo("card_declined");
        assertThat(simulator.moneyMovements("async")).isZero();
    }

    @Test
    void aProcessingChargeCannotBeCapturedOrRefunded() throws Exception {
        simulator.configure(
                simulator.config().withWebhooks(simulator.config().webhooks().withDelayMillis(60_000)));
        String id = json(client.charge("async", chargeJson("pm_webhook_only")))
                .get("id")
                .stringValue();

        assertThat(SimClient.error(client.refund(id, "r", 1))).isEqualTo("charge_processing");
        assertThat(json(client.get("/charges/" + id)).get("status").stringValue())
                .isEqualTo("processing");
    }

    @Test
    void webhooksCanBeSentListedAndResentOverHttp() throws Exception {
        HttpResponse<String> sent =
                client.post("/_sim/webhooks", "{\"type\": \"test.manual\", \"data\": {\"charge_id\": \"ch_x\"}}");
        assertThat(sent.statusCode()).isEqualTo(202);
        String id = json(sent).get("id").stringValue();
        assertThat(receiver.next().id()).isEqualTo(id);

        assertThat(client.post("/_sim/webhooks/" + id + "/resend", "").statusCode())
                .isEqualTo(202);
        assertThat(receiver.next().id()).isEqualTo(id);
        awaitDeliveries(2);

        JsonNode listed = json(client.get("/_sim/webhooks"));
        assertThat(listed.get("events")).singleElement().satisfies(e -> {
            assertThat(e.get("charge_id").stringValue()).isEqualTo("ch_x");
            assertThat(e.get("payload").get("type").stringValue()).isEqualTo("test.manual");
        });
        assertThat(listed.get("deliveries"))
                .hasSize(2)
                .allSatisfy(d -> assertThat(d.get("delivered").booleanValue()).isTrue());
        assertThat(client.post("/_sim/webhooks", "{\"type\": \"x\"}").statusCode())
                .isEqualTo(400);
        assertThat(client.post("/_sim/webhooks/evt_nope/resend", "").statusCode())
                .isEqualTo(404);
    }

    @Test
    void withoutAUrlNothingIsSentOrKept() throws Exception {
        simulator.configure(SimulatorConfig.defaults());
        client.charge("k", chargeJson("pm_ok"));

        assertThat(simulator.webhookEvents()).isEmpty();
        assertThatThrownBy(() -> simulator.sendWebhook("x", "{}"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("webhooks_off");
        assertThat(client.post("/_sim/webhooks", "{\"type\": \"x\", \"data\": {}}")
                        .statusCode())
                .isEqualTo(409);
        receiver.assertQuietFor(Duration.ofMillis(100));
    }

    @Test
    void webhookSettingsAreConfigurableOverHttp() throws Exception {
        HttpResponse<String> updated = client.post(
                "/_sim/config",
                "{\"webhook_url\": \"http://127.0.0.1:1/x\", "
                        + "\"webhook_secret\": \"s\", \"webhook_duplicate_rate\": 0.5, \"webhook_delay_ms\": 7, "
                        + "\"webhook_reorder\": true, \"fee_bps\": 30}");

        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(simulator.config().webhooks())
                .isEqualTo(new WebhookSettings(java.net.URI.create("http://127.0.0.1:1/x"), "s", 0.5, 7, true, 0));
        assertThat(simulator.config().feeBps()).isEqualTo(30);
        assertThat(json(client.post("/_sim/config", "{\"webhook_url\": null}"))
                        .get("webhook_url")
                        .isNull())
                .isTrue();
        for (String bad : List.of(
                "{\"webhook_url\": \"not a url\"}",
                "{\"webhook_url\": \"ftp://x/y\"}",
                "{\"webhook_secret\": \"\"}",
                "{\"webhook_duplicate_rate\": 2}",
                "{\"webhook_reorder\": 1}",
                "{\"webhook_delay_ms\": -1}",
                "{\"fee_bps\": 10001}",
                "{\"authorization_ttl_seconds\": -1}")) {
            assertThat(client.post("/_sim/config", bad).statusCode()).as(bad).isEqualTo(400);
        }
    }

    private void awaitDeliveries(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (simulator.webhookDeliveries().size() < count) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
