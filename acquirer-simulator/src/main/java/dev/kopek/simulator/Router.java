package dev.kopek.simulator;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The single HttpServer handler: routing (exact paths first, then templates such as
 * {@code /charges/{id}/captures}), 404/405, error mapping and response writing. Whatever goes wrong
 * inside an endpoint, the client gets JSON, never a stack trace.
 */
final class Router implements HttpHandler {
    /** One endpoint; may sleep, hence InterruptedException (the server is closing). */
    @FunctionalInterface
    interface Endpoint {
        Answer handle(Request request) throws InterruptedException;
    }

    private static final System.Logger LOG = System.getLogger(Router.class.getName());
    private static final int MAX_BODY_BYTES = 1 << 20;
    /** A literal, not built by Jackson: the bug being reported may be that Jackson itself cannot load. */
    private static final Answer.Reply HANDLER_FAILED =
            new Answer.Reply(500, "{\"error\":\"internal_error\"}".getBytes(StandardCharsets.US_ASCII));

    private final Map<String, Map<String, Endpoint>> routes = new HashMap<>();
    private final Map<String, Template> templates = new LinkedHashMap<>();
    private final TraceTrail trail = new TraceTrail();

    TraceTrail trail() {
        return trail;
    }

    /** A path with {@code {name}} segments; each matches exactly one non-empty segment. */
    private record Template(List<String> segments, Map<String, Endpoint> byMethod) {

        static Template of(String path) {
            return new Template(List.of(path.substring(1).split("/", -1)), new LinkedHashMap<>());
        }

        /** The path parameters, or null when the path does not match. */
        Map<String, String> match(String path) {
            if (!path.startsWith("/")) {
                return null;
            }
            String[] parts = path.substring(1).split("/", -1);
            if (parts.length != segments.size()) {
                return null;
            }
            Map<String, String> params = new HashMap<>();
            for (int i = 0; i < parts.length; i++) {
                String segment = segments.get(i);
                if (segment.startsWith("{") && segment.endsWith("}")) {
                    if (parts[i].isEmpty()) {
                        return null;
                    }
                    params.put(segment.substring(1, segment.length() - 1), parts[i]);
                } else if (!segment.equals(parts[i])) {
                    return null;
                }
            }
            return params;
        }
    }

    /** The endpoints of one path and the parameters taken from it. */
    private record Match(Map<String, Endpoint> byMethod, Map<String, String> params) {}

    Router route(String method, String path, Endpoint endpoint) {
        if (path.contains("{")) {
            templates.computeIfAbsent(path, Template::of).byMethod().put(method, endpoint);
        } else {
            routes.computeIfAbsent(path, p -> new LinkedHashMap<>()).put(method, endpoint);
        }
        return this;
    }

    private Match find(String path) {
        Map<String, Endpoint> exact = routes.get(path);
        if (exact != null) {
            return new Match(exact, Map.of());
        }
        for (Template template : templates.values()) {
            Map<String, String> params = template.match(path);
            if (params != null) {
                return new Match(template.byMethod(), params);
            }
        }
        return null;
    }

    @Override
    public void handle(HttpExchange exchange) {
        // Closing the exchange without a response closes the socket, which is exactly Answer.DROP.
        try (exchange) {
            Answer answer = answer(exchange);
            if (answer instanceof Answer.Reply reply) {
                write(exchange, reply);
            }
        } catch (IOException e) {
            // The client went away (or the server is closing); there is no one left to answer.
            LOG.log(System.Logger.Level.DEBUG, "could not write response", e);
        }
    }

    private Answer answer(HttpExchange exchange) throws IOException {
        try {
            Match match = find(exchange.getRequestURI().getPath());
            if (match == null) {
                return Replies.NOT_FOUND;
            }
            Map<String, Endpoint> byMethod = match.byMethod();
            Endpoint endpoint = byMethod.get(exchange.getRequestMethod());
            if (endpoint == null) {
                return new Answer.Reply(
                        405,
                        Json.error(405, "method_not_allowed").body(),
                        Map.of("Allow", String.join(", ", byMethod.keySet())));
            }
            trail.record(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), exchange.getRequestHeaders());
            byte[] body = readBody(exchange.getRequestBody());
            if (body == null) {
                return Json.error(413, "payload_too_large");
            }
            return endpoint.handle(new Request(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders(),
                    Request.parseQuery(exchange.getRequestURI().getRawQuery()),
                    body,
                    match.params()));
        } catch (BadRequest e) {
            return Json.error(400, e.code(), e.getMessage());
        } catch (ApiRefusal e) {
            return e.reply();
        } catch (InterruptedException e) {
            // Only close() interrupts handlers; hang up instead of answering a server that is going away.
            Thread.currentThread().interrupt();
            return Answer.DROP;
        } catch (RuntimeException | Error e) {
            LOG.log(
                    System.Logger.Level.ERROR,
                    "handler failed for " + exchange.getRequestMethod() + " " + exchange.getRequestURI(),
                    e);
            return HANDLER_FAILED;
        }
    }

    /** The whole body, or null when it exceeds the limit (the simulator has no use for large bodies). */
    private static byte[] readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
        return body.length > MAX_BODY_BYTES ? null : body;
    }

    private static void write(HttpExchange exchange, Answer.Reply reply) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        reply.headers().forEach(headers::set);
        if (reply.body().length == 0) {
            exchange.sendResponseHeaders(reply.status(), -1);
            return;
        }
        if (!headers.containsKey("Content-Type")) {
            headers.set("Content-Type", "application/json");
        }
        exchange.sendResponseHeaders(reply.status(), reply.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply.body());
        }
    }
}
