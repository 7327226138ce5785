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
        return "{\"amount\": " + amount + ", \"currency\": \"" + currency + "\", \"payment_method\": \""
                + paymentMethod + "\"" + ref + "}";
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
        return http.send(HttpRequest.newBuilder(base.resolve(pathAndQuery)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
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
