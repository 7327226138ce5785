package dev.kopek.simulation;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * Where the PSP sends its webhooks during a simulation: it only says 200. The driver forwards each event to
 * Kopek itself, from the simulator's record, in the order and number the seed chooses, so that duplicates,
 * reordering and delays are part of the replayable run and not of a background thread's timing.
 */
final class WebhookSink implements AutoCloseable {

    private final HttpServer server;

    WebhookSink() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sink");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
