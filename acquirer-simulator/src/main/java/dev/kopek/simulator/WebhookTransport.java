package dev.kopek.simulator;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The HTTP client that delivers webhooks, created on first use so a simulator without webhooks pays nothing. */
final class WebhookTransport {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

    private HttpClient client;
    private boolean closed;

    /** POSTs the payload; returns the receiver's status. */
    int post(URI url, String payload, String signature) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header(WebhookSignature.HEADER, signature)
                .POST(HttpRequest.BodyPublishers.ofString(payload))
                .build();
        return client().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private synchronized HttpClient client() throws IOException {
        if (closed) {
            throw new IOException("the simulator is closed");
        }
        if (client == null) {
            client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(CONNECT_TIMEOUT)
                    .build();
        }
        return client;
    }

    synchronized void close() {
        closed = true;
        if (client != null) {
            client.shutdownNow();
        }
    }
}
