package dev.kopek.support;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;

/**
 * A handler mapping that finds nothing and counts how often it is asked, per request line: it sits before every
 * real mapping, so each time anything resolves a request's handler (the access decision, the dispatcher) it is
 * counted here. Only first dispatches are counted; error pages are another resolution of another path.
 */
public final class HandlerLookups implements HandlerMapping, Ordered {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    @Override
    public HandlerExecutionChain getHandler(HttpServletRequest request) {
        if (request.getDispatcherType() == DispatcherType.REQUEST) {
            counts.computeIfAbsent(request.getMethod() + " " + request.getRequestURI(), line -> new AtomicInteger())
                    .incrementAndGet();
        }
        return null;
    }

    /** How many times a request's handler was looked up, for requests sent as {@code method uri}. */
    public int of(String method, String uri) {
        AtomicInteger count = counts.get(method + " " + uri);
        return count == null ? 0 : count.get();
    }

    /** Right after the mapping that hands the dispatcher the decided handler, before every real one. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }
}
