package dev.kopek.access.web;

import dev.kopek.merchants.CallingMerchant;
import dev.kopek.platform.Audience;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

    private final Routes routes;

    AudienceAuthorization(Routes routes) {
        this.routes = routes;
    }

    @Override
    public AuthorizationResult authorize(Supplier<? extends Authentication> authentication,
            RequestAuthorizationContext context) {
        HttpServletRequest request = context.getRequest();
        Routes.Route route = routes.resolve(request);
        Caller caller = authentication.get() instanceof CallerAuthentication known ? known.caller() : null;
        Refusal refusal = refusal(route, caller, request);
        if (refusal != null) {
            request.setAttribute(Refusal.ATTRIBUTE, refusal);
            return DENIED;
        }
        if (route.audiences().contains(Audience.Kind.MERCHANT) && caller instanceof Caller.Merchant merchant) {
            request.setAttribute(MERCHANT_ATTRIBUTE, merchant.merchant());
        }
        if (route.audiences().contains(Audience.Kind.ADMIN) && caller instanceof Caller.Admin admin) {
            request.setAttribute(ADMIN_ATTRIBUTE, admin);
        }
        return GRANTED;
    }

    private static Refusal refusal(Routes.Route route, Caller caller, HttpServletRequest request) {
        if (route.nowhere()) {
            return Refusal.notFound();
        }
        if (route.audiences().isEmpty()) {
            log.error("closed route: {} {} resolves to {}, which declares no audience (or more than one)",
                    request.getMethod(), request.getRequestURI(), route.handler());
            return Refusal.forbidden("route_closed", "This route is not open to anyone.");
        }
        boolean unknownToken = request.getAttribute(BearerAuthentication.UNKNOWN_TOKEN) != null;
        for (Audience.Kind audience : route.audiences()) {
            Refusal refusal = switch (audience) {
                case PUBLIC, PSP_WEBHOOK -> null;
                case MERCHANT -> caller instanceof Caller.Merchant ? null : caller == null && !unknownToken
                        ? Refusal.unauthorized("missing_api_key",
                                "Send your secret API key as 'Authorization: Bearer <key>'.")
                        : Refusal.unauthorized("invalid_api_key", "The API key is not valid or has been revoked.");
                case ADMIN -> caller instanceof Caller.Admin ? null : caller == null && !unknownToken
                        ? Refusal.unauthorized("missing_api_key",
                                "Send an admin token as 'Authorization: Bearer <token>'.")
                        : Refusal.unauthorized("invalid_admin_token", "The admin token is not valid.");
            };
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }
}
