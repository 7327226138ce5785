package dev.kopek.access.web;

import java.util.Map;
import org.springframework.http.HttpStatus;

/** Why the access decision said no, as the problem the client receives. */
record Refusal(HttpStatus status, String code, String detail, Map<String, String> headers) {

    static final String ATTRIBUTE = "kopek.refusal";
    private static final Map<String, String> CHALLENGE = Map.of("WWW-Authenticate", "Bearer realm=\"kopek\"");

    static Refusal unauthorized(String code, String detail) {
        return new Refusal(HttpStatus.UNAUTHORIZED, code, detail, CHALLENGE);
    }

    static Refusal forbidden(String code, String detail) {
        return new Refusal(HttpStatus.FORBIDDEN, code, detail, Map.of());
    }

    static Refusal notFound() {
        return new Refusal(HttpStatus.NOT_FOUND, "not_found", "No such resource.", Map.of());
    }
}
