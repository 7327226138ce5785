package dev.kopek.outbox.webhooks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * Posts one signed body. Never called inside a transaction; bounded by a connect and a request timeout; never
 * follows a redirect (an endpoint that moved must be updated, not chased). Only 2xx counts as delivered.
 */
class WebhookSender {

    private static final int MAX_ERROR = 500;

    private final HttpClient http;
    private final Duration requestTimeout;

    WebhookSender(Duration connectTimeout, Duration requestTimeout) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(connectTimeout)
                .executor(Executors.newVirtualThreadPerTaskExecutor()).build();
        this.requestTimeout = requestTimeout;
    }

    /**
     * @param responseCode null when no HTTP answer arrived
     * @param error why it failed, for the attempt record; never contains the secret or the body
     */
    record Result(Integer responseCode, long latencyMillis, String error) {
        boolean succeeded() {
            return responseCode != null && responseCode >= 200 && responseCode < 300;
        }
    }

    Result post(String url, String body, Map<String, String> headers) {
        long started = System.nanoTime();
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(requestTimeout)
                    .header("Content-Type", "application/json").header("User-Agent", "Kopek-Webhooks/1")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            headers.forEach(request::header);
            HttpResponse<Void> response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
            int code = response.statusCode();
            return new Result(code, elapsed(started), code >= 200 && code < 300 ? null : "HTTP " + code);
        } catch (HttpTimeoutException e) {
            return new Result(null, elapsed(started), "timed out");
        } catch (IOException | IllegalArgumentException e) {
            return new Result(null, elapsed(started), limit(e.getClass().getSimpleName() + ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(null, elapsed(started), "interrupted");
        }
    }

    private static long elapsed(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
    }

    private static String limit(String text) {
        return text.length() <= MAX_ERROR ? text : text.substring(0, MAX_ERROR);
    }
}
