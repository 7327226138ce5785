package dev.kopek.console.web;

import dev.kopek.console.Operator;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The console's login state, kept in the servlet session (cookie HttpOnly, SameSite=Strict, see application.yml):
 * which admin identity logged in, and the CSRF token every form posts back.
 */
final class ConsoleSession {

    static final String ADMIN = "kopek.console.admin";
    static final String CSRF = "kopek.console.csrf";
    static final String CSRF_FIELD = "_csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ConsoleSession() {
    }

    /** A fresh session (a new id: no fixation) for the identity that just proved itself. */
    static void start(HttpServletRequest request, String admin) {
        HttpSession old = request.getSession(false);
        if (old != null) {
            old.invalidate();
        }
        HttpSession session = request.getSession(true);
        byte[] token = new byte[32];
        RANDOM.nextBytes(token);
        session.setAttribute(ADMIN, admin);
        session.setAttribute(CSRF, HexFormat.of().formatHex(token));
    }

    static Optional<String> admin(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? Optional.empty()
                : Optional.ofNullable((String) session.getAttribute(ADMIN));
    }

    static String csrf(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? null : (String) session.getAttribute(CSRF);
    }

    static boolean csrfMatches(HttpServletRequest request) {
        String expected = csrf(request);
        String given = request.getParameter(CSRF_FIELD);
        return expected != null && given != null && MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.US_ASCII), given.getBytes(StandardCharsets.US_ASCII));
    }

    static Operator operator(HttpServletRequest request) {
        return new Operator(admin(request).orElseThrow(), request.getRemoteAddr());
    }

    static void end(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }
}
