package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Stripe stub cannot drift from Stripe: every object it hands out and every error body it answers is held
 * against the schemas of Stripe's own OpenAPI specification ({@code stripe/spec3-schemas-subset.json}: the
 * {@code error}, {@code api_errors}, {@code payment_intent}, {@code charge}, {@code refund},
 * {@code balance_transaction}, {@code dispute} and {@code event} schemas of {@code stripe/openapi}'s
 * {@code openapi/spec3.json}, its commit in the file). A hand-written error type that Stripe never sends (this stub
 * once answered a 429 as {@code rate_limit_error} and a 401 as {@code authentication_error}; the spec's error types
 * are {@code api_error}, {@code card_error}, {@code idempotency_error} and {@code invalid_request_error}), a status
 * outside an enum, a missing required field or a wrong type fails here.
 */
class StripeStubSpecTest {

    private static final String SPEC = "urn:stripe:openapi";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDialect(
            Dialects.getDraft202012(),
            builder -> builder.schemas(Map.of(SPEC, resource("/stripe/spec3-schemas-subset.json"))));
    /** Its account has multicapture, so a non-final capture answers a PaymentIntent to hold against the spec too. */
    private static final StripeStub STUB = new StripeStub(Clock.systemUTC()).enableMulticapture(StripeStub.SECRET_KEY);

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final List<String> mismatches = new ArrayList<>();

    @AfterAll
    static void close() {
        STUB.close();
    }

    private record Reply(int status, JsonNode body) {}

    @Test
    void everyObjectTheStubHandsOutMatchesStripesSchema() {
        Reply automatic = create(StripeStub.OK, "automatic", null);
        Reply manual = create(StripeStub.OK, "manual", null);
        Reply voidable = create(StripeStub.OK, "manual", null);
        Reply sdk = create(StripeStub.THREE_D_SECURE, "automatic", null);
        Reply redirect = create(StripeStub.THREE_D_SECURE_REDIRECT, "automatic", "https://merchant.example/back");
        String paid = automatic.body().path("id").asString();
        String authorized = manual.body().path("id").asString();
        assertThat(List.of(automatic, manual, voidable, sdk, redirect)).allMatch(r -> r.status() == 200);
        assertThat(sdk.body().path("next_action").path("type").asString()).isEqualTo("use_stripe_sdk");
        assertThat(redirect.body()
                        .path("next_action")
                        .path("redirect_to_url")
                        .path("return_url")
                        .asString())
                .isEqualTo("https://merchant.example/back");

        Reply captured = post(
                "/v1/payment_intents/" + authorized + "/capture",
                Map.of("amount_to_capture", "600", "final_capture", "false"));
        Reply canceled =
                post("/v1/payment_intents/" + voidable.body().path("id").asString() + "/cancel", Map.of());
        Reply refund = post(
                "/v1/refunds",
                Map.of(
                        "payment_intent",
                        paid,
                        "amount",
                        "300",
                        "metadata[kopek_provider_key]",
                        "kit_" + UUID.randomUUID()));
        for (Reply intent : List.of(
                automatic, manual, voidable, sdk, redirect, captured, canceled, get("/v1/payment_intents/" + paid))) {
            check("payment_intent", intent.body());
        }
        check("refund", refund.body());
        check(
                "refund",
                get("/v1/refunds/" + refund.body().path("id").asString()).body());
        get("/v1/refunds?payment_intent=" + paid).body().path("data").forEach(r -> check("refund", r));
        get("/v1/balance_transactions").body().path("data").forEach(t -> check("balance_transaction", t));
        get("/v1/payment_intents/search?query=" + enc("metadata['kopek_provider_key']:'none'"))
                .body()
                .path("data")
                .forEach(pi -> check("payment_intent", pi));

        for (String status : List.of(
                "warning_needs_response",
                "warning_under_review",
                "warning_closed",
                "needs_response",
                "under_review",
                "won",
                "lost")) {
            JsonNode dispute = STUB.dispute(paid, status);
            check("dispute", dispute);
            JsonNode event = JSON.readTree(STUB.event("charge.dispute.updated", dispute));
            check("event", event);
            check("dispute", event.path("data").path("object"));
        }
        check(
                "event",
                JSON.readTree(
                        STUB.event("payment_intent.succeeded", STUB.intents().get(paid))));

        assertThat(mismatches).isEmpty();
    }

    @Test
    void everyErrorTheStubAnswersMatchesStripesErrorSchema() throws Exception {
        Reply paid = create(StripeStub.OK, "automatic", null);
        String intent = paid.body().path("id").asString();
        String key = "kopek_spec_" + UUID.randomUUID();
        Map<String, String> first = form(StripeStub.OK, "automatic", null);
        send("POST", "/v1/payment_intents", key, first, StripeStub.SECRET_KEY);

        Map<String, Reply> errors = new LinkedHashMap<>();
        errors.put("declined", create(StripeStub.DECLINED, "automatic", null));
        errors.put("invalid", create(StripeStub.INVALID, "automatic", null));
        errors.put("server error", create(StripeStub.API_ERROR, "automatic", null));
        errors.put("rate limited", create(StripeStub.RATE_LIMITED, "automatic", null));
        errors.put("wrong key", send("GET", "/v1/payment_intents/" + intent, null, null, "sk_test_not_this_one"));
        errors.put(
                "same key, other parameters",
                send("POST", "/v1/payment_intents", key, form(StripeStub.OK, "manual", null), StripeStub.SECRET_KEY));
        errors.put("unexpected state", post("/v1/payment_intents/" + intent + "/capture", Map.of()));
        errors.put("refund too large", post("/v1/refunds", Map.of("payment_intent", intent, "amount", "999999")));
        post("/v1/refunds", Map.of("payment_intent", intent));
        errors.put("already refunded", post("/v1/refunds", Map.of("payment_intent", intent)));
        errors.put("no such object", get("/v1/payment_intents/pi_stub_none"));
        errors.put("unrecognized URL", get("/v1/nothing_here"));
        errors.put("bad search", get("/v1/payment_intents/search?query=" + enc("status:'succeeded'")));
        errors.put("key in use", whileHeld());

        errors.forEach((what, reply) -> {
            assertThat(reply.status()).as(what).isBetween(400, 599);
            check("error", reply.body());
        });
        assertThat(errors.get("rate limited").body().path("error").path("code").asString())
                .isEqualTo("rate_limit");
        assertThat(errors.get("key in use").status()).isEqualTo(409);
        assertThat(errors.get("key in use").body().path("error").path("code").asString())
                .isEqualTo("idempotency_key_in_use");
        assertThat(errors.get("same key, other parameters")
                        .body()
                        .path("error")
                        .path("type")
                        .asString())
                .isEqualTo("idempotency_error");
        assertThat(mismatches).isEmpty();
    }

    /** The check has teeth: what the stub once sent, and statuses Stripe does not have, are refused. */
    @Test
    void theSchemasRefuseWhatStripeNeverSends() {
        check("error", JSON.readTree("{\"error\":{\"type\":\"rate_limit_error\",\"code\":\"rate_limit\"}}"));
        check("error", JSON.readTree("{\"error\":{\"type\":\"authentication_error\"}}"));
        check("error", JSON.readTree("{\"message\":\"no error object\"}"));
        JsonNode pi =
                JSON.readTree(create(StripeStub.OK, "automatic", null).body().toString());
        check("payment_intent", ((tools.jackson.databind.node.ObjectNode) pi.deepCopy()).put("status", "approved"));
        check("payment_intent", ((tools.jackson.databind.node.ObjectNode) pi.deepCopy()).put("amount", "1000"));
        check("dispute", STUB.dispute(pi.path("id").asString(), "open"));

        assertThat(mismatches).hasSize(6);
    }

    /** A request held after it charged, and the same key sent again meanwhile: 409. */
    private Reply whileHeld() throws Exception {
        String key = "kopek_spec_" + UUID.randomUUID();
        Map<String, String> held = form(StripeStub.HELD_AFTER_CHARGE, "automatic", null);
        CompletableFuture<Reply> first = CompletableFuture.supplyAsync(
                () -> send("POST", "/v1/payment_intents", key, held, StripeStub.SECRET_KEY));
        STUB.awaitHeld();
        Reply second = send("POST", "/v1/payment_intents", key, held, StripeStub.SECRET_KEY);
        STUB.releaseHeld();
        first.get();
        STUB.reset();
        return second;
    }

    private void check(String schema, JsonNode value) {
        Schema compiled = REGISTRY.getSchema(SchemaLocation.of(SPEC + "#/components/schemas/" + schema));
        List<Error> errors = compiled.validate(value.toString(), InputFormat.JSON);
        if (!errors.isEmpty()) {
            mismatches.add(schema + " " + value.path("id").asString("") + ": "
                    + errors.stream().map(Error::toString).collect(Collectors.joining("; ")));
        }
    }

    private static Map<String, String> form(String method, String capture, String returnUrl) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("amount", "1000");
        form.put("currency", "eur");
        form.put("payment_method", method);
        form.put("confirm", "true");
        form.put("capture_method", capture);
        form.put("expand[]", "latest_charge");
        form.put("metadata[kopek_provider_key]", "kit_" + UUID.randomUUID());
        if (capture.equals("manual")) {
            form.put("payment_method_options[card][request_multicapture]", "if_available");
        }
        if (returnUrl != null) {
            form.put("return_url", returnUrl);
        }
        return form;
    }

    private static Reply create(String method, String capture, String returnUrl) {
        return post("/v1/payment_intents", form(method, capture, returnUrl));
    }

    private static Reply post(String path, Map<String, String> form) {
        return send("POST", path, "kopek_spec_" + UUID.randomUUID(), form, StripeStub.SECRET_KEY);
    }

    private static Reply get(String pathAndQuery) {
        return send("GET", pathAndQuery, null, null, StripeStub.SECRET_KEY);
    }

    private static Reply send(
            String method, String pathAndQuery, String key, Map<String, String> form, String secretKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(STUB.baseUri() + pathAndQuery))
                .header("Authorization", "Bearer " + secretKey);
        if (method.equals("POST")) {
            String body = form.entrySet().stream()
                    .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                    .collect(Collectors.joining("&"));
            request.header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Idempotency-Key", key)
                    .POST(HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.GET();
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), JSON.readTree(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String value) {
        return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String resource(String path) {
        try (InputStream in = StripeStubSpecTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
