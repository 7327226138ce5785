package dev.kopek.console.web;

import dev.kopek.access.AdminSessions;
import dev.kopek.access.AdminTokens;
import dev.kopek.access.LoginThrottle;
import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.platform.Audience;
import dev.kopek.platform.LogContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Log in with an admin token (the bootstrap {@code KOPEK_ADMIN_TOKEN} or a named identity's {@code kad_…}); the
 * session, not the token, is what later requests carry. The form is open to anyone, so it has its own CSRF check
 * (a cookie only this path receives, matched by a field of the form: another site cannot log a person's browser in
 * as someone else) and its own limit on failed attempts ({@link LoginThrottle}). Logging in, a failed attempt and
 * logging out are in the audit trail, never with the token.
 */
@Controller
class ConsoleLoginController {

    static final String LOGIN_COOKIE = "KOPEK_CONSOLE_LOGIN";
    private static final String LOGIN_PATH = "/console/login";
    private static final Logger log = LoggerFactory.getLogger(ConsoleLoginController.class);
    private static final int MAX_TOKEN = 512;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Who acts when nobody has proved who they are: Kopek records the attempt, with its address. */
    private static final String FAILED_LOGIN_ACTOR = "console-login";

    private final AdminSessions sessions;
    private final AdminTokens tokens;
    private final LoginThrottle throttle;
    private final AuditTrail audit;
    private final boolean secureCookie;

    ConsoleLoginController(
            AdminSessions sessions,
            AdminTokens tokens,
            LoginThrottle throttle,
            AuditTrail audit,
            @Value("${server.servlet.session.cookie.secure:false}") boolean secureCookie) {
        this.sessions = sessions;
        this.tokens = tokens;
        this.throttle = throttle;
        this.audit = audit;
        this.secureCookie = secureCookie;
    }

    @GetMapping(LOGIN_PATH)
    @Audience(Audience.Kind.PUBLIC)
    String form(Model model, HttpServletResponse response) {
        return loginPage(model, response, HttpServletResponse.SC_OK, null);
    }

    @PostMapping(LOGIN_PATH)
    @Audience(Audience.Kind.PUBLIC)
    String login(
            @RequestParam(name = "token", required = false) String token,
            @RequestParam(name = AdminSessions.CSRF_FIELD, required = false) String csrf,
            @CookieValue(name = LOGIN_COOKIE, required = false) String cookie,
            HttpServletRequest request,
            HttpServletResponse response,
            Model model) {
        String address = request.getRemoteAddr();
        if (!sameToken(cookie, csrf)) {
            return loginPage(
                    model,
                    response,
                    HttpServletResponse.SC_FORBIDDEN,
                    "This form did not come from the"
                            + " login page, or the page is too old. Log in again with the form below.");
        }
        String given = token == null || token.length() > MAX_TOKEN ? null : token.strip();
        if (throttle.check(address, given) instanceof LoginThrottle.Verdict.Refused refused) {
            log.warn("console login refused from {}: too many failed attempts", address);
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(refused.retryAfterSeconds()));
            return loginPage(
                    model,
                    response,
                    429,
                    "Too many failed log-ins from this address or for this" + " identity. Try again in "
                            + minutes(refused.retryAfterSeconds()) + "; nothing was checked.");
        }
        Optional<AdminTokens.Admin> admin =
                given == null || given.isEmpty() ? Optional.empty() : sessions.logIn(request, given);
        if (admin.isEmpty()) {
            throttle.failed(address, given);
            String claimed =
                    Optional.ofNullable(LoginThrottle.identityPrefix(given)).orElse("unknown");
            record(
                    new Actor(
                            Actor.Kind.SYSTEM,
                            "system:" + FAILED_LOGIN_ACTOR,
                            FAILED_LOGIN_ACTOR,
                            LogContext.requestId(),
                            address),
                    "console.login_failed",
                    claimed);
            log.warn("console login failed from {} (identity {})", address, claimed);
            return loginPage(model, response, HttpServletResponse.SC_UNAUTHORIZED, "That admin token is not valid.");
        }
        AdminTokens.Admin who = admin.get();
        record(
                new Actor(Actor.Kind.ADMIN, who.id(), who.name(), LogContext.requestId(), address),
                "console.logged_in",
                who.id());
        log.info("console login: {} ({}) from {}", who.name(), who.id(), address);
        response.addHeader(HttpHeaders.SET_COOKIE, loginCookie("", 0).toString());
        return "redirect:/console/payments";
    }

    @PostMapping("/console/logout")
    @Audience(Audience.Kind.CONSOLE)
    String logout(Actor actor, HttpServletRequest request) {
        record(actor, "console.logged_out", actor.id());
        sessions.logOut(request);
        return "redirect:" + LOGIN_PATH;
    }

    /** The form with a fresh CSRF pair: the cookie for this path and the same value in a hidden field. */
    private String loginPage(Model model, HttpServletResponse response, int status, String error) {
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        response.setStatus(status);
        response.addHeader(HttpHeaders.SET_COOKIE, loginCookie(token, -1).toString());
        model.addAttribute("loginCsrf", token);
        model.addAttribute("bootstrap", tokens.bootstrapEnabled());
        if (error != null) {
            model.addAttribute("error", error);
        }
        return "console/login";
    }

    private ResponseCookie loginCookie(String value, long maxAgeSeconds) {
        return ResponseCookie.from(LOGIN_COOKIE, value)
                .path(LOGIN_PATH)
                .httpOnly(true)
                .sameSite("Strict")
                .secure(secureCookie)
                .maxAge(maxAgeSeconds)
                .build();
    }

    private static boolean sameToken(String cookie, String field) {
        return cookie != null
                && field != null
                && cookie.length() == 64
                && MessageDigest.isEqual(
                        cookie.getBytes(StandardCharsets.US_ASCII), field.getBytes(StandardCharsets.US_ASCII));
    }

    private void record(Actor actor, String action, String identity) {
        audit.inTransaction(status -> {
            audit.record(actor, action, "admin_identity", identity, null, Map.of("via", "console"));
            return null;
        });
    }

    private static String minutes(long seconds) {
        long minutes = Math.max(1, (seconds + 59) / 60);
        return minutes == 1 ? "a minute" : minutes + " minutes";
    }
}
