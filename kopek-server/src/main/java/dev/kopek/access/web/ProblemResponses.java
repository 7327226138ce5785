package dev.kopek.access.web;

import dev.kopek.platform.Problems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.web.util.HtmlUtils;

/**
 * The security layer's refusals as problem+json with stable codes, never Spring's default pages: the access
 * decision's {@link Refusal}, and the firewall's refusal of an ambiguous request ({@code ;} parameters, encoded
 * {@code /} or {@code .}, {@code //}, dot segments, a method outside the usual seven, control characters).
 */
final class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler, RequestRejectedHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        refuse(request, response);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        refuse(request, response);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException e)
            throws IOException {
        // The firewall's message quotes what it refused, which may be a header carrying a token: neither logged
        // nor echoed.
        log.debug("{} request refused by the firewall", request.getMethod());
        String detail = "The request's path, method or headers are not in a form Kopek accepts (no ';' parameters,"
                + " encoded '/', '.' or '%', '//' or dot segments).";
        // A person who followed a mangled console link gets a page, as for an unknown console address.
        write(
                response,
                isConsolePath(request)
                        ? Refusal.consolePage(HttpStatus.BAD_REQUEST, "request_rejected", detail)
                        : new Refusal(HttpStatus.BAD_REQUEST, "request_rejected", detail, java.util.Map.of()));
    }

    /** The raw path (the firewall refused it, so it was never normalised) names a console page. */
    private static boolean isConsolePath(HttpServletRequest request) {
        String path = request.getRequestURI();
        return path != null
                && (path.equals("/console") || path.startsWith("/console/") || path.startsWith("/console;"));
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Refusal refusal = request.getAttribute(Refusal.ATTRIBUTE) instanceof Refusal decided
                ? decided
                : Refusal.forbidden("forbidden", "This request is not allowed.");
        write(response, refusal);
    }

    /**
     * A refusal for a person in the console: a fixed sentence (nothing from the request is echoed but its
     * validated request id) and a link to the login form; for a redirect the same page is its body.
     */
    private static void consolePage(HttpServletResponse response, Refusal refusal) throws IOException {
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
        response.setContentType("text/html");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter()
                .write("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                        + "<title>Kopek console</title><link rel=\"stylesheet\" href=\"/console/assets/console.css\">"
                        + "</head><body class=\"login\"><main class=\"card\"><h1>"
                        + (refusal.status() == HttpStatus.NOT_FOUND ? "Not found" : "Not done") + "</h1><p>"
                        + HtmlUtils.htmlEscape(refusal.detail()) + "</p>" + Problems.requestIdParagraph()
                        + "<p><a href=\"" + Refusal.CONSOLE_LOGIN + "\">Log in</a></p></main></body></html>");
    }

    private static void write(HttpServletResponse response, Refusal refusal) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        refusal.headers().forEach(response::setHeader);
        response.setStatus(refusal.status().value());
        if (refusal.form() != Refusal.Form.PROBLEM) {
            consolePage(response, refusal);
            return;
        }
        response.setContentType("application/problem+json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(Problems.json(refusal.status().value(), refusal.code(), refusal.detail()));
    }
}
