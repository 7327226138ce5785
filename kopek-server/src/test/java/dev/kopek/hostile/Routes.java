package dev.kopek.hostile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

/**
 * Every route Kopek serves, read from Spring's handler mappings (the controllers' and the actuator's), never
 * from a hand-written list: a route added tomorrow is swept tomorrow.
 */
record Routes(List<Route> all) {

    private static final Pattern VARIABLE = Pattern.compile("\\{([^}/]+)}");

    /** One path pattern and the methods it declares (all methods when it declares none). */
    record Route(String pattern, Set<RequestMethod> methods) {

        boolean takesBody() {
            return methods.contains(RequestMethod.POST)
                    || methods.contains(RequestMethod.PUT)
                    || methods.contains(RequestMethod.PATCH);
        }

        boolean hasVariables() {
            return pattern.contains("{");
        }

        /** The operator console: pages for people (HTML), behind its own session and CSRF token. */
        boolean isConsole() {
            return pattern.equals("/console") || pattern.startsWith("/console/");
        }

        boolean isAdmin() {
            return pattern.startsWith("/v1/admin") || pattern.startsWith("/v1/ops") || pattern.startsWith("/actuator");
        }

        /** The path with every variable replaced by what {@code value} gives for the segment before it. */
        String path(java.util.function.BiFunction<String, String, String> value) {
            Matcher m = VARIABLE.matcher(pattern);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String before = pattern.substring(0, m.start());
                String[] segments = before.split("/");
                String segment = segments.length == 0 ? "" : segments[segments.length - 1];
                m.appendReplacement(out, Matcher.quoteReplacement(value.apply(m.group(1), segment)));
            }
            m.appendTail(out);
            return out.toString();
        }
    }

    static Routes from(List<RequestMappingInfoHandlerMapping> mappings) {
        Map<String, Set<RequestMethod>> byPattern = new TreeMap<>();
        for (RequestMappingInfoHandlerMapping mapping : mappings) {
            for (RequestMappingInfo info : mapping.getHandlerMethods().keySet()) {
                Set<RequestMethod> methods =
                        info.getMethodsCondition().getMethods().isEmpty()
                                ? EnumSet.allOf(RequestMethod.class)
                                : info.getMethodsCondition().getMethods();
                for (String pattern : info.getPatternValues()) {
                    byPattern
                            .computeIfAbsent(pattern.replace("/**", ""), p -> EnumSet.noneOf(RequestMethod.class))
                            .addAll(methods);
                }
            }
        }
        List<Route> routes = new ArrayList<>();
        byPattern.forEach((pattern, methods) -> routes.add(new Route(pattern, methods)));
        routes.sort(Comparator.comparing(Route::pattern));
        return new Routes(List.copyOf(routes));
    }
}
