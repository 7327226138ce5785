package dev.kopek.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The first thing every request meets. It refuses, with 400 problem+json and before anything else runs, a query
 * string that does not decode strictly (a bare {@code %}, {@code %FF}, {@code %C3%28}: Tomcat would throw while
 * a handler reads it, a 500), a control character in any query parameter name or value (PostgreSQL refuses NUL,
 * and nothing Kopek stores has any use for the others), a control character in a header value, and every CORS
 * preflight. On the way out it gives a body-less refusal its problem+json.
 *
 * <p>Kopek's API is called by merchants' servers with secret keys; no browser page of another origin may call it, so
 * no origin is ever allowed. A preflight is refused here, quietly (a 403 problem, no log line: anyone can send them
 * by the thousand), before authentication or any handler could answer it, so its answer is the same for every path
 * and says nothing about which routes exist.
 *
 * <p>A filter that fails because the database is unavailable (a failover) is answered here with the 503 every
 * request gets then ({@link DatabaseOutages}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class RequestGuardFilter extends OncePerRequestFilter {

    private final DatabaseOutages outages;

    RequestGuardFilter(DatabaseOutages outages) {
        this.outages = outages;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ApiProblem refusal = check(request);
        if (refusal != null) {
            write(response, refusal);
            return;
        }
        WatchedResponse watched = new WatchedResponse(response);
        try {
            chain.doFilter(request, watched);
        } catch (RuntimeException | ServletException e) {
            // The database went away under a filter (authentication, the rate limiter): answered here, so that the
            // container does not log the failure as an error with its stack trace on its way to the error page.
            Optional<ApiProblem> unavailable =
                    response.isCommitted() ? Optional.empty() : outages.problemFor(e, request);
            if (unavailable.isEmpty()) {
                throw e;
            }
            response.resetBuffer();
            write(response, unavailable.get());
            return;
        }
        if (watched.refusedWithoutBody()) {
            int status = response.getStatus();
            write(
                    response,
                    status,
                    Problems.json(
                            status,
                            Problems.codeFor(status),
                            status == 404 ? "No such resource." : "The request was refused."));
        }
    }

    /**
     * Notices a refusal that set a status and wrote nothing (the actuator answers an unknown metric with a bare
     * 404): such an answer gets the problem body every other refusal has. A {@code sendError} is left to the
     * error dispatch.
     */
    private static final class WatchedResponse extends HttpServletResponseWrapper {

        private boolean touched;

        WatchedResponse(HttpServletResponse response) {
            super(response);
        }

        boolean refusedWithoutBody() {
            return !touched && !isCommitted() && getStatus() >= 400 && getStatus() <= 599;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            touched = true;
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            touched = true;
            return super.getWriter();
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            touched = true;
            super.sendError(sc, msg);
        }

        @Override
        public void sendError(int sc) throws IOException {
            touched = true;
            super.sendError(sc);
        }

        @Override
        public void sendRedirect(String location) throws IOException {
            touched = true;
            super.sendRedirect(location);
        }
    }

    private static ApiProblem check(HttpServletRequest request) {
        if (CorsUtils.isPreFlightRequest(request)) {
            return ApiProblem.of(
                    HttpStatus.FORBIDDEN,
                    "cors_not_allowed",
                    "Kopek's API is called from servers;"
                            + " no browser origin may call it, so cross-origin preflights are refused.");
        }
        ApiProblem query = QueryStrings.check(request.getQueryString());
        if (query != null) {
            return query;
        }
        Enumeration<String> names = request.getHeaderNames();
        while (names != null && names.hasMoreElements()) {
            String name = names.nextElement();
            Enumeration<String> values = request.getHeaders(name);
            while (values.hasMoreElements()) {
                if (InputText.hasHeaderControl(values.nextElement())) {
                    return ApiProblem.badRequest(
                            "invalid_characters", name, "Header " + name + " contains a control character.");
                }
            }
        }
        return null;
    }

    private static void write(HttpServletResponse response, ApiProblem problem) throws IOException {
        problem.headers().forEach(response::setHeader);
        write(
                response,
                problem.status().value(),
                Problems.json(problem.status().value(), problem.code(), problem.getMessage(), problem.field()));
    }

    private static void write(HttpServletResponse response, int status, String json) throws IOException {
        response.setStatus(status);
        response.setContentType("application/problem+json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(json);
    }
}
