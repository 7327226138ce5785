package dev.kopek.simulator;

import java.util.Map;

/** Fixed error replies, built once: their bytes never change and the hot path should not re-serialise them. */
final class Replies {
    static final Answer.Reply SERVICE_UNAVAILABLE = Json.error(503, "service_unavailable");
    static final Answer.Reply INTERNAL_ERROR = Json.error(500, "internal_error");
    static final Answer.Reply IN_PROGRESS = Json.error(409, "request_in_progress");
    static final Answer.Reply KEY_REUSED = Json.error(422, "idempotency_key_reused");
    static final Answer.Reply NOT_FOUND = Json.error(404, "not_found");
    static final Answer.Reply RATE_LIMITED =
            new Answer.Reply(429, Json.error(429, "rate_limited").body(), Map.of("Retry-After", "1"));

    private Replies() {}
}
