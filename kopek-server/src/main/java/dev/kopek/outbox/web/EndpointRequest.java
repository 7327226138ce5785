package dev.kopek.outbox.web;

import dev.kopek.outbox.EventTypes;
import dev.kopek.platform.ApiProblem;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code {url, event_types}} checked field by field; nothing is stored before this passes. */
record EndpointRequest(String url, List<String> eventTypes) {

    static final int MAX_URL = 2048;
    static final int MAX_TYPES = 64;

    static EndpointRequest parse(ObjectNode body) {
        for (String name : body.propertyNames()) {
            if (!name.equals("url") && !name.equals("event_types")) {
                throw ApiProblem.badRequest("unknown_field", name, "Unknown field '" + name + "'.");
            }
        }
        return new EndpointRequest(url(body.get("url")), eventTypes(body.get("event_types")));
    }

    private static String url(JsonNode node) {
        if (node == null || node.isNull()) {
            throw ApiProblem.badRequest("missing_field", "url", "url is required.");
        }
        String text = node.isString() ? node.stringValue() : null;
        if (text == null || text.isEmpty() || text.length() > MAX_URL) {
            throw invalidUrl();
        }
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null
                    || uri.getRawUserInfo() != null || uri.getRawFragment() != null || !text.startsWith(scheme)) {
                throw invalidUrl();
            }
        } catch (URISyntaxException e) {
            throw invalidUrl();
        }
        return text;
    }

    private static ApiProblem invalidUrl() {
        return ApiProblem.badRequest("invalid_url", "url", "url must be an absolute http or https URL of at most "
                + MAX_URL + " characters, without credentials or a fragment.");
    }

    private static List<String> eventTypes(JsonNode node) {
        if (node == null || node.isNull()) {
            throw ApiProblem.badRequest("missing_field", "event_types", "event_types is required.");
        }
        if (!node.isArray() || node.isEmpty() || node.size() > MAX_TYPES) {
            throw ApiProblem.badRequest("invalid_event_types", "event_types",
                    "event_types must be a list of 1–" + MAX_TYPES + " event types, or [\"*\"] for all.");
        }
        List<String> types = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode type = node.get(i);
            if (!type.isString() || !(type.stringValue().equals(EventTypes.ALL) || EventTypes.isKnown(type.stringValue()))) {
                throw ApiProblem.badRequest("unknown_event_type", "event_types[" + i + "]",
                        "Unknown event type; use \"*\" or one of " + EventTypes.known() + ".");
            }
            types.add(type.stringValue());
        }
        return types;
    }
}
