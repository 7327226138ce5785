package dev.kopek.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/** A test endpoint that receives webhooks and answers with scripted statuses (200 once the script is used up). */
final class WebhookReceiver implements AutoCloseable {
    /** One POST as it arrived. */
    record Received(String body, String signature, String contentType) {
        JsonNode json() {
            return SimClient.MAPPER.readTree(body);
        }

        String type() {
            return json().get("type").stringValue();
        }

        String id() {
            return json().get("id").stringValue();
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final LinkedBlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Integer> script = new ConcurrentLinkedQueue<>();

    WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/hooks", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hooks");
    }

    /** The next calls get these statuses, in order; later ones get 200. */
    void answer(int... statuses) {
        for (int status : statuses) {
            script.add(status);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(
                    body,
                    exchange.getRequestHeaders().getFirst("Simulator-Signature"),
                    exchange.getRequestHeaders().getFirst("Content-Type")));
            Integer status = script.poll();
            exchange.sendResponseHeaders(status == null ? 200 : status, -1);
        }
    }

    /** The next webhook, waiting up to 5 s for it. */
    Received next() throws InterruptedException {
        Received next = received.poll(5, TimeUnit.SECONDS);
        assertThat(next).as("a webhook within 5 s").isNotNull();
        return next;
    }

    List<Received> next(int count) throws InterruptedException {
        List<Received> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(next());
        }
        return all;
    }

    /** The next webhook of that type, skipping others. */
    Received next(String type) throws InterruptedException {
        while (true) {
            Received next = next();
            if (next.type().equals(type)) {
                return next;
            }
        }
    }

    /** Nothing more arrives within the given time. */
    void assertQuietFor(Duration duration) throws InterruptedException {
        assertThat(received.poll(duration.toMillis(), TimeUnit.MILLISECONDS)).isNull();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
