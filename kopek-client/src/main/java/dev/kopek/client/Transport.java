package dev.kopek.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One operation, one key, many tries. Retries only what cannot have a different answer than "not finished yet":
 * transport failures (the request may or may not have arrived: the key makes the retry safe), 409
 * {@code request_in_progress}, 429 ({@code rate_limited}) and 5xx. A {@code Retry-After} (in seconds, as Kopek
 * sends it) is a floor under the jittered backoff, and a wait that would end past the budget ends the retries at
 * once rather than retrying early. No try runs past the budget either: its timeout is what is left of it when
 * that is less than the request timeout. Everything else is an answer and is returned or thrown at once.
 */
final class Transport {

    /** What came back: the status, the body and whether it is Kopek's stored answer to an earlier try. */
    record Answer(int status, String body, boolean replayed) {}

    private final HttpClient http;
    private final URI base;
    private final String apiKey;
    private final RetryPolicy policy;
    private final Duration requestTimeout;
    private final Clock clock;
    private final JsonMapper json;
    private final Pause pause;

    Transport(
            HttpClient http,
            URI base,
            String apiKey,
            RetryPolicy policy,
            Duration requestTimeout,
            Clock clock,
            JsonMapper json,
            Pause pause) {
        this.http = http;
        this.base = base;
        this.apiKey = apiKey;
        this.policy = policy;
        this.requestTimeout = requestTimeout;
        this.clock = clock;
        this.json = json;
        this.pause = pause;
    }

    /** Sends until a final answer, the attempt limit or the policy's budget; throws for a refusal. */
    Answer exchange(String method, String path, String body, OperationKey key) {
        return exchange(method, path, body, key, policy.totalBudget());
    }

    /**
     * Sends until a final answer, the attempt limit or {@code budget}; throws for a refusal. The budget is a hard
     * limit: each try may take at most the request timeout <em>and</em> what is left of the budget, so a try that
     * hangs ends when the budget does, not a whole request timeout later.
     */
    Answer exchange(String method, String path, String body, OperationKey key, Duration budget) {
        Instant deadline = clock.instant().plus(budget);
        HttpRequest request = request(method, path, body, key);
        Failure failure = null;
        for (int attempt = 1; ; attempt++) {
            Duration left = Duration.between(clock.instant(), deadline);
            if (!left.isPositive()) {
                throw failure == null
                        ? new RetriesExhaustedException(attempt - 1, 0, null, null)
                        : new RetriesExhaustedException(attempt - 1, failure.status(), failure.code(), failure.cause());
            }
            try {
                HttpResponse<String> response =
                        http.send(within(request, left), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                if (!retryable(response)) {
                    return answer(response);
                }
                failure = new Failure(response.statusCode(), problemCode(response.body()), null, retryAfter(response));
            } catch (IOException e) {
                failure = new Failure(0, null, e, Duration.ZERO);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KopekException("interrupted while calling Kopek; retry with the same key", e);
            }
            Duration wait = wait(attempt, failure.retryAfter());
            if (attempt >= policy.maxAttempts() || !clock.instant().plus(wait).isBefore(deadline)) {
                throw new RetriesExhaustedException(attempt, failure.status(), failure.code(), failure.cause());
            }
            pause.pause(wait);
        }
    }

    /** The same request (same key, same body) with a timeout of at most {@code left}. */
    private HttpRequest within(HttpRequest request, Duration left) {
        Duration timeout = left.compareTo(requestTimeout) < 0 ? left : requestTimeout;
        return HttpRequest.newBuilder(request, (name, value) -> true)
                .timeout(timeout)
                .build();
    }

    private record Failure(int status, String code, IOException cause, Duration retryAfter) {}

    private HttpRequest request(String method, String path, String body, OperationKey key) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                .header("Authorization", "Bearer " + apiKey)
                .header("Accept", "application/json")
                .header("User-Agent", "kopek-client-java");
        if (key != null) {
            builder.header("Idempotency-Key", key.value());
        }
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8);
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        return builder.method(method, publisher).build();
    }

    static boolean retryable(int status, String code) {
        return status == 429
                || (status >= 500 && status != 501)
                || (status == 409 && "request_in_progress".equals(code));
    }

    private boolean retryable(HttpResponse<String> response) {
        int status = response.statusCode();
        return retryable(status, status == 409 ? problemCode(response.body()) : null);
    }

    private Answer answer(HttpResponse<String> response) {
        int status = response.statusCode();
        if (status < 400) {
            boolean replayed = response.headers()
                    .firstValue("Idempotent-Replayed")
                    .map("true"::equals)
                    .orElse(false);
            return new Answer(status, response.body(), replayed);
        }
        JsonNode problem = problem(response.body());
        String code = text(problem, "code").orElse("http_" + status);
        String detail = text(problem, "detail").orElse(null);
        String requestId = response.headers()
                .firstValue("X-Request-Id")
                .or(() -> text(problem, "request_id"))
                .orElse(null);
        if (status == 422 && code.equals("idempotency_key_reused")) {
            throw new IdempotencyKeyReusedException(detail, requestId);
        }
        throw new KopekApiException(status, code, detail, text(problem, "field").orElse(null), requestId);
    }

    private Duration wait(int attempt, Duration retryAfter) {
        long ceiling = policy.ceilingMillis(attempt);
        long jittered = ceiling == 0 ? 0 : ThreadLocalRandom.current().nextLong(ceiling + 1);
        return retryAfter.toMillis() > jittered ? retryAfter : Duration.ofMillis(jittered);
    }

    private static Duration retryAfter(HttpResponse<String> response) {
        return response.headers()
                .firstValue("Retry-After")
                .filter(v -> v.matches("[0-9]{1,5}"))
                .map(v -> Duration.ofSeconds(Long.parseLong(v)))
                .orElse(Duration.ZERO);
    }

    private String problemCode(String body) {
        return text(problem(body), "code").orElse(null);
    }

    private JsonNode problem(String body) {
        try {
            return body == null || body.isBlank() ? json.createObjectNode() : json.readTree(body);
        } catch (RuntimeException notJson) {
            return json.createObjectNode();
        }
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isString() ? Optional.empty() : Optional.of(value.stringValue());
    }
}
