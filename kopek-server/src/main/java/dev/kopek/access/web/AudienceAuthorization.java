package dev.kopek.access.web;

import dev.kopek.access.AdminSessions;
import dev.kopek.merchants.CallingMerchant;
import dev.kopek.platform.Audience;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Supplier;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

/**
 * The one access decision: the caller must belong to every audience of the route Spring resolved for the request
 * ({@link Routes}); a route with none is closed. A granted merchant route learns its merchant here, and a granted
 * admin route its admin, as request attributes that the handler's {@code MerchantId} or {@code Actor} parameter
 * is resolved from; nothing else sets them (L11).
 */
final class AudienceAuthorization implements AuthorizationManager<RequestAuthorizationContext> {

    /** Read by the rate limiter ({@link CallingMerchant}) as well as by the {@code MerchantId} parameter. */
    static final String MERCHANT_ATTRIBUTE = CallingMerchant.ATTRIBUTE;

    static final String ADMIN_ATTRIBUTE = "kopek.admin";
    private static final Logger log = LoggerFactory.getLogger(AudienceAuthorization.class);
    private static final AuthorizationDecision GRANTED = new AuthorizationDecision(true);
    private static final AuthorizationDecision DENIED = new AuthorizationDecision(false);

    /** Methods that change nothing, so a console page may be read without the session's CSRF token. */
    private static final java.util.Set<String> SAFE = java.util.Set.of("GET", "HEAD", "OPTIONS");

    private final Routes routes;
    private final AdminSessions sessions;

    AudienceAuthorization(Routes routes, AdminSessions sessions) {
        this.routes = routes;
        this.sessions = sessions;
    }

    @Override
    public AuthorizationResult authorize(
            Supplier<? extends Authentication> authentication, RequestAuthorizationContext context) {
        HttpServletRequest request = context.getRequest();
        Routes.Route route = routes.resolve(request);
        Caller caller = authentication.get() instanceof CallerAuthentication known ? known.caller() : null;
        if (route.audiences().contains(Audience.Kind.CONSOLE)) {
            // The console's caller comes from its session, never from a bearer token.
            caller = sessions.current(request)
                    .map(admin -> new Caller.Admin(admin.id(), admin.name()))
                    .orElse(null);
        }
        Refusal refusal = refusal(route, caller, request);
        if (refusal != null) {
            request.setAttribute(Refusal.ATTRIBUTE, refusal);
            return DENIED;
        }
        if (route.audiences().contains(Audience.Kind.MERCHANT) && caller instanceof Caller.Merchant merchant) {
            request.setAttribute(MERCHANT_ATTRIBUTE, merchant.merchant());
        }
        if ((route.audiences().contains(Audience.Kind.ADMIN)
                        || route.audiences().contains(Audience.Kind.CONSOLE))
                && caller instanceof Caller.Admin admin) {
            request.setAttribute(ADMIN_ATTRIBUTE, admin);
        }
        if (route.found() != null) {
            // The dispatcher runs the handler whose audience was just checked, without looking it up again.
            request.setAttribute(DecidedHandler.ATTRIBUTE, route.found());
        }
        return GRANTED;
    }

    private Refusal refusal(Routes.Route route, Caller caller, HttpServletRequest request) {
        if (route.nowhere()) {
            // A person who mistyped a console address gets a page, not the API's problem+json.
            return isConsolePath(request)
                    ? Refusal.consolePage(HttpStatus.NOT_FOUND, "not_found", "There is no such page in the console.")
                    : Refusal.notFound();
        }
        if (route.audiences().isEmpty()) {
            log.error(
                    "closed route: {} {} resolves to {}, which declares no audience (or more than one)",
                    request.getMethod(),
                    request.getRequestURI(),
                    route.handler());
            return Refusal.forbidden("route_closed", "This route is not open to anyone.");
        }
        boolean unknownToken = request.getAttribute(BearerAuthentication.UNKNOWN_TOKEN) != null;
        for (Audience.Kind audience : route.audiences()) {
            Refusal refusal = switch (audience) {
                case PUBLIC, PSP_WEBHOOK -> null;
                case MERCHANT ->
                    caller instanceof Caller.Merchant
                            ? null
                            : caller == null && !unknownToken
                                    ? Refusal.unauthorized(
                                            "missing_api_key",
                                            "Send your secret API key as 'Authorization: Bearer <key>'.")
                                    : Refusal.unauthorized(
                                            "invalid_api_key", "The API key is not valid or has been revoked.");
                case ADMIN ->
                    caller instanceof Caller.Admin
                            ? null
                            : caller == null && !unknownToken
                                    ? Refusal.unauthorized(
                                            "missing_api_key",
                                            "Send an admin token as 'Authorization: Bearer <token>'.")
                                    : Refusal.unauthorized("invalid_admin_token", "The admin token is not valid.");
                case CONSOLE -> console(caller, request);
            };
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

    private static boolean isConsolePath(HttpServletRequest request) {
        String path = request.getRequestURI();
        return path.equals("/console") || path.startsWith("/console/");
    }

    /**
     * A console route: a live session first (a page without one goes to the login form), then, for anything but
     * reading, the session's CSRF token: a form posted from another site, or a script replaying a cookie without
     * the page, changes nothing.
     */
    private Refusal console(Caller caller, HttpServletRequest request) {
        boolean safe = SAFE.contains(request.getMethod());
        if (!(caller instanceof Caller.Admin)) {
            return safe
                    ? Refusal.consoleLogin()
                    : Refusal.consolePage(
                            HttpStatus.UNAUTHORIZED,
                            "console_login",
                            "Your console session has ended. Log in again; nothing was changed.");
        }
        if (safe) {
            return null;
        }
        boolean matches;
        try {
            matches = sessions.csrfMatches(request);
        } catch (InvalidParameterException unreadable) {
            // Reading the form's token made Tomcat parse the body: bytes that are not UTF-8, a broken %-escape or
            // a body over the size limit. A page, with Tomcat's status when it names a 4xx (413), else 400.
            HttpStatus given = HttpStatus.resolve(unreadable.getErrorCode());
            return Refusal.consolePage(
                    given != null && given.is4xxClientError() ? given : HttpStatus.BAD_REQUEST,
                    "unreadable_form",
                    "The console could not read this form (its bytes"
                            + " are not UTF-8 text, its %-escapes are broken or it is too large); nothing was changed.");
        }
        if (!matches) {
            return Refusal.consolePage(
                    HttpStatus.FORBIDDEN,
                    "csrf_failed",
                    "This form was not sent from your"
                            + " console session (CSRF check failed); nothing was changed. Reload the page and try again.");
        }
        return null;
    }
}
