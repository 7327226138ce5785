package dev.kopek.access.web;

import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * Why the access decision said no, as the client receives it: a problem (the API), or for a person in the
 * operator console a short HTML page, or a redirect to the console's login form.
 *
 * @param form how it is written out
 */
record Refusal(HttpStatus status, String code, String detail, Map<String, String> headers, Form form) {

    static final String ATTRIBUTE = "kopek.refusal";
    static final String CONSOLE_LOGIN = "/console/login";
    private static final Map<String, String> CHALLENGE = Map.of("WWW-Authenticate", "Bearer realm=\"kopek\"");

    enum Form {
        PROBLEM,
        CONSOLE_PAGE,
        CONSOLE_LOGIN
    }

    Refusal(HttpStatus status, String code, String detail, Map<String, String> headers) {
        this(status, code, detail, headers, Form.PROBLEM);
    }

    static Refusal unauthorized(String code, String detail) {
        return new Refusal(HttpStatus.UNAUTHORIZED, code, detail, CHALLENGE);
    }

    static Refusal forbidden(String code, String detail) {
        return new Refusal(HttpStatus.FORBIDDEN, code, detail, Map.of());
    }

    static Refusal notFound() {
        return new Refusal(HttpStatus.NOT_FOUND, "not_found", "No such resource.", Map.of());
    }

    /** A console page asked for without a live session: the browser is sent to the login form (303). */
    static Refusal consoleLogin() {
        return new Refusal(
                HttpStatus.SEE_OTHER,
                "console_login",
                "Log in to the console.",
                Map.of("Location", CONSOLE_LOGIN),
                Form.CONSOLE_LOGIN);
    }

    /** A console action refused (no session, or no CSRF token): a page that says so; nothing was changed. */
    static Refusal consolePage(HttpStatus status, String code, String detail) {
        return new Refusal(status, code, detail, Map.of(), Form.CONSOLE_PAGE);
    }
}
