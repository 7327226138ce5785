package dev.kopek.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** A merchant's webhook endpoint: a JDK HTTP server on a random loopback port that records what it is sent. */
public final class WebhookReceiver implements AutoCloseable {

    public record Received(String signature, String eventId, String deliveryId, String body) {}

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Deque<Integer> scripted = new ArrayDeque<>();
    private volatile int defaultStatus = 200;

    public WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/hooks", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Map<String, List<String>> headers = exchange.getRequestHeaders();
            received.add(new Received(
                    first(headers, "Kopek-Signature"),
                    first(headers, "Kopek-Event-Id"),
                    first(headers, "Kopek-Delivery-Id"),
                    new String(body, StandardCharsets.UTF_8)));
            int status;
            synchronized (scripted) {
                status = scripted.isEmpty() ? defaultStatus : scripted.poll();
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    /** The next answers, in order; after them, {@link #answerAlways(int)}. */
    public WebhookReceiver answer(Integer... statuses) {
        synchronized (scripted) {
            scripted.addAll(List.of(statuses));
        }
        return this;
    }

    public WebhookReceiver answerAlways(int status) {
        defaultStatus = status;
        return this;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
