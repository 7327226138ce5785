package dev.kopek.apidocs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PrefixedId;
import dev.kopek.psp.stripe.StripeStub;
import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.ApiContract;
import dev.kopek.support.IntegrationTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every operation of the API answers as its document says, with a real answer for each: this test calls every
 * {@code /v1} operation once (merchant, admin and ops) through {@link Api}, which holds each answer against the
 * schema {@code /openapi} declares for it ({@link ApiContract}). A new operation fails the test until a call here
 * shows its answer matches its document.
 *
 * <p>The same answers are the document's examples ({@code apidocs/examples.yaml}): each component schema's example
 * is a real answer, and the test fails when one no longer matches its schema. After a change of shape, run it with
 * {@code -Dkopek.apidocs.write-examples=true} to record them again.
 */
class ApiAnswersTest extends IntegrationTest {

    private static final Path EXAMPLES = Path.of("src/main/resources/apidocs/examples.yaml");
    private static final String COMPONENTS = "#/components/schemas/";
    private static final Pattern SECRET =
            Pattern.compile("(\"(?:secret|token)\" : \")([a-z]+_(?:test_|live_)?)[^\"]*\"");
    /** Request bodies sent below, by the component schema that describes them: their examples. */
    private final Map<String, String> requests = new LinkedHashMap<>();
    /** The resource each event of the merchant's feed carries, by its schema: examples of resources no route answers. */
    private final Map<String, String> eventData = new TreeMap<>();

    @Test
    void everyOperationAnswersWhatItsDocumentSaysAndEveryExampleIsARealAnswer() throws IOException {
        Api shop = newMerchant();
        List<String> mismatches = ApiContract.collecting(() -> {
            merchantOperations(shop);
            adminAndOpsOperations(shop);
            referencePages();
        });
        assertThat(mismatches).as("answers that do not match the API document").isEmpty();

        ApiContract contract = ApiContract.of(baseUri());
        assertThat(uncovered(contract))
                .as("operations no call here got a 2xx from; add one to ApiAnswersTest")
                .isEmpty();
        Map<String, String> examples = new TreeMap<>(ApiContract.answersByComponent());
        examples.putAll(requests);
        eventData.forEach(examples::putIfAbsent);
        partsOf(examples, contract.document().path("components").path("schemas"));
        if (Boolean.getBoolean("kopek.apidocs.write-examples")) {
            write(examples);
        }
        JsonNode schemas = contract.document().path("components").path("schemas");
        for (String component : examples.keySet()) {
            JsonNode example = schemas.path(component).path("example");
            assertThat(example.isMissingNode())
                    .as(component + " has no example in " + EXAMPLES)
                    .isFalse();
            assertThat(contract.mismatches(component, example))
                    .as("the example of " + component)
                    .isEmpty();
        }
    }

    private void merchantOperations(Api shop) {
        Api.Response endpoint = created(shop.post(
                "/v1/webhook-endpoints",
                Api.newKey(),
                request(
                        "WebhookEndpointRequest",
                        "{\"url\":\"https://hooks.example.com/kopek\",\"event_types\":"
                                + "[\"payment.captured\",\"refund.succeeded\"]}")));
        String hook = endpoint.text("id");

        Api.Response paid = created(shop.pay(
                Api.newKey(),
                request(
                        "PaymentRequest",
                        "{\"reference\":\""
                                + Api.unique("order")
                                + "\",\"amount\":4990,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\","
                                + "\"description\":\"Two books\",\"metadata\":{\"order\":\"1001\"}}")));
        String payment = paid.text("id");
        ok(shop.get("/v1/payments?reference=" + paid.text("reference")));
        ok(shop.get("/v1/payments/" + payment));
        Api.Response refund = ok(shop.post(
                "/v1/payments/" + payment + "/refunds",
                Api.newKey(),
                request("RefundRequest", "{\"amount\":1000,\"reason\":\"one book returned\"}")));
        ok(shop.get("/v1/payments/" + payment + "/refunds"));
        ok(shop.get("/v1/refunds/" + refund.text("id")));

        String authorized = created(shop.pay(
                        Api.newKey(),
                        "{\"reference\":\"" + Api.unique("order")
                                + "\",\"amount\":3000,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":"
                                + "\"manual\"}"))
                .text("id");
        ok(shop.post(
                "/v1/payments/" + authorized + "/capture",
                Api.newKey(),
                request("CaptureRequest", "{\"amount\":2000,\"final\":false}")));
        String held = created(shop.pay(
                        Api.newKey(),
                        "{\"reference\":\"" + Api.unique("order")
                                + "\",\"amount\":700,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":"
                                + "\"manual\"}"))
                .text("id");
        ok(shop.post("/v1/payments/" + held + "/void", Api.newKey(), "{}"));

        ok(shop.get("/v1/events"));
        ok(shop.get("/v1/balance"));
        Api.Response journal = ok(shop.get("/v1/ledger/transactions?payment_id=" + payment));
        ok(shop.get("/v1/ledger/transactions/"
                + journal.json().get("data").get(0).get("id").asString()));

        ok(shop.get("/v1/webhook-endpoints"));
        ok(shop.get("/v1/webhook-endpoints/" + hook));
        Api.Response deliveries = ok(shop.get("/v1/webhook-endpoints/" + hook + "/deliveries"));
        String delivery = deliveries.json().get("data").get(0).get("id").asString();
        ok(shop.get("/v1/webhook-endpoints/" + hook + "/deliveries/" + delivery));
        ok(shop.post("/v1/webhook-endpoints/" + hook + "/deliveries/" + delivery + "/redeliver", Api.newKey(), "{}"));
        ok(shop.delete("/v1/webhook-endpoints/" + hook));

        String providerKey = jdbc.sql("SELECT provider_key FROM payments WHERE psp_reference = :ref")
                .param("ref", paid.text("psp_reference"))
                .query(String.class)
                .single();
        notify(request(
                "PspNotification",
                "{\"id\":\"evt_" + Api.unique("answers").replace("-", "") + "\","
                        + "\"type\":\"charge.succeeded\",\"created\":"
                        + clock.instant().getEpochSecond() + ",\"data\":{"
                        + "\"id\":\"" + paid.text("psp_reference")
                        + "\",\"object\":\"charge\",\"status\":\"succeeded\","
                        + "\"amount\":4990,\"currency\":\"EUR\",\"idempotency_key\":\"" + providerKey + "\"}}"));
        // A cardholder disputes part of the charge: the dispute.opened event carries the Dispute.
        notify("{\"id\":\"evt_" + Api.unique("dispute").replace("-", "") + "\",\"type\":\"dispute.opened\","
                + "\"created\":" + clock.instant().getEpochSecond() + ",\"data\":{\"id\":\"" + Api.unique("dp")
                + "\",\"object\":\"dispute\",\"charge_id\":\"" + paid.text("psp_reference") + "\",\"amount\":500,"
                + "\"currency\":\"EUR\",\"reason\":\"fraudulent\",\"status\":\"open\"}}");
        stripeNotification();
        for (JsonNode event : ok(shop.get("/v1/events?limit=100")).json().get("data")) {
            eventData.putIfAbsent(
                    KopekDocument.resourceSchema(event.get("type").asString()),
                    event.get("data").toString());
        }
    }

    /**
     * A Stripe event as Kopek's Stripe tests deliver it to a merchant's own route and Kopek accepts it
     * (SimulatorAndStripeSideBySideTest): a PaymentIntent made through the Stripe stub's API, in Stripe's event
     * envelope. This Kopek runs no Stripe, so the event is recorded, not sent.
     */
    private void stripeNotification() {
        StripeStub stripe = new StripeStub(clock);
        try {
            HttpResponse<String> intent = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(stripe.baseUri().resolve("/v1/payment_intents"))
                                    .header("Authorization", "Bearer " + StripeStub.SECRET_KEY)
                                    .header("Content-Type", "application/x-www-form-urlencoded")
                                    .POST(HttpRequest.BodyPublishers.ofString(
                                            "amount=4990&currency=eur&confirm=true&payment_method=" + StripeStub.OK))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(intent.statusCode()).as(intent.body()).isEqualTo(200);
            request("StripeNotification", stripe.event("payment_intent.succeeded", Api.JSON.readTree(intent.body())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            stripe.close();
        }
    }

    /** A notification signed as the simulator signs it, through the public PSP route. */
    private void notify(String notification) {
        Api anonymous = new Api(baseUri(), null);
        ok(anonymous.send(anonymous
                .request("/v1/psp/simulator/webhooks")
                .header("Content-Type", "application/json")
                .header(
                        WebhookSignature.HEADER,
                        WebhookSignature.header(
                                "whsec_simulator", clock.instant().getEpochSecond(), notification))
                .POST(HttpRequest.BodyPublishers.ofString(notification))
                .build()));
    }

    /**
     * Examples of the schemas an example is made of: the value of a property that names a component, or the first
     * item of a list of them (an AuditEvent from the audit page, a LimitInForce from RateLimits), unless the
     * component has its own.
     */
    private static void partsOf(Map<String, String> examples, JsonNode schemas) {
        for (boolean grew = true; grew; ) {
            grew = false;
            for (var example : new ArrayList<>(examples.entrySet())) {
                JsonNode value = Api.JSON.readTree(example.getValue());
                for (var property :
                        schemas.path(example.getKey()).path("properties").properties()) {
                    JsonNode schema = property.getValue();
                    JsonNode part = value.path(property.getKey());
                    if (schema.path("type").asString("").equals("array")) {
                        schema = schema.path("items");
                        part = part.path(0);
                    }
                    String ref = schema.path("$ref").asString("");
                    if (ref.startsWith(COMPONENTS)
                            && part.isObject()
                            && examples.putIfAbsent(ref.substring(COMPONENTS.length()), part.toString()) == null) {
                        grew = true;
                    }
                }
            }
        }
    }

    private void adminAndOpsOperations(Api shop) {
        Api admin = admin();
        String merchant = created(admin.post("/v1/admin/merchants", null, "{\"name\":\"Books & Co\"}"))
                .text("id");
        String key = created(admin.post("/v1/admin/merchants/" + merchant + "/keys", null, "{}"))
                .text("id");
        ok(admin.get("/v1/admin/merchants/" + merchant + "/keys"));
        ok(admin.delete("/v1/admin/merchants/" + merchant + "/keys/" + key));
        ok(admin.send(admin.request("/v1/admin/merchants/" + merchant + "/fees")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(
                        request("FeeRequest", "{\"bps\":290,\"fixed_minor\":30,\"currency\":\"EUR\"}")))
                .build()));
        ok(admin.get("/v1/admin/merchants/" + merchant + "/fees"));
        ok(admin.get("/v1/admin/merchants/" + merchant + "/rate-limits"));
        ok(admin.send(admin.request("/v1/admin/merchants/" + merchant + "/psp")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"provider\":\"simulator\"}"))
                .build()));
        ok(admin.get("/v1/admin/merchants/" + merchant + "/psp"));
        ok(admin.send(admin.request("/v1/admin/merchants/" + merchant + "/rate-limits")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"writes\":" + request("Limit", "{\"per_second\":50,\"burst\":100}") + "}"))
                .build()));

        Api.Response journal = ok(shop.get("/v1/ledger/transactions"));
        String transaction = journal.json().get("data").get(0).get("id").asString();
        ok(admin.get("/v1/admin/ledger/transactions/" + transaction));
        ok(admin.post(
                "/v1/admin/ledger/transactions/" + transaction + "/reversal",
                null,
                "{\"reason\":\"posted twice by operator error\"}"));

        String identity = created(admin.post("/v1/admin/identities", null, "{\"name\":\"ann\"}"))
                .text("id");
        ok(admin.get("/v1/admin/identities"));
        ok(admin.delete("/v1/admin/identities/" + identity));
        ok(admin.get("/v1/ops/audit"));

        String reference = Api.unique("order");
        String review = parkedPayment(shop, reference);
        // The PSP's file of the day the parked payment was charged shows a charge Kopek does not know the outcome
        // of: a break to acknowledge and resolve.
        String settled = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC)
                .minusDays(1)
                .toString();
        ok(admin.post("/v1/ops/settlements/runs", null, "{\"date\":\"" + settled + "\"}"));
        Api.Response breaks = ok(admin.get("/v1/ops/recon-breaks?status=all"));
        String brk = breaks.json().get("data").get(0).get("id").asString();
        ok(admin.post("/v1/ops/recon-breaks/" + brk + "/acknowledge", null, "{\"note\":\"asked the PSP\"}"));
        ok(admin.post("/v1/ops/recon-breaks/" + brk + "/resolve", null, "{\"note\":\"the PSP confirmed it\"}"));
        ok(admin.get("/v1/ops/manual-review"));
        ok(admin.post(
                "/v1/ops/manual-review/" + review + "/resolve",
                null,
                "{\"decision\":\"captured\","
                        + "\"psp_reference\":\""
                        + recordsAtPsp(reference).getFirst().id() + "\",\"note\":\"the PSP's "
                        + "dashboard shows the charge\"}"));
        ok(admin.post("/v1/ops/ledger/drift-check", null, "{}"));
        ok(admin.post("/v1/ops/ledger/projection/repair", null, ""));
        ok(admin.get("/v1/ops/psp"));
        ok(admin.get("/v1/ops/invariants"));
    }

    /** A payment whose outcome stayed unknown past the PSP's key window: an open review item, its id. */
    private String parkedPayment(Api shop, String reference) {
        Api.Response processing = shop.pay(
                Api.newKey(),
                "{\"reference\":\"" + reference
                        + "\",\"amount\":1200,\"currency\":\"EUR\",\"payment_method\":\"pm_webhook_only\"}");
        assertThat(processing.status()).as(processing.body()).isEqualTo(202);
        clock.advance(Duration.ofHours(25));
        SIMULATOR.advanceClock(Duration.ofHours(25));
        reconciler.reconcileOnce();
        return jdbc.sql("SELECT id FROM manual_reviews WHERE status = 'OPEN' AND payment_id = :payment")
                .param("payment", PrefixedId.parse("pay", processing.text("id")).orElseThrow())
                .query((rs, n) -> PrefixedId.format("mrv", rs.getObject(1, UUID.class)))
                .list()
                .getFirst();
    }

    private void referencePages() {
        Api anonymous = new Api(baseUri(), null);
        ok(anonymous.get("/docs"));
        ok(anonymous.get("/docs/init.js"));
        ok(anonymous.get("/docs/assets/swagger-ui.css"));
        ok(anonymous.send(anonymous
                .request("/problems")
                .header("Accept", "application/json")
                .GET()
                .build()));
        ok(anonymous.send(anonymous
                .request("/problems/request_in_progress")
                .header("Accept", "application/json")
                .GET()
                .build()));
    }

    private String request(String component, String body) {
        requests.putIfAbsent(component, body);
        return body;
    }

    private static Api.Response ok(Api.Response response) {
        assertThat(response.status()).as(response.body()).isBetween(200, 299);
        return response;
    }

    private static Api.Response created(Api.Response response) {
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        return response;
    }

    /**
     * Operations whose 2xx needs a PSP other than the simulator: their answers are checked against the document
     * (through {@link Api}) by the test named.
     */
    private static final Map<String, String> CHECKED_ELSEWHERE =
            Map.of("POST /v1/psp/{provider}/webhooks/{merchantId}", "SimulatorAndStripeSideBySideTest");

    /** Every documented operation that no 2xx answer was checked for, here or in the test named above. */
    private static List<String> uncovered(ApiContract contract) {
        Set<String> checked = ApiContract.checkedSoFar();
        List<String> missing = new ArrayList<>();
        contract.document()
                .path("paths")
                .properties()
                .forEach(path -> path.getValue().properties().forEach(operation -> {
                    String where = operation.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey();
                    if (operation.getValue().has("responses")
                            && !CHECKED_ELSEWHERE.containsKey(where)
                            && checked.stream().noneMatch(c -> c.startsWith(where + " 2"))) {
                        missing.add(where);
                    }
                }));
        return missing;
    }

    private static void write(Map<String, String> examples) throws IOException {
        Map<String, Object> file = new LinkedHashMap<>();
        Map<String, JsonNode> parsed = new TreeMap<>();
        examples.forEach((name, body) -> parsed.put(name, Api.JSON.readTree(body)));
        file.put("examples", parsed);
        // JSON is YAML: the file stays readable and needs no YAML writer.
        String header = "# One real answer (or request) per component schema, recorded by ApiAnswersTest with\n"
                + "# -Dkopek.apidocs.write-examples=true; the test fails when one no longer matches its schema.\n";
        String json = Api.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(file);
        // A key, token or signing secret is shown with its real prefix but no usable value.
        json = SECRET.matcher(json).replaceAll("$1$2example_not_a_real_secret\"");
        Files.writeString(EXAMPLES, header + json + "\n");
    }
}
