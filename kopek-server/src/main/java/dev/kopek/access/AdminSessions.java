package dev.kopek.access;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The operator console's sessions: an admin identity proves itself once with its token at the login form, and
 * the servlet session (cookie {@code KOPEK_CONSOLE}: HttpOnly, SameSite=Strict, path {@code /console}, see
 * application.yml) carries who it is, plus a CSRF token that every form posts back. The access decision reads it
 * for {@code Audience.Kind.CONSOLE} routes and asks on every request whether the identity is still live, so a
 * revoked identity's session stops at once.
 */
@Component
public class AdminSessions {

    /** The form field (or query parameter) that carries the session's CSRF token. */
    public static final String CSRF_FIELD = "_csrf";

    private static final String ADMIN_ID = "kopek.console.admin-id";
    private static final String ADMIN_NAME = "kopek.console.admin-name";
    private static final String CSRF = "kopek.console.csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final AdminTokens tokens;

    AdminSessions(AdminTokens tokens) {
        this.tokens = tokens;
    }

    /**
     * Logs in with an admin token: on success a fresh session (a new id, so a session id planted before the
     * login is worth nothing) carries the identity and a new CSRF token.
     */
    public Optional<AdminTokens.Admin> logIn(HttpServletRequest request, String token) {
        Optional<AdminTokens.Admin> admin = tokens.authenticate(token);
        admin.ifPresent(who -> {
            logOut(request);
            HttpSession session = request.getSession(true);
            byte[] csrf = new byte[32];
            RANDOM.nextBytes(csrf);
            session.setAttribute(ADMIN_ID, who.id());
            session.setAttribute(ADMIN_NAME, who.name());
            session.setAttribute(CSRF, HexFormat.of().formatHex(csrf));
        });
        return admin;
    }

    public void logOut(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }

    /** The session's identity while it is live; a session of a revoked identity is ended here. */
    public Optional<AdminTokens.Admin> current(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session == null
                || !(session.getAttribute(ADMIN_ID) instanceof String id)
                || !(session.getAttribute(ADMIN_NAME) instanceof String name)) {
            return Optional.empty();
        }
        AdminTokens.Admin admin = new AdminTokens.Admin(id, name);
        if (!tokens.isLive(admin)) {
            session.invalidate();
            return Optional.empty();
        }
        return Optional.of(admin);
    }

    /**
     * The name of the session's identity, for display on a page the access decision already let through; null
     * without a session.
     */
    public String name(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? null : (String) session.getAttribute(ADMIN_NAME);
    }

    /** The token the session's forms carry; null without a session. */
    public String csrfToken(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? null : (String) session.getAttribute(CSRF);
    }

    /** Whether the request carries its session's CSRF token (compared in constant time). */
    public boolean csrfMatches(HttpServletRequest request) {
        String expected = csrfToken(request);
        String given = request.getParameter(CSRF_FIELD);
        return expected != null
                && given != null
                && MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.US_ASCII), given.getBytes(StandardCharsets.US_ASCII));
    }
}
