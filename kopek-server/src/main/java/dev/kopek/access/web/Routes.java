package dev.kopek.access.web;

import dev.kopek.platform.Audience;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.boot.webmvc.actuate.endpoint.web.AbstractWebMvcEndpointHandlerMapping;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Finds the handler Spring MVC will run for a request, with the same handler mappings in the same order as the
 * dispatcher, and tells which audiences it is for. This is what makes access independent of how the path was
 * spelled: {@code /v1/%61dmin/merchants} resolves to the admin handler, so it is an admin route.
 *
 * <p>Where the method does not match (a 405 to come, or an {@code OPTIONS} that would list the allowed methods),
 * the route's audiences are those of every handler at that path, so a stranger learns nothing about an admin path
 * that he could not learn with the right method.
 */
final class Routes {

    /** The methods tried to learn a path's audiences when the request's own method has no handler there. */
    private static final List<String> PROBES = List.of("GET", "POST", "PUT", "PATCH", "DELETE");

    private final ApplicationContext context;
    private final String actuatorHealth;
    /** Per handler method: reading its annotations again on every request was 2 % of the payment path's CPU. */
    private final Map<HandlerKey, List<Audience.Kind>> declaredByHandler = new ConcurrentHashMap<>();

    private volatile List<HandlerMapping> mappings;

    Routes(ApplicationContext context, String actuatorBasePath) {
        this.context = context;
        this.actuatorHealth = actuatorBasePath + "/health";
    }

    /**
     * The dispatcher's mappings, found as the dispatcher finds them: every HandlerMapping bean, in order, but for the
     * one that hands the dispatcher what this lookup found ({@link DecidedHandler}).
     */
    private List<HandlerMapping> mappings() {
        List<HandlerMapping> found = mappings;
        if (found == null) {
            List<HandlerMapping> all = new java.util.ArrayList<>(
                    BeanFactoryUtils.beansOfTypeIncludingAncestors(context, HandlerMapping.class, true, false)
                            .values());
            all.removeIf(DecidedHandler.class::isInstance);
            AnnotationAwareOrderComparator.sort(all);
            found = List.copyOf(all);
            mappings = found;
        }
        return found;
    }

    /**
     * A request's route. {@code audiences} empty means no handler declares one: the route is closed.
     *
     * @param handler what was resolved, for the log line of a closed route
     * @param found the handler for the request as sent, for the dispatcher once access is granted; null when the
     *     request's own method has no handler at the path
     */
    record Route(Set<Audience.Kind> audiences, String handler, DecidedHandler.Found found) {

        /** No mapping at all took the request: nothing would run, so the answer is a 404 whoever asks. */
        boolean nowhere() {
            return handler == null;
        }
    }

    Route resolve(HttpServletRequest request) {
        Lookup direct = lookup(new Scratch(request, null));
        Declared declared = declared(direct);
        if (direct == Lookup.NONE) {
            return new Route(Set.of(), null, null);
        }
        if (declared != Declared.PROBE) {
            return new Route(declared.kinds, String.valueOf(direct.handler()), direct.found(request));
        }
        Set<Audience.Kind> kinds = EnumSet.noneOf(Audience.Kind.class);
        for (String method : PROBES) {
            Declared probed = declared(lookup(new Scratch(request, method)));
            if (probed != Declared.PROBE) {
                kinds.addAll(probed.kinds);
            }
        }
        return new Route(kinds, request.getMethod() + " at a path of " + kinds, null);
    }

    /** The audiences a handler method declares itself: the test that every handler has exactly one reads this. */
    static List<Audience.Kind> declaredBy(HandlerMethod handler) {
        Audience onMethod = AnnotationUtils.findAnnotation(handler.getMethod(), Audience.class);
        Audience onClass = AnnotationUtils.findAnnotation(handler.getBeanType(), Audience.class);
        return java.util.stream.Stream.of(onMethod, onClass)
                .filter(java.util.Objects::nonNull)
                .map(Audience::value)
                .toList();
    }

    private record HandlerKey(java.lang.reflect.Method method, Class<?> beanType) {}

    private record Lookup(HandlerMapping mapping, HandlerExecutionChain chain, Scratch scratch) {
        static final Lookup NONE = new Lookup(null, null, null);

        Object handler() {
            return chain == null ? null : chain.getHandler();
        }

        Object pattern() {
            return scratch.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        }

        DecidedHandler.Found found(HttpServletRequest request) {
            return scratch.found(chain, request);
        }
    }

    /** A lookup's audiences, or PROBE: nothing resolved for this method, ask the path's other methods. */
    private static final class Declared {
        static final Declared PROBE = new Declared(Set.of());
        static final Declared CLOSED = new Declared(Set.of());
        final Set<Audience.Kind> kinds;

        Declared(Set<Audience.Kind> kinds) {
            this.kinds = kinds;
        }

        static Declared of(Audience.Kind kind) {
            return new Declared(EnumSet.of(kind));
        }
    }

    private Declared declared(Lookup lookup) {
        Object handler = lookup.handler();
        if (handler == null) {
            return lookup == Lookup.NONE ? Declared.CLOSED : Declared.PROBE;
        }
        if (handler instanceof ResourceHttpRequestHandler) {
            return Declared.of(Audience.Kind.PUBLIC);
        }
        if (!(handler instanceof HandlerMethod method)) {
            // A CORS pre-flight handler: the path's own audiences decide.
            return handler.getClass().getName().contains("PreFlight") ? Declared.PROBE : Declared.CLOSED;
        }
        if (lookup.mapping instanceof AbstractWebMvcEndpointHandlerMapping) {
            return Declared.of(isHealth(lookup.pattern()) ? Audience.Kind.PUBLIC : Audience.Kind.ADMIN);
        }
        List<Audience.Kind> kinds = declaredByHandler.computeIfAbsent(
                new HandlerKey(method.getMethod(), method.getBeanType()), key -> declaredBy(method));
        if (kinds.size() == 1) {
            return Declared.of(kinds.getFirst());
        }
        if (kinds.isEmpty() && ErrorController.class.isAssignableFrom(method.getBeanType())) {
            // The servlet container's error page: it renders a refusal that was already decided.
            return Declared.of(Audience.Kind.PUBLIC);
        }
        if (kinds.isEmpty() && method.getBeanType().getName().startsWith("org.springframework.web.servlet.")) {
            // Spring MVC's own stand-ins (the OPTIONS answer, an ambiguous pre-flight): the path decides.
            return Declared.PROBE;
        }
        return Declared.CLOSED;
    }

    private boolean isHealth(Object pattern) {
        String text = String.valueOf(pattern);
        return text.equals(actuatorHealth) || text.startsWith(actuatorHealth + "/");
    }

    /**
     * Asks each mapping in the dispatcher's order. A mapping that matches the path but not the method, media type
     * or parameters throws: that is a path with handlers, but none for this request as sent.
     */
    private Lookup lookup(Scratch request) {
        // Spring Security's chain runs with the request's path parsed already (ServletRequestPathFilter): the
        // mappings read that one; parsing it again for each lookup was about a fifth of the lookup's cost.
        if (!ServletRequestPathUtils.hasParsedRequestPath(request)) {
            ServletRequestPathUtils.parseAndCache(request);
        }
        for (HandlerMapping mapping : mappings()) {
            HandlerExecutionChain chain;
            try {
                chain = mapping.getHandler(request);
            } catch (Exception partialMatch) {
                return new Lookup(mapping, null, null);
            }
            if (chain != null) {
                return new Lookup(mapping, chain, request);
            }
        }
        return Lookup.NONE;
    }

    /**
     * The request as the mappings see it, with its own attributes (a lookup leaves nothing behind on the real
     * request) and, for a probe, another method and no content negotiation headers.
     */
    private static final class Scratch extends HttpServletRequestWrapper {

        private static final Object REMOVED = new Object();
        private static final Set<String> NEGOTIATION = Set.of("accept", "content-type");

        private final Map<String, Object> attributes = new HashMap<>();
        private final String method;

        Scratch(HttpServletRequest request, String method) {
            super(request);
            this.method = method;
        }

        @Override
        public String getMethod() {
            return method == null ? super.getMethod() : method;
        }

        @Override
        public String getHeader(String name) {
            return probing(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return probing(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public String getContentType() {
            return method == null ? super.getContentType() : null;
        }

        private boolean probing(String name) {
            return method != null && name != null && NEGOTIATION.contains(name.toLowerCase(java.util.Locale.ROOT));
        }

        @Override
        public Object getAttribute(String name) {
            Object local = attributes.get(name);
            if (local == REMOVED) {
                return null;
            }
            return local != null ? local : super.getAttribute(name);
        }

        @Override
        public Enumeration<String> getAttributeNames() {
            Set<String> names = new HashSet<>(Collections.list(super.getAttributeNames()));
            attributes.forEach((name, value) -> {
                if (value == REMOVED) {
                    names.remove(name);
                } else {
                    names.add(name);
                }
            });
            return Collections.enumeration(names);
        }

        /**
         * The lookup's result for the dispatcher, with the attributes the mapping left here, but for the parsed
         * path: the dispatcher parses and restores its own.
         */
        DecidedHandler.Found found(HandlerExecutionChain chain, HttpServletRequest original) {
            Map<String, Object> set = new HashMap<>();
            Set<String> removed = new HashSet<>();
            attributes.forEach((name, value) -> {
                if (name.equals(ServletRequestPathUtils.PATH_ATTRIBUTE)) {
                    return;
                }
                if (value == REMOVED) {
                    removed.add(name);
                } else {
                    set.put(name, value);
                }
            });
            return new DecidedHandler.Found(
                    chain, set, removed, original.getDispatcherType(), original.getMethod(), original.getRequestURI());
        }

        @Override
        public void setAttribute(String name, Object value) {
            attributes.put(name, value == null ? REMOVED : value);
        }

        @Override
        public void removeAttribute(String name) {
            attributes.put(name, REMOVED);
        }
    }
}
