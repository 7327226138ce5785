package dev.kopek.chaos;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The load balancer in front of the three instances, with its own faults on a share of the POSTs to /v1: it
 * <b>replays</b> a request to a second instance (the seed's load-balancer incident), <b>drops</b> the response after
 * the instance did the work (the client sees a reset), or <b>delays</b> the request. A refused connection (a killed
 * instance) is retried on the next instance, as a real balancer does; an instance that dies mid-request is a 502.
 * A second, fault-free listener takes the PSP's webhooks to any live instance.
 */
final class Balancer implements AutoCloseable {

    private static final Set<String> HOP_BY_HOP =
            Set.of("connection", "content-length", "host", "transfer-encoding", "keep-alive", "upgrade", "expect");

    /** Shares of faulty POSTs; the rest are forwarded faithfully. */
    record Faults(double replay, double drop, double delay) {
        static final Faults NONE = new Faults(0, 0, 0);
    }

    private final List<URI> backends;
    private final Figures figures;
    private final HttpClient http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpServer server;
    private final HttpServer webhooks;
    private volatile Faults faults = Faults.NONE;

    Balancer(List<URI> backends, Figures figures) {
        this.backends = List.copyOf(backends);
        this.figures = figures;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofMillis(500))
                .executor(executor)
                .build();
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
            webhooks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(executor);
        webhooks.setExecutor(executor);
        server.createContext("/", exchange -> handle(exchange, true));
        webhooks.createContext("/", exchange -> handle(exchange, false));
        server.start();
        webhooks.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    URI webhookUri(String path) {
        return URI.create("http://127.0.0.1:" + webhooks.getAddress().getPort() + path);
    }

    void faults(Faults faults) {
        this.faults = faults;
    }

    private void handle(HttpExchange exchange, boolean faulty) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            boolean candidate = faulty
                    && exchange.getRequestMethod().equals("POST")
                    && exchange.getRequestURI().getPath().startsWith("/v1/");
            Faults f = faults;
            double roll = ThreadLocalRandom.current().nextDouble();
            List<URI> order = order();
            if (candidate && roll < f.delay()) {
                figures.add("lb_fault_delay");
                Pause.millis(ThreadLocalRandom.current().nextLong(200, 1500));
            } else if (candidate && roll < f.delay() + f.replay()) {
                figures.add("lb_fault_replay");
                // The same request, same headers, to a second instance at the same time; its answer is discarded.
                URI second = order.get(1);
                executor.submit(() -> forward(exchange, body, List.of(second)));
            }
            HttpResponse<byte[]> response = forward(exchange, body, order);
            if (response == null) {
                respond(exchange, 502, "{\"error\":\"bad_gateway\"}".getBytes(), null);
                return;
            }
            if (candidate && roll >= f.delay() + f.replay() && roll < f.delay() + f.replay() + f.drop()) {
                figures.add("lb_fault_drop");
                return; // closing the exchange without an answer resets the client's connection
            }
            respond(exchange, response.statusCode(), response.body(), response);
        }
    }

    private List<URI> order() {
        List<URI> order = new ArrayList<>(backends);
        Collections.shuffle(order);
        return order;
    }

    /** The first instance that accepts the connection; null when none did, or the one that did died on it. */
    private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body, List<URI> order) {
        for (URI backend : order) {
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            backend.resolve(exchange.getRequestURI().toString()))
                    .timeout(Duration.ofSeconds(15))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase())) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            try {
                return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (java.net.ConnectException e) {
                figures.add("lb_connect_refused");
            } catch (IOException e) {
                figures.add("lb_backend_failed");
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private static void respond(HttpExchange exchange, int status, byte[] body, HttpResponse<byte[]> from)
            throws IOException {
        if (from != null) {
            from.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase()) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        webhooks.stop(0);
        executor.shutdownNow();
    }
}
