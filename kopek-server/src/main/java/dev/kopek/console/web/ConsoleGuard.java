package dev.kopek.console.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Every console page needs a logged-in admin; every console POST also needs the session's CSRF token. A page
 * without a login redirects to the login form; a refused POST is a plain 403 page, and changes nothing.
 */
final class ConsoleGuard implements HandlerInterceptor {

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws IOException {
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self';"
                        + " frame-ancestors 'none'");
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.equals("/console/login")) {
            return true;
        }
        boolean post = "POST".equalsIgnoreCase(request.getMethod());
        if (ConsoleSession.admin(request).isEmpty()) {
            if (post) {
                refuse(response, 401, "Your console session has ended. Log in again; nothing was changed.");
            } else {
                response.sendRedirect(request.getContextPath() + "/console/login");
            }
            return false;
        }
        if (post && !ConsoleSession.csrfMatches(request)) {
            refuse(response, 403, "This form was not sent from your console session (CSRF check failed);"
                    + " nothing was changed. Reload the page and try again.");
            return false;
        }
        return true;
    }

    private static void refuse(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("text/html;charset=UTF-8");
        response.getWriter().write("<!DOCTYPE html><html lang=\"en\"><head><title>Kopek console</title>"
                + "<link rel=\"stylesheet\" href=\"/console/assets/console.css\"></head><body class=\"login\">"
                + "<main class=\"card\"><h1>Not done</h1><p>" + message + "</p>"
                + "<p><a href=\"/console/login\">Log in</a></p></main></body></html>");
    }
}
