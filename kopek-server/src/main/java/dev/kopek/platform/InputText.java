package dev.kopek.platform;

import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The one place that decides which text Kopek accepts from a client: no control characters (PostgreSQL refuses
 * NUL; the others only hide things in logs and consoles), no unpaired surrogates, and no card numbers (L12).
 * Every JSON request body passes through {@link #check(JsonNode)}, every field and every name at every depth,
 * so a new field is covered the day it is added. Refusals name the field and never quote the value.
 */
public final class InputText {

    private static final int MAX_DEPTH = 32;

    private InputText() {}

    /** Refuses the first string or property name in the tree that carries a control character or card data. */
    public static void check(JsonNode root) {
        walk(root, "", 0, true);
    }

    /**
     * The path of the first string or property name in the tree with a control character, if any; for documents
     * Kopek does not refuse by throwing, such as a PSP's signed notification.
     */
    public static Optional<String> firstControl(JsonNode root) {
        try {
            walk(root, "", 0, false);
            return Optional.empty();
        } catch (ApiProblem problem) {
            return Optional.of(problem.field() == null ? "body" : problem.field());
        }
    }

    /** C0 and C1 control characters, DEL, and UTF-16 halves without their partner. */
    public static boolean isClean(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c)) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** Header values may hold a tab (it separates tokens) but no other C0 control and no DEL. */
    public static boolean hasHeaderControl(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                return true;
            }
        }
        return false;
    }

    private static void walk(JsonNode node, String path, int depth, boolean cards) {
        if (depth > MAX_DEPTH) {
            throw ApiProblem.badRequest(
                    "invalid_json",
                    path.isEmpty() ? null : path,
                    "The request body nests deeper than " + MAX_DEPTH + " levels.");
        }
        if (node.isString()) {
            text(node.stringValue(), path, cards);
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> entry : node.properties()) {
                // A bad name is reported under its parent: echoing it back would repeat what was refused.
                text(entry.getKey(), path, cards);
                String child = path.isEmpty() ? entry.getKey() : path + "." + entry.getKey();
                walk(entry.getValue(), child, depth + 1, cards);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "[" + i + "]", depth + 1, cards);
            }
        }
    }

    private static void text(String value, String field, boolean cards) {
        if (!isClean(value)) {
            throw controlRefusal(field);
        }
        if (cards && CardNumbers.containsCardNumber(value)) {
            throw ApiProblem.badRequest(
                    "card_data_not_accepted",
                    field.isEmpty() ? null : field,
                    "This field looks like it holds a card"
                            + " number. Kopek never accepts card data; send the PSP's payment method token instead.");
        }
    }

    private static ApiProblem controlRefusal(String path) {
        String field = path == null || path.isEmpty() ? null : path;
        return ApiProblem.badRequest(
                "invalid_characters",
                field,
                "Control characters (such as NUL) are not" + " accepted in "
                        + (field == null || field.isEmpty() ? "the request" : field) + ".");
    }
}
