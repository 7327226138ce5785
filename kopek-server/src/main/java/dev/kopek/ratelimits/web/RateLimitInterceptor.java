package dev.kopek.ratelimits.web;

import dev.kopek.merchants.CallingMerchant;
import dev.kopek.platform.ApiProblem;
import dev.kopek.ratelimits.Kind;
import dev.kopek.ratelimits.RateLimiter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Runs after authentication and before the handler, so before any body is read or idempotency key claimed: a
 * refused request has stored nothing. Only merchant requests are limited; admin, ops, PSP notifications and health
 * are not (an operator must be able to act during a flood, and a PSP's notification is not the merchant's traffic).
 */
final class RateLimitInterceptor implements HandlerInterceptor {

    private final RateLimiter limiter;

    RateLimitInterceptor(RateLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        CallingMerchant.of(request).ifPresent(merchant -> {
            Kind kind = Kind.of(request.getMethod());
            if (limiter.take(merchant, kind) instanceof RateLimiter.Decision.Limited limited) {
                throw ApiProblem.withHeaders(
                        HttpStatus.TOO_MANY_REQUESTS,
                        "rate_limited",
                        "Too many " + (kind == Kind.WRITE ? "state-changing" : "read") + " requests ("
                                + limited.scope() + " limit); nothing was done. Retry after "
                                + limited.retryAfterSeconds() + " s, with the same Idempotency-Key.",
                        Map.of("Retry-After", Long.toString(limited.retryAfterSeconds())));
            }
        });
        return true;
    }
}
