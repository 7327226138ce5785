package dev.kopek.simulator;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * The trace headers of the latest requests, as an acquirer's own logs would keep them: which W3C
 * {@code traceparent} and caller request id came with which idempotency key. Bounded; the oldest go first.
 */
final class TraceTrail {

    /** One request's correlation headers; absent headers are null. */
    record Seen(String method, String path, String idempotencyKey, String traceparent, String requestId) {}

    private static final int LIMIT = 2_000;
    private final Deque<Seen> seen = new ArrayDeque<>();

    synchronized void record(String method, String path, Map<String, List<String>> headers) {
        if (seen.size() == LIMIT) {
            seen.removeFirst();
        }
        seen.addLast(new Seen(
                method,
                path,
                first(headers, "Idempotency-key"),
                first(headers, "Traceparent"),
                first(headers, "X-request-id")));
    }

    synchronized List<Seen> all() {
        return List.copyOf(seen);
    }

    synchronized void clear() {
        seen.clear();
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }
}
