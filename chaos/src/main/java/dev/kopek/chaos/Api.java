package dev.kopek.chaos;

import dev.kopek.chaos.Evidence.Answer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;

/**
 * A merchant's HTTP client as a careful merchant writes it: one idempotency key per logical operation, retried
 * with the same key on a timeout, a reset, a 409 that says "in progress", a 429 or a 5xx, and on 202 until the
 * outcome is known (bounded); sometimes two submissions of one key at once.
 */
final class Api {

    /** An answer, or null status 0 for a transport failure. */
    record Reply(int status, boolean replayed, String body) {
        JsonNode json() {
            return Json.tryParse(body);
        }

        String code() {
            return Json.text(json(), "code");
        }
    }

    private static final Set<String> RETRY_409 = Set.of("request_in_progress", "capture_in_progress");
    private static final String BALANCER_502 = "{\"error\":\"bad_gateway\"}";

    private final HttpClient http;
    private final URI base;
    private final Figures figures;
    private final ClientLog log;
    private final int maxAttempts;

    /** {@code maxAttempts} bounds one operation's tries: a run whose outages last longer gives more. */
    Api(HttpClient http, URI base, Figures figures, ClientLog log, int maxAttempts) {
        this.http = http;
        this.base = base;
        this.figures = figures;
        this.log = log;
        this.maxAttempts = maxAttempts;
    }

    /** One logical operation to a final answer (or the last answer after the bounded retries). */
    Reply perform(String operation, String path, String key, String body) {
        figures.add("operations");
        figures.add("operations_" + operation);
        if (ThreadLocalRandom.current().nextDouble() < 0.08) {
            figures.add("double_submissions");
            return twice(operation, path, key, body);
        }
        return retrying(operation, path, key, body);
    }

    private Reply twice(String operation, String path, String key, String body) {
        var other = new CompletableFuture<Reply>();
        Thread.ofVirtual().start(() -> other.complete(retrying(operation, path, key, body)));
        Reply mine = retrying(operation, path, key, body);
        Reply theirs = other.join();
        return mine.status() != 0 ? mine : theirs;
    }

    private Reply retrying(String operation, String path, String key, String body) {
        Reply reply = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            if (attempt > 1) {
                figures.add("retries");
                Pause.millis(Math.min(
                        2000, 100L * attempt + ThreadLocalRandom.current().nextLong(200)));
            }
            reply = post(operation, path, key, body);
            if (!retryable(operation, reply)) {
                return reply;
            }
        }
        figures.add("operations_unfinished_by_client");
        return reply;
    }

    private static boolean retryable(String operation, Reply r) {
        if (r.status() == 0 || r.status() == 429 || r.status() >= 500) {
            return true;
        }
        if (r.status() == 409) {
            return RETRY_409.contains(r.code());
        }
        return r.status() == 202 && !operation.equals("refund");
    }

    Reply post(String operation, String path, String key, String body) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(6))
                .header("Authorization", "Bearer " + Fleet.API_KEY)
                .header("Idempotency-Key", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        long sent = System.nanoTime();
        Reply reply = send(request);
        if (reply.status() != 0) {
            log.record(operation, key, new Answer(reply.status(), reply.replayed(), reply.body()));
        }
        if (reply.status() / 100 == 2) {
            log.acknowledged(new ClientLog.Ack(operation, key, reply.body(), sent, System.nanoTime()));
        }
        figures.add("http_" + (reply.status() == 0 ? "transport_error" : Integer.toString(reply.status())));
        return reply;
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(6))
                .header("Authorization", "Bearer " + Fleet.API_KEY)
                .GET()
                .build());
    }

    /**
     * Sorts a 5xx: Kopek's 503 {@code database_unavailable} with {@code Retry-After} (the answer the retry
     * contract asks for while the database is away), the balancer's own 502 (an instance died under the request),
     * or a server error, which no fault excuses.
     */
    private void serverError(HttpRequest request, HttpResponse<String> response) {
        int status = response.statusCode();
        boolean retryAfter = response.headers().firstValue("Retry-After").isPresent();
        if (status == 503
                && retryAfter
                && "database_unavailable".equals(Json.text(Json.tryParse(response.body()), "code"))) {
            figures.add("http5xx_database_unavailable");
        } else if (status == 502 && BALANCER_502.equals(response.body())) {
            figures.add("http5xx_balancer");
        } else {
            figures.add("server_errors");
            log.serverError(request.method() + " " + request.uri().getPath() + " " + status
                    + (retryAfter ? " (Retry-After)" : "") + " " + response.body());
        }
    }

    private Reply send(HttpRequest request) {
        figures.add("requests");
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            boolean replayed =
                    response.headers().firstValue("Idempotent-Replayed").isPresent();
            if (response.statusCode() >= 500) {
                serverError(request, response);
            }
            return new Reply(response.statusCode(), replayed, response.body());
        } catch (HttpTimeoutException e) {
            figures.add("client_timeouts");
            return new Reply(0, false, "");
        } catch (IOException e) {
            figures.add("client_resets");
            return new Reply(0, false, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(0, false, "");
        }
    }
}
