package dev.kopek.console.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * The browser-facing headers of every console page: never cached, never framed, scripts and styles only from
 * Kopek. Who may see a page, and the CSRF check on every action, are the access decision's
 * ({@code Audience.Kind.CONSOLE}); this guard only dresses what it let through.
 */
final class ConsoleGuard implements HandlerInterceptor {

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self';"
                        + " frame-ancestors 'none'");
        return true;
    }
}
