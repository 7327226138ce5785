package dev.kopek.simulator;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of an HTTP request the endpoints need, detached from HttpExchange so endpoint code stays
 * plain and testable.
 *
 * @param headers header name (as HttpServer normalises it) to values
 * @param query      decoded query parameters; the first value wins when a name repeats
 * @param pathParams the {@code {name}} segments of the route template that matched
 */
record Request(
        String method,
        String path,
        Map<String, List<String>> headers,
        Map<String, String> query,
        byte[] body,
        Map<String, String> pathParams) {

    Request(String method, String path, Map<String, List<String>> headers, Map<String, String> query, byte[] body) {
        this(method, path, headers, query, body, Map.of());
    }

    /** A template segment of the matched route, e.g. {@code id} in {@code /charges/{id}}. */
    String pathParam(String name) {
        return pathParams.get(name);
    }

    String queryParam(String name) {
        return query.get(name);
    }

    List<String> header(String name) {
        return headers.get(name);
    }

    /** Decodes a raw query string; a malformed escape is a client error, not a 500. */
    static Map<String, String> parseQuery(String rawQuery) {
        Map<String, String> params = new HashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return params;
        }
        try {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                params.putIfAbsent(name, value);
            }
        } catch (IllegalArgumentException e) {
            throw new BadRequest("invalid_request", "malformed query string");
        }
        return params;
    }
}
