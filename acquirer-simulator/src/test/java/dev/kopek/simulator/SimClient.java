package dev.kopek.simulator;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A thin test client over real HTTP; tests read as the contract they check, not as HttpClient plumbing. */
final class SimClient implements AutoCloseable {
    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    private final URI base;

    SimClient(AcquirerSimulator simulator) {
        this.base = simulator.baseUri();
    }

    static String chargeJson(long amount, String currency, String paymentMethod, String reference) {
        String ref = reference == null ? "" : ", \"reference\": \"" + reference + "\"";
        return "{\"amount\": " + amount + ", \"currency\": \"" + currency + "\", \"payment_method\": \"" + paymentMethod
                + "\"" + ref + "}";
    }

    static String chargeJson(String paymentMethod) {
        return chargeJson(1_000, "EUR", paymentMethod, "order-1");
    }

    HttpRequest chargeRequest(String key, String json, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve("/charges"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (key != null) {
            builder.header("Idempotency-Key", key);
        }
        if (timeout != null) {
            builder.timeout(timeout);
        }
        return builder.build();
    }

    HttpResponse<String> charge(String key, String json) throws IOException, InterruptedException {
        return http.send(chargeRequest(key, json, null), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<byte[]> chargeBytes(String key, String json) throws IOException, InterruptedException {
        return http.send(chargeRequest(key, json, null), HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpResponse<String> charge(String key, String json, Duration timeout) throws IOException, InterruptedException {
        return http.send(chargeRequest(key, json, timeout), HttpResponse.BodyHandlers.ofString());
    }

    CompletableFuture<HttpResponse<String>> chargeAsync(String key, String json) {
        return http.sendAsync(chargeRequest(key, json, null), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> lookup(String key) throws IOException, InterruptedException {
        return get("/charges?idempotency_key=" + URLEncoder.encode(key, StandardCharsets.UTF_8));
    }

    HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(base.resolve(pathAndQuery)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A POST carrying an Idempotency-Key (when non-null), as every state-changing endpoint needs. */
    HttpRequest keyedRequest(String path, String key, String json, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (key != null) {
            builder.header("Idempotency-Key", key);
        }
        if (timeout != null) {
            builder.timeout(timeout);
        }
        return builder.build();
    }

    HttpResponse<String> post(String path, String key, String json) throws IOException, InterruptedException {
        return http.send(keyedRequest(path, key, json, null), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String key, String json, Duration timeout)
            throws IOException, InterruptedException {
        return http.send(keyedRequest(path, key, json, timeout), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<byte[]> postBytes(String path, String key, String json) throws IOException, InterruptedException {
        return http.send(keyedRequest(path, key, json, null), HttpResponse.BodyHandlers.ofByteArray());
    }

    CompletableFuture<HttpResponse<String>> postAsync(String path, String key, String json) {
        return http.sendAsync(keyedRequest(path, key, json, null), HttpResponse.BodyHandlers.ofString());
    }

    /** A charge made with {@code "capture": false}; returns its id. */
    String authorize(String key, long amount) throws IOException, InterruptedException {
        return authorize(key, amount, "pm_ok");
    }

    String authorize(String key, long amount, String paymentMethod) throws IOException, InterruptedException {
        HttpResponse<String> response = charge(
                key,
                "{\"amount\": " + amount + ", \"currency\": \"EUR\", \"payment_method\": \"" + paymentMethod
                        + "\", \"capture\": false}");
        return json(response).get("id").stringValue();
    }

    /** A charge captured when made; returns its id. */
    String sale(String key, long amount) throws IOException, InterruptedException {
        return sale(key, amount, "pm_ok");
    }

    String sale(String key, long amount, String paymentMethod) throws IOException, InterruptedException {
        return json(charge(key, chargeJson(amount, "EUR", paymentMethod, null)))
                .get("id")
                .stringValue();
    }

    HttpResponse<String> capture(String chargeId, String key, String json) throws IOException, InterruptedException {
        return post("/charges/" + chargeId + "/captures", key, json);
    }

    HttpResponse<String> voidCharge(String chargeId, String key) throws IOException, InterruptedException {
        return post("/charges/" + chargeId + "/void", key, "");
    }

    HttpResponse<String> refund(String chargeId, String key, long amount) throws IOException, InterruptedException {
        return post("/refunds", key, refundJson(chargeId, amount));
    }

    static String refundJson(String chargeId, long amount) {
        return "{\"charge_id\": \"" + chargeId + "\", \"amount\": " + amount + "}";
    }

    static String amountJson(long amount) {
        return "{\"amount\": " + amount + "}";
    }

    static String error(HttpResponse<String> response) {
        return json(response).get("error").stringValue();
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    URI uri(String path) {
        return base.resolve(path);
    }

    static JsonNode json(HttpResponse<String> response) {
        return MAPPER.readTree(response.body());
    }

    @Override
    public void close() {
        http.close();
    }
}
