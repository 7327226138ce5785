package dev.kopek.access.web;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Set;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;

/**
 * The dispatcher's first handler mapping: it hands the dispatcher the handler that the access decision already
 * resolved for this request ({@link Routes}), so that a request's handler is looked up once, not twice. Resolving
 * the handler mappings a second time was about 3 % of Kopek's CPU on the payment path (benchmarks/HISTORY.md).
 *
 * <p>It answers only for the dispatch that was decided (same dispatch type, method and URI) and only once; for
 * anything else it answers nothing and the dispatcher asks the real mappings, as it always did. So the handler that
 * runs is always the one whose audience was checked, and without a decision nothing changes.
 */
final class DecidedHandler implements HandlerMapping, Ordered {

    /** The request attribute that carries a granted request's {@link Found} from the decision to the dispatcher. */
    static final String ATTRIBUTE = "kopek.decided-handler";

    @Override
    public HandlerExecutionChain getHandler(HttpServletRequest request) {
        if (!(request.getAttribute(ATTRIBUTE) instanceof Found found)) {
            return null;
        }
        request.removeAttribute(ATTRIBUTE);
        if (!found.isFor(request)) {
            return null;
        }
        found.attributes().forEach(request::setAttribute);
        found.removed().forEach(request::removeAttribute);
        return found.chain();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /**
     * What the access decision's lookup found: the handler with its interceptors, and the request attributes the
     * mapping set (the matched pattern, the URI's variables, the producible media types) or removed while finding
     * it, which the dispatcher's own lookup would have left on the request.
     */
    record Found(
            HandlerExecutionChain chain,
            Map<String, Object> attributes,
            Set<String> removed,
            DispatcherType dispatch,
            String method,
            String uri) {

        boolean isFor(HttpServletRequest request) {
            return request.getDispatcherType() == dispatch
                    && method.equals(request.getMethod())
                    && uri.equals(request.getRequestURI());
        }
    }
}
