package dev.kopek.access.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 exchange written byte for byte on a socket, so the request target reaches the server exactly as
 * spelled ({@code ;x}, {@code %2F}, {@code //}, dot segments, absolute form): an HTTP client library would
 * normalise or refuse some of these before sending.
 */
record RawRequest(String method, String target, String bearer, String body) {

    record Answer(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public String toString() {
            return status + " " + headers.get("content-type") + " " + body;
        }
    }

    Answer send(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder()
                    .append(method)
                    .append(' ')
                    .append(target)
                    .append(" HTTP/1.1\r\n")
                    .append("Host: 127.0.0.1:")
                    .append(port)
                    .append("\r\nConnection: close\r\n")
                    .append("Idempotency-Key: ")
                    .append(java.util.UUID.randomUUID())
                    .append("\r\n");
            if (bearer != null) {
                head.append("Authorization: Bearer ").append(bearer).append("\r\n");
            }
            if (body != null) {
                head.append("Content-Type: application/json\r\nContent-Length: ")
                        .append(payload.length)
                        .append("\r\n");
            }
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(payload);
            out.flush();
            return parse(readAll(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + target, e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        return all.toByteArray();
    }

    private static Answer parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String[] lines = (end < 0 ? text : text.substring(0, end)).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        String body = end < 0 ? "" : new String(raw, end + 4, raw.length - end - 4, StandardCharsets.UTF_8);
        return new Answer(status, headers, body);
    }
}
