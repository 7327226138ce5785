package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.client.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.WebhookReceiver;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Merchant webhooks end to end: endpoints over the API, real payments, deliveries attempted by hand (the worker's
 * schedule is off) and a real HTTP receiver that checks every signature with the receiver helper.
 */
class WebhookDeliveryTest extends OutboxIntegrationTest {

    @Test
    void deliveriesAreSignedAndTheReceiverHelperAcceptsThem() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Api api = newMerchant();
            String secret = createEndpoint(api, receiver.url(), "[\"*\"]").text("secret");
            String payment = api.pay(Api.newKey(), Api.payment(newReference(), 1200, "EUR", "pm_ok"))
                    .text("id");

            deliverAllDue();

            List<WebhookReceiver.Received> got = receiver.received();
            assertThat(got).hasSize(2);
            assertThat(got)
                    .allSatisfy(
                            r -> assertThat(WebhookSignature.verify(secret, r.signature(), r.body(), clock.instant()))
                                    .isEqualTo(WebhookSignature.Verdict.VALID));
            assertThat(got)
                    .extracting(r -> Api.JSON.readTree(r.body()).get("type").asString())
                    .containsExactlyInAnyOrder("payment.created", "payment.captured");
            assertThat(got).allSatisfy(r -> {
                JsonNode event = Api.JSON.readTree(r.body());
                assertThat(event.get("id").asString()).isEqualTo(r.eventId());
                assertThat(event.at("/resource/id").asString()).isEqualTo(payment);
            });
            assertThat(WebhookSignature.verify(
                            "whsec_wrong", got.get(0).signature(), got.get(0).body(), clock.instant()))
                    .isEqualTo(WebhookSignature.Verdict.MISMATCH);
            assertThat(WebhookSignature.verify(
                            secret, got.get(0).signature(), got.get(0).body() + " ", clock.instant()))
                    .isEqualTo(WebhookSignature.Verdict.MISMATCH);
        }
    }

    @Test
    void aReceiverThatFailsFirstGetsTheEventAfterTheBackoff() {
        try (WebhookReceiver receiver = new WebhookReceiver().answer(500)) {
            Api api = newMerchant();
            Api.Response endpoint = createEndpoint(api, receiver.url(), "[\"payment.captured\"]");
            String secret = endpoint.text("secret");
            api.pay(Api.newKey(), Api.payment(newReference(), 1300, "EUR", "pm_ok"));

            deliverAllDue();
            assertThat(receiver.received()).hasSize(1);
            deliverAllDue();
            assertThat(receiver.received())
                    .as("not due again before the backoff")
                    .hasSize(1);

            clock.advance(Duration.ofSeconds(40)); // 30 s +20 % jitter at most
            deliverAllDue();

            List<WebhookReceiver.Received> got = receiver.received();
            assertThat(got).hasSize(2);
            assertThat(got.get(1).body())
                    .as("the same event, not a new one")
                    .isEqualTo(got.get(0).body());
            assertThat(got.get(1).eventId()).isEqualTo(got.get(0).eventId());
            assertThat(WebhookSignature.verify(
                            secret, got.get(1).signature(), got.get(1).body(), clock.instant()))
                    .isEqualTo(WebhookSignature.Verdict.VALID);

            JsonNode delivery = delivery(api, endpoint.text("id"), got.get(1).deliveryId());
            assertThat(delivery.get("status").asString()).isEqualTo("succeeded");
            assertThat(delivery.get("attempts").asInt()).isEqualTo(2);
            JsonNode history = delivery.get("attempt_history");
            assertThat(history.get(0).get("response_code").asInt()).isEqualTo(500);
            assertThat(history.get(0).get("outcome").asString()).isEqualTo("failed");
            assertThat(history.get(1).get("response_code").asInt()).isEqualTo(200);
            assertThat(history.get(1).get("outcome").asString()).isEqualTo("succeeded");
        }
    }

    @Test
    void theHelperRefusesAnOldTimestamp() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Api api = newMerchant();
            String secret =
                    createEndpoint(api, receiver.url(), "[\"payment.created\"]").text("secret");
            api.pay(Api.newKey(), Api.payment(newReference(), 1400, "EUR", "pm_declined"));
            deliverAllDue();
            WebhookReceiver.Received got = receiver.received().getFirst();

            assertThat(WebhookSignature.verify(
                            secret, got.signature(), got.body(), clock.instant().plus(Duration.ofMinutes(6))))
                    .as("replayed six minutes later")
                    .isEqualTo(WebhookSignature.Verdict.TIMESTAMP_OUTSIDE_TOLERANCE);
            long tenMinutesAgo = clock.instant().minus(Duration.ofMinutes(10)).getEpochSecond();
            String oldButGenuine = WebhookSignature.header(secret, tenMinutesAgo, got.body());
            assertThat(WebhookSignature.verify(secret, oldButGenuine, got.body(), clock.instant()))
                    .isEqualTo(WebhookSignature.Verdict.TIMESTAMP_OUTSIDE_TOLERANCE);
            assertThat(WebhookSignature.verify(secret, "v1=abc", got.body(), clock.instant()))
                    .isEqualTo(WebhookSignature.Verdict.MALFORMED);
        }
    }

    @Test
    void aManualRedeliverySendsTheSameEventAgainOnce() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Api api = newMerchant();
            String endpoint = createEndpoint(api, receiver.url(), "[\"payment.captured\"]")
                    .text("id");
            api.pay(Api.newKey(), Api.payment(newReference(), 1500, "EUR", "pm_ok"));
            deliverAllDue();
            String deliveryId = receiver.received().getFirst().deliveryId();
            String path = "/v1/webhook-endpoints/" + endpoint + "/deliveries/" + deliveryId + "/redeliver";

            assertThat(api.post(path, null, "").status())
                    .as("needs an Idempotency-Key")
                    .isEqualTo(400);
            String key = Api.newKey();
            Api.Response asked = api.post(path, key, "");
            assertThat(asked.status()).isEqualTo(202);
            assertThat(asked.text("status")).isEqualTo("pending");
            Api.Response replay = api.post(path, key, "");
            assertThat(replay.body()).isEqualTo(asked.body());
            assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");

            deliverAllDue();
            assertThat(receiver.received()).hasSize(2);
            assertThat(receiver.received().get(1).eventId())
                    .isEqualTo(receiver.received().get(0).eventId());
            JsonNode history = delivery(api, endpoint, deliveryId).get("attempt_history");
            assertThat(history.get(1).get("trigger").asString()).isEqualTo("manual");
            assertThat(newMerchant().post(path, Api.newKey(), "").status())
                    .as("another merchant's delivery")
                    .isEqualTo(404);
        }
    }

    @Test
    void anEndpointFailingForTheWholeWindowIsDisabledAndThatIsAnEvent() {
        try (WebhookReceiver broken = new WebhookReceiver().answerAlways(503);
                WebhookReceiver watcher = new WebhookReceiver()) {
            Api api = newMerchant();
            String endpoint =
                    createEndpoint(api, broken.url(), "[\"payment.captured\"]").text("id");
            createEndpoint(api, watcher.url(), "[\"webhook_endpoint.disabled\"]");
            api.pay(Api.newKey(), Api.payment(newReference(), 1600, "EUR", "pm_ok"));

            for (int hour = 0; hour <= 80 && watcher.received().isEmpty(); hour += 2) {
                deliverAllDue();
                clock.advance(Duration.ofHours(2));
            }

            int attempts = broken.received().size();
            assertThat(attempts).as("about 21 attempts in 72 h").isBetween(12, 25);
            Api.Response shown = api.get("/v1/webhook-endpoints/" + endpoint);
            assertThat(shown.text("status")).isEqualTo("disabled");
            assertThat(shown.text("disabled_reason")).contains("72 h");
            assertThat(watcher.received()).singleElement().satisfies(r -> {
                JsonNode event = Api.JSON.readTree(r.body());
                assertThat(event.get("type").asString()).isEqualTo("webhook_endpoint.disabled");
                assertThat(event.at("/resource/id").asString()).isEqualTo(endpoint);
                assertThat(event.at("/data/status").asString()).isEqualTo("disabled");
            });
            clock.advance(Duration.ofHours(12));
            deliverAllDue();
            assertThat(broken.received())
                    .as("nothing more is sent to a disabled endpoint")
                    .hasSize(attempts);
        }
    }

    /**
     * Many deliveries to one endpoint are recorded at once, and the last ones disable it: disabling locks the
     * endpoint and cancels the others' deliveries while they record theirs. Before recordings took the endpoint's
     * row first, two of them deadlocked and the pass failed (40P01).
     */
    @Test
    void manyDeliveriesGivingUpAtOnceDisableTheEndpointWithoutADeadlock() {
        try (WebhookReceiver broken = new WebhookReceiver().answerAlways(503)) {
            Api api = newMerchant();
            String endpoint =
                    createEndpoint(api, broken.url(), "[\"payment.captured\"]").text("id");
            for (int i = 0; i < 30; i++) {
                api.pay(Api.newKey(), Api.payment(newReference(), 1600, "EUR", "pm_ok"));
            }

            for (int hour = 0; hour <= 80; hour += 2) {
                deliverAllDue();
                clock.advance(Duration.ofHours(2));
            }

            assertThat(api.get("/v1/webhook-endpoints/" + endpoint).text("status"))
                    .isEqualTo("disabled");
        }
    }

    @Test
    void theEndpointApiValidatesAndShowsTheSecretOnce() {
        Api api = newMerchant();
        String key = Api.newKey();
        assertThat(api.post("/v1/webhook-endpoints", null, endpointBody("https://example.test/h", "[\"*\"]"))
                        .text("code"))
                .isEqualTo("missing_idempotency_key");
        assertThat(api.post("/v1/webhook-endpoints", key, endpointBody("ftp://example.test/h", "[\"*\"]"))
                        .text("code"))
                .isEqualTo("invalid_url");
        assertThat(api.post(
                                "/v1/webhook-endpoints",
                                key,
                                endpointBody("https://" + "a".repeat(2050) + ".test/", "[\"*\"]"))
                        .text("code"))
                .isEqualTo("invalid_url");
        assertThat(api.post("/v1/webhook-endpoints", key, endpointBody("https://example.test/h", "[]"))
                        .text("code"))
                .isEqualTo("invalid_event_types");
        assertThat(api.post("/v1/webhook-endpoints", key, endpointBody("https://example.test/h", "[\"payment.paid\"]"))
                        .text("code"))
                .isEqualTo("unknown_event_type");

        Api.Response created = api.post(
                "/v1/webhook-endpoints",
                key,
                endpointBody("https://example.test/h", "[\"payment.captured\",\"refund.failed\"]"));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.text("secret")).startsWith("whsec_");
        assertThat(created.json().get("secret_shown_once").asBoolean()).isTrue();
        Api.Response replay = api.post(
                "/v1/webhook-endpoints",
                key,
                endpointBody("https://example.test/h", "[\"refund.failed\",\"payment.captured\"]"));
        // The secret is never stored in clear, so a replay cannot repeat it (WebhookSecretsTest, docs/api.md).
        assertThat(replay.body()).isEqualTo(created.body().replace("\"" + created.text("secret") + "\"", "null"));
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(api.post("/v1/webhook-endpoints", key, endpointBody("https://example.test/other", "[\"*\"]"))
                        .status())
                .isEqualTo(422);

        String id = created.text("id");
        assertThat(api.get("/v1/webhook-endpoints").body()).contains(id).doesNotContain("secret");
        assertThat(api.get("/v1/webhook-endpoints/" + id).json().has("secret")).isFalse();
        assertThat(newMerchant().get("/v1/webhook-endpoints/" + id).status()).isEqualTo(404);
        assertThat(api.delete("/v1/webhook-endpoints/" + id).text("status")).isEqualTo("deleted");
        assertThat(api.get("/v1/webhook-endpoints/" + id).status()).isEqualTo(404);
    }

    /** Runs the worker until nothing is due; other tests' deliveries may be among what it sends. */
    private void deliverAllDue() {
        for (int pass = 0; pass < 100 && deliveries.deliverDue() > 0; pass++) {
            // again: a pass takes at most a batch
        }
    }

    private static Api.Response createEndpoint(Api api, String url, String types) {
        Api.Response created = api.post("/v1/webhook-endpoints", Api.newKey(), endpointBody(url, types));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created;
    }

    private static String endpointBody(String url, String types) {
        return "{\"url\":\"" + url + "\",\"event_types\":" + types + "}";
    }

    private static JsonNode delivery(Api api, String endpoint, String delivery) {
        Api.Response response = api.get("/v1/webhook-endpoints/" + endpoint + "/deliveries/" + delivery);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }
}
