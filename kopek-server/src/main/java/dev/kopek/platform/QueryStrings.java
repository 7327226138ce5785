package dev.kopek.platform;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes a raw query string strictly, as the handlers will read it: {@code %} followed by two hex digits,
 * {@code +} for a space, and the bytes valid UTF-8. Anything else is refused before a handler asks for a
 * parameter. Decoded names and values must be free of control characters.
 */
final class QueryStrings {

    private QueryStrings() {}

    /** The refusal for this query string, or null when it is fine. */
    static ApiProblem check(String query) {
        if (query == null || query.isEmpty()) {
            return null;
        }
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq == 0) {
                // Tomcat refuses a value without a name ("=x", "a&=") by throwing when a handler first reads any
                // parameter; refuse it here, before a handler runs.
                return ApiProblem.badRequest("invalid_encoding", null, "A query parameter has a value but no name.");
            }
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (name == null || value == null) {
                return ApiProblem.badRequest(
                        "invalid_encoding", null, "The query string is not valid" + " percent-encoded UTF-8.");
            }
            if (!InputText.isClean(name)) {
                return ApiProblem.badRequest(
                        "invalid_characters", null, "A query parameter name contains a control character.");
            }
            if (!InputText.isClean(value)) {
                return ApiProblem.badRequest(
                        "invalid_characters",
                        name,
                        "Control characters (such as NUL) are not accepted in " + name + ".");
            }
        }
        return null;
    }

    private static String decode(String raw) {
        ByteBuffer bytes = ByteBuffer.allocate(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int high = i + 2 < raw.length() ? hex(raw.charAt(i + 1)) : -1;
                int low = high < 0 ? -1 : hex(raw.charAt(i + 2));
                if (low < 0) {
                    return null;
                }
                bytes.put((byte) (high * 16 + low));
                i += 2;
            } else if (c > 0x7E || c < 0x20) {
                return null;
            } else {
                bytes.put((byte) (c == '+' ? ' ' : c));
            }
        }
        bytes.flip();
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes)
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
