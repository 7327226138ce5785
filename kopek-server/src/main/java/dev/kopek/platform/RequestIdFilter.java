package dev.kopek.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request an id: the caller's {@code X-Request-Id} when it is well-formed, a new one otherwise (a
 * malformed one is replaced, not refused, so a bad proxy cannot break payments). The id is in every log line of
 * the request, on every answer and in every problem body. Runs first, so even refusals by later filters carry it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestIdFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-Request-Id";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String given = request.getAttribute(LogContext.REQUEST_ID) instanceof String earlier
                ? earlier
                : request.getHeader(HEADER);
        String id = LogContext.isValidRequestId(given) ? given : newId();
        MDC.put(LogContext.REQUEST_ID, id);
        request.setAttribute(LogContext.REQUEST_ID, id);
        response.setHeader(HEADER, id);
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.clear();
        }
    }

    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    /** A new request id, for an answer that came with no usable one. */
    static String newId() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return "req_" + HexFormat.of().formatHex(bytes);
    }
}
