package dev.kopek.access.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads {@code Authorization: Bearer <token>} and, when the token belongs to somebody, puts that {@link Caller}
 * in the security context. It refuses nothing itself: whether a caller (or nobody) may reach a route is the
 * {@link AudienceAuthorization}'s decision, which needs the handler first. A token that belongs to nobody is
 * remembered, so the refusal can say "invalid" rather than "missing".
 */
final class BearerAuthentication extends OncePerRequestFilter {

    static final String UNKNOWN_TOKEN = "kopek.unknown-bearer";
    private static final int MAX_TOKEN = 512;

    private final Callers callers;

    BearerAuthentication(Callers callers) {
        this.callers = callers;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header != null) {
            boolean write = !"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod());
            bearer(header)
                    .flatMap(token -> callers.identify(token, write))
                    .ifPresentOrElse(
                            caller -> {
                                SecurityContext context = SecurityContextHolder.createEmptyContext();
                                context.setAuthentication(new CallerAuthentication(caller));
                                SecurityContextHolder.setContext(context);
                            },
                            () -> request.setAttribute(UNKNOWN_TOKEN, Boolean.TRUE));
        }
        chain.doFilter(request, response);
    }

    private static Optional<String> bearer(String header) {
        if (header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = header.substring(7).trim();
        return token.isEmpty() || token.length() > MAX_TOKEN ? Optional.empty() : Optional.of(token);
    }
}
