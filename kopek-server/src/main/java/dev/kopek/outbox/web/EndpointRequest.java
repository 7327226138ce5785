package dev.kopek.outbox.web;

import dev.kopek.outbox.EventTypes;
import dev.kopek.outbox.webhooks.AddressPolicy;
import dev.kopek.platform.ApiProblem;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code {url, event_types}} checked field by field; nothing is stored before this passes. */
record EndpointRequest(String url, List<String> eventTypes) {

    static final int MAX_URL = 2048;
    static final int MAX_TYPES = 64;
    /** Digits and dots only: what InetAddress parses as an IPv4 literal (also 1- to 3-part forms like 2130706433). */
    private static final Pattern IPV4ISH = Pattern.compile("[0-9.]+");

    /** @param allowHttpLoopback demo and tests: plain http is accepted for loopback hosts */
    static EndpointRequest parse(ObjectNode body, boolean allowHttpLoopback) {
        for (String name : body.propertyNames()) {
            if (!name.equals("url") && !name.equals("event_types")) {
                throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'.");
            }
        }
        return new EndpointRequest(url(body.get("url"), allowHttpLoopback), eventTypes(body.get("event_types")));
    }

    private static String url(JsonNode node, boolean allowHttpLoopback) {
        if (node == null || node.isNull()) {
            throw ApiProblem.badRequest("missing_field", "url", "url is required.");
        }
        String text = node.isString() ? node.stringValue() : null;
        if (text == null || text.isEmpty() || text.length() > MAX_URL) {
            throw invalidUrl();
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw invalidUrl();
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https"))
                || uri.getHost() == null
                || uri.getRawUserInfo() != null
                || uri.getRawFragment() != null
                || !text.startsWith(scheme)) {
            throw invalidUrl();
        }
        Optional<InetAddress> literal = literal(uri.getHost());
        boolean loopback = uri.getHost().equalsIgnoreCase("localhost")
                || literal.map(new AddressPolicy(true)::isLoopback).orElse(false);
        if (scheme.equals("http") && !(allowHttpLoopback && loopback)) {
            throw ApiProblem.badRequest(
                    "insecure_url",
                    "url",
                    "url must be https; plain http is accepted only for " + "a loopback address in demo mode.");
        }
        // A name is checked where it matters, when a delivery resolves it; an address literal can be judged now.
        Optional<String> refusal = literal.flatMap(new AddressPolicy(allowHttpLoopback)::refusal);
        if (refusal.isPresent() || (loopback && !allowHttpLoopback)) {
            throw ApiProblem.badRequest(
                    "url_not_allowed",
                    "url",
                    "url must reach a public address; " + refusal.orElse("loopback") + " is not allowed.");
        }
        return text;
    }

    /** The host as an address when it is an IPv4 or bracketed IPv6 literal; names are never looked up here. */
    private static Optional<InetAddress> literal(String host) {
        boolean v6 = host.startsWith("[") && host.endsWith("]");
        if (!v6 && !IPV4ISH.matcher(host).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.ofLiteral(v6 ? host.substring(1, host.length() - 1) : host));
        } catch (IllegalArgumentException e) {
            throw invalidUrl();
        }
    }

    private static ApiProblem invalidUrl() {
        return ApiProblem.badRequest(
                "invalid_url",
                "url",
                "url must be an absolute https URL of at most " + MAX_URL
                        + " characters, without credentials or a fragment.");
    }

    private static List<String> eventTypes(JsonNode node) {
        if (node == null || node.isNull()) {
            throw ApiProblem.badRequest("missing_field", "event_types", "event_types is required.");
        }
        if (!node.isArray() || node.isEmpty() || node.size() > MAX_TYPES) {
            throw ApiProblem.badRequest(
                    "invalid_event_types",
                    "event_types",
                    "event_types must be a list of 1–" + MAX_TYPES + " event types, or [\"*\"] for all.");
        }
        List<String> types = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode type = node.get(i);
            if (!type.isString()
                    || !(type.stringValue().equals(EventTypes.ALL) || EventTypes.isKnown(type.stringValue()))) {
                throw ApiProblem.badRequest(
                        "unknown_event_type",
                        "event_types[" + i + "]",
                        "Unknown event type; use \"*\" or one of " + EventTypes.known() + ".");
            }
            types.add(type.stringValue());
        }
        return types;
    }
}
