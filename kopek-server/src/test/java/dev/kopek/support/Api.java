package dev.kopek.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A plain HTTP client for Kopek's API, the way a merchant's backend would call it. Every answer is held against
 * the API document Kopek serves ({@link ApiContract}): a test that gets an answer the document does not describe
 * fails, whatever it asserts itself.
 */
public final class Api {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> ISSUED_KEYS = ConcurrentHashMap.newKeySet();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final URI base;
    private final String bearer;

    public Api(URI base, String bearer) {
        this.base = base;
        this.bearer = bearer;
    }

    public Api as(String otherBearer) {
        return new Api(base, otherBearer);
    }

    public record Response(int status, Map<String, java.util.List<String>> headers, String body) {
        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String text(String field) {
            JsonNode node = json().get(field);
            return node == null || node.isNull() ? null : node.asString();
        }

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }
    }

    public Response pay(String idempotencyKey, String body) {
        return post("/v1/payments", idempotencyKey, body);
    }

    public static String payment(String reference, long amount, String currency, String method) {
        return "{\"reference\":\"" + reference + "\",\"amount\":" + amount + ",\"currency\":\"" + currency
                + "\",\"payment_method\":\"" + method + "\"}";
    }

    /** A payment in euros by the card that always succeeds, authorized only: captured later by its own request. */
    public static String manualPayment(String reference, long amount) {
        return "{\"reference\":\"" + reference + "\",\"amount\":" + amount
                + ",\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}";
    }

    /**
     * A fresh value for a request body's free text, such as a payment's reference: {@code prefix} and a random UUID
     * whose hyphens are replaced. Kopek refuses a value that holds a card number and reads hyphens as separators:
     * digit groups of a random UUID joined by hyphens are 13–19 digits passing Luhn often enough (a few in a
     * thousand) to fail a test with 400 card_data_not_accepted. Without separators no digit run is longer than 12.
     * It ends in a letter too: tests append {@code "-" + i}, and the UUID's last group, all digits once in 280,
     * joined to it made 13 digits that passed Luhn one time in ten (RateLimitTest failed so in CI).
     */
    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().replace('-', 'x') + "x";
    }

    /**
     * A fresh idempotency key. Every key made here is remembered for the run, so LogScanTest can check that none was
     * ever logged in clear (L12: keys appear in logs only as hashes).
     */
    public static String newKey() {
        String key = UUID.randomUUID().toString();
        ISSUED_KEYS.add(key);
        return key;
    }

    /** Every key {@link #newKey()} made in this JVM so far. */
    public static Set<String> issuedKeys() {
        return Set.copyOf(ISSUED_KEYS);
    }

    public Response post(String path, String idempotencyKey, String body) {
        HttpRequest.Builder request = request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return send(request.build());
    }

    public Response get(String path) {
        return send(request(path).GET().build());
    }

    public Response delete(String path) {
        return send(request(path).DELETE().build());
    }

    public Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            ApiContract.of(base)
                    .check(
                            request.method(),
                            request.uri(),
                            response.statusCode(),
                            response.headers().firstValue("Content-Type").orElse(null),
                            response.body());
            return new Response(response.statusCode(), response.headers().map(), response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
        if (bearer != null) {
            builder.header("Authorization", "Bearer " + bearer);
        }
        return builder;
    }
}
