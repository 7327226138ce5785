package dev.kopek.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The catalogue of hostile input: JSON values and whole bodies as raw bytes (so invalid UTF-8 can be sent),
 * query strings, path ids and raw request framing. Each entry has a name that a failure report quotes.
 */
final class Mutations {

    /** A named piece of input. */
    record Piece(String name, byte[] bytes) {
        static Piece of(String name, String text) {
            return new Piece(name, text.getBytes(StandardCharsets.UTF_8));
        }

        static Piece raw(String name, int... bytes) {
            byte[] out = new byte[bytes.length];
            for (int i = 0; i < bytes.length; i++) {
                out[i] = (byte) bytes[i];
            }
            return new Piece(name, out);
        }
    }

    private Mutations() {}

    /** Replacements for one JSON value. */
    static final List<Piece> VALUES = List.of(
            Piece.of("escaped NUL", "\"a\\u0000b\""),
            Piece.of("escaped SOH", "\"\\u0001\""),
            Piece.of("escaped DEL", "\"x\\u007f\""),
            Piece.of("escaped C1 NEL", "\"\\u0085\""),
            Piece.of("lone high surrogate", "\"\\ud800\""),
            Piece.of("reversed surrogates", "\"\\udfff\\ud800\""),
            Piece.of("noncharacter", "\"\\uffff\""),
            Piece.of("RTL override", "\"\\u202e1234\""),
            Piece.of("emoji", "\"\uD83D\uDE42\""),
            concat("raw 0xFF", "\"", raw(0xFF), "\""),
            concat("raw C3 28", "\"", raw(0xC3, 0x28), "\""),
            concat("overlong NUL C0 80", "\"a", raw(0xC0, 0x80), "b\""),
            concat("overlong slash C0 AF", "\"", raw(0xC0, 0xAF), "\""),
            concat("UTF-8 surrogate ED A0 80", "\"", raw(0xED, 0xA0, 0x80), "\""),
            concat("beyond U+10FFFF", "\"", raw(0xF4, 0x90, 0x80, 0x80), "\""),
            concat("raw NUL byte in string", "\"a", raw(0x00), "b\""),
            concat("raw tab in string", "\"a", raw(0x09), "b\""),
            Piece.of("Long.MAX", "9223372036854775807"),
            Piece.of("Long.MAX + 1", "9223372036854775808"),
            Piece.of("Long.MIN", "-9223372036854775808"),
            Piece.of("minus one", "-1"),
            Piece.of("zero", "0"),
            Piece.of("negative zero", "-0"),
            Piece.of("fraction", "1.5"),
            Piece.of("integral float", "100.0"),
            Piece.of("exponent", "1E2"),
            Piece.of("huge exponent", "1e400"),
            Piece.of("tiny exponent", "1e-400"),
            Piece.of("5000 digits", "9".repeat(5000)),
            Piece.of("NaN", "NaN"),
            Piece.of("Infinity", "-Infinity"),
            Piece.of("hex literal", "0x10"),
            Piece.of("true", "true"),
            Piece.of("null", "null"),
            Piece.of("empty array", "[]"),
            Piece.of("empty object", "{}"),
            Piece.of("number as string", "\"100\""),
            Piece.of("array of numbers", "[1,2]"),
            Piece.of("object", "{\"a\":1}"),
            Piece.of("empty string", "\"\""),
            Piece.of("blank string", "\"   \""),
            Piece.of("20000 chars", "\"" + "a".repeat(20_000) + "\""),
            Piece.of("300 two-byte chars", "\"" + "\u00e9".repeat(300) + "\""),
            Piece.of("card grouped", "\"4111 1111 1111 1111\""),
            Piece.of("card embedded", "\"x4111111111111111y\""),
            Piece.of("deep array", "[".repeat(300) + "]".repeat(300)),
            Piece.of("deep object", "{\"a\":".repeat(100) + "1" + "}".repeat(100)),
            Piece.of("unterminated string", "\"abc"),
            Piece.of("bare word", "abc"));

    /** Whole bodies, sent instead of a route's seed body. */
    static List<Piece> bodies(String seed) {
        List<Piece> bodies = new ArrayList<>(List.of(
                Piece.of("empty body", ""),
                Piece.of("whitespace body", " \r\n\t "),
                Piece.of("null body", "null"),
                Piece.of("array body", "[]"),
                Piece.of("string body", "\"s\""),
                Piece.of("number body", "123"),
                Piece.of("open brace", "{"),
                Piece.of("trailing garbage", seed + "x"),
                Piece.of("two objects", seed + seed),
                Piece.of("trailing comma", seed.substring(0, seed.length() - 1) + ",}"),
                Piece.of("unknown field", seed.length() > 2 ? "{\"zz_unknown\":1," + seed.substring(1) : "{\"zz\":1}"),
                Piece.of("duplicate key", duplicateFirstKey(seed)),
                Piece.of("comment", "/* c */" + seed),
                Piece.of("single quotes", seed.replace('"', '\'')),
                Piece.of("deep nesting 5000", "{\"a\":".repeat(5000) + "1" + "}".repeat(5000)),
                Piece.of("200 KB body", "{\"a\":\"" + "b".repeat(200_000) + "\"}"),
                concat("UTF-8 BOM", "", raw(0xEF, 0xBB, 0xBF), seed),
                new Piece("UTF-16LE body", seed.getBytes(StandardCharsets.UTF_16LE)),
                new Piece("UTF-16 with BOM", seed.getBytes(StandardCharsets.UTF_16)),
                concat("raw NUL before body", "", raw(0x00), seed),
                concat("binary", "", raw(0x1F, 0x8B, 0x08, 0x00, 0xFF, 0xFE, 0x00, 0x01), "")));
        return bodies;
    }

    private static String duplicateFirstKey(String seed) {
        int colon = seed.indexOf(':');
        int comma = seed.indexOf(',');
        if (colon < 0) {
            return "{\"a\":1,\"a\":1}";
        }
        String first = seed.substring(1, comma > colon ? comma : seed.length() - 1);
        return "{" + first + "," + seed.substring(1);
    }

    static final List<String> CONTENT_TYPES = List.of(
            "text/plain",
            "application/xml",
            "text/html",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json; charset=utf-16",
            "application/json; charset=bogus",
            "application/json;;;",
            "*/*",
            "application/problem+json",
            "application/merge-patch+json",
            "application/vnd.kopek+json",
            "json",
            "");

    static final List<String> QUERIES = List.of(
            "reference=%00",
            "x=%FF",
            "x=%",
            "x=%G1",
            "a=%C3%28",
            "a=%C0%80",
            "limit=-1",
            "limit=0",
            "limit=99999999999999999999",
            "limit=1.5",
            "limit=%D9%A1",
            "after=%E2%80%AE",
            "after=" + "A".repeat(200),
            "status=%C3%28",
            "status=ALL",
            "reference=" + "a".repeat(65),
            "payment_id=pay_" + "%D9%A0".repeat(32),
            "a&&&=&=",
            "type=%01",
            "date=2026-02-30",
            "date=%2B999999999-01-01",
            "reference=4111111111111111",
            "%00=1",
            "limit=1&limit=2",
            "x=" + "y".repeat(3000));

    /** Hostile values for a path variable, already percent-encoded where needed. */
    static List<String> ids(String prefix) {
        return List.of(
                prefix + "_" + "%D9%A0".repeat(32),
                prefix + "_" + "A".repeat(32),
                prefix + "_" + "0".repeat(31),
                prefix + "_" + "0".repeat(33),
                prefix + "_" + "0".repeat(32) + "%00",
                prefix + "_" + "0".repeat(32) + "%0A",
                "%2e%2e",
                "%F0%9F%99%82",
                prefix + "_%FF",
                "x;y=z",
                "%2F",
                "a".repeat(3000),
                "%EF%BC%90" + "0".repeat(31),
                prefix + "_" + "g".repeat(32),
                "-1",
                "%20");
    }

    /** Whole requests whose framing is broken; {@code %s} is the path, {@code %a} the authorization line. */
    static final List<String> FRAMES = List.of(
            "GET  %s HTTP/1.1\r\nHost: x\r\n%aConnection: close\r\n\r\n",
            "get %s HTTP/1.1\r\nHost: x\r\n%aConnection: close\r\n\r\n",
            "GET %s HTTP/1.0\r\n%a\r\n",
            "GET %s HTTP/2.0\r\nHost: x\r\n%aConnection: close\r\n\r\n",
            "GET %s HTTP/9.9\r\nHost: x\r\n%aConnection: close\r\n\r\n",
            "GET %s\r\n\r\n",
            "GET %s HTTP/1.1\nHost: x\n%aConnection: close\n\n",
            "GET %s?a=\u00ff HTTP/1.1\r\nHost: x\r\n%aConnection: close\r\n\r\n",
            "GET %s\u0000 HTTP/1.1\r\nHost: x\r\n%aConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: x\r\n%aBad Header: y\r\nConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: x\r\n%aNoColon\r\nConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: x\r\n%aX-A: a\r\n folded\r\nConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: x\r\n%aX-A: \u0085\u00ff\r\nConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: x\r\n%aX-A: a\u007fb\r\nConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: x\r\n%aIdempotency-Key: \u00d0\u00ba\r\nConnection: close\r\n\r\n",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aContent-Length: abc\r\nConnection: close\r\n\r\n",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aContent-Length: 99999999999999999999\r\nConnection: close\r\n\r\n",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
                    + "\r\n0\r\n\r\n",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n"
                    + "Idempotency-Key: k-chunk\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n"
                    + "Idempotency-Key: k-chunk2\r\nConnection: close\r\n\r\n2;ext=\u0001\r\n{}\r\n0\r\n\r\n",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aTransfer-Encoding: chunked, identity\r\nConnection: close\r\n\r\n0\r\n\r\n",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aExpect: 100-continue\r\nContent-Type: application/json\r\n"
                    + "Idempotency-Key: k-expect\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
            "POST %s HTTP/1.1\r\nHost: x\r\n%aExpect: teapot\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: x\r\n%aX-Huge: " + "h".repeat(16_000) + "\r\nConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: x\r\n%a" + "X-Many: m\r\n".repeat(200) + "Connection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: [::1\r\n%aConnection: close\r\n\r\n",
            "GET %s HTTP/1.1\r\nHost: a b\r\n%aConnection: close\r\n\r\n",
            "OPTIONS * HTTP/1.1\r\nHost: x\r\n%aConnection: close\r\n\r\n",
            "CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n%aConnection: close\r\n\r\n",
            "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003%s\r\n\r\n",
            "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

    private static byte[] raw(int... bytes) {
        return Piece.raw("", bytes).bytes();
    }

    private static Piece concat(String name, String before, byte[] middle, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(middle);
        out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return new Piece(name, out.toByteArray());
    }
}
