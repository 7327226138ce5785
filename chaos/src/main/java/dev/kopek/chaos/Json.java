package dev.kopek.chaos;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** One shared Jackson mapper. */
final class Json {

    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    static JsonNode parse(String text) {
        return MAPPER.readTree(text);
    }

    /** A body that may be anything (an HTML error page, a truncated answer): null when it is not JSON. */
    static JsonNode tryParse(String text) {
        try {
            return text == null || text.isEmpty() ? null : MAPPER.readTree(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
