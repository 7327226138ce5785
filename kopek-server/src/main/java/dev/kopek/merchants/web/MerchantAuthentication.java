package dev.kopek.merchants.web;

import dev.kopek.merchants.CallingMerchant;
import dev.kopek.merchants.Merchants;
import dev.kopek.merchants.MerchantsProperties;
import dev.kopek.merchants.Secrets;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.ApiProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * {@code Authorization: Bearer <key>}. Merchant routes learn their merchant only from here (L11): never from
 * a body, a path or an idempotency key. Admin routes compare against the admin token in constant time.
 */
final class MerchantAuthentication implements HandlerInterceptor {

    static final String MERCHANT_ATTRIBUTE = CallingMerchant.ATTRIBUTE;
    private static final Map<String, String> CHALLENGE = Map.of("WWW-Authenticate", "Bearer realm=\"kopek\"");

    private final Merchants merchants;
    private final MerchantsProperties properties;

    MerchantAuthentication(Merchants merchants, MerchantsProperties properties) {
        this.merchants = merchants;
        this.properties = properties;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String token = bearer(request).orElseThrow(() -> unauthorized("missing_api_key",
                "Send your secret API key as 'Authorization: Bearer <key>'."));
        if (path.startsWith("/v1/admin/") || path.startsWith("/v1/ops/")) {
            if (!properties.adminEnabled()) {
                throw ApiProblem.of(HttpStatus.FORBIDDEN, "admin_api_disabled",
                        "The admin API is off; start Kopek with KOPEK_ADMIN_TOKEN set to use it.");
            }
            if (!Secrets.constantTimeEquals(token, properties.adminToken())) {
                throw unauthorized("invalid_admin_token", "The admin token is not valid.");
            }
            return true;
        }
        MerchantId merchant = merchants.authenticate(token)
                .orElseThrow(() -> unauthorized("invalid_api_key", "The API key is not valid or has been revoked."));
        request.setAttribute(MERCHANT_ATTRIBUTE, merchant);
        return true;
    }

    private static Optional<String> bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = header.substring(7).trim();
        return token.isEmpty() || token.length() > 512 ? Optional.empty() : Optional.of(token);
    }

    private static ApiProblem unauthorized(String code, String detail) {
        return ApiProblem.withHeaders(HttpStatus.UNAUTHORIZED, code, detail, CHALLENGE);
    }
}
