package dev.kopek.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Bytes on a socket, the way a stranger (or a broken proxy) talks to Kopek: nothing is checked or fixed on the
 * way out. The answer is read until the server closes the connection.
 */
public final class RawHttp {

    private static final int TIMEOUT_MILLIS = 10_000;

    private RawHttp() {}

    /** One parsed answer; {@code status} is 0 when the server closed without answering. */
    public record Answer(int status, Map<String, String> headers, String body) {

        public String contentType() {
            return headers.getOrDefault("content-type", "");
        }

        public boolean isProblem() {
            return contentType().startsWith("application/problem+json");
        }

        public String code() {
            try {
                JsonNode code = Api.JSON.readTree(body).get("code");
                return code == null || !code.isString() ? null : code.stringValue();
            } catch (RuntimeException e) {
                return null;
            }
        }
    }

    public static Answer send(int port, byte[] request) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // The server may refuse and close before it read everything; its answer is still there to read.
            }
            return parse(readAll(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Answer send(int port, String request) {
        return send(port, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                bytes.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException | java.net.SocketException e) {
            // What arrived before the timeout or reset is the answer.
        }
        return bytes.toByteArray();
    }

    static Answer parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || end < 0) {
            return new Answer(0, Map.of(), text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.putIfAbsent(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < chunked.length) {
            int lineEnd = indexOf(chunked, at);
            if (lineEnd < 0) {
                break;
            }
            String size = new String(chunked, at, lineEnd - at, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int length;
            try {
                length = Integer.parseInt(size, 16);
            } catch (NumberFormatException e) {
                break;
            }
            if (length == 0) {
                break;
            }
            int start = lineEnd + 2;
            out.write(chunked, start, Math.min(length, chunked.length - start));
            at = start + length + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
