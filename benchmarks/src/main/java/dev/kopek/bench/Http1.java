package dev.kopek.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The load driver's HTTP/1.1 client: keep-alive sockets in a pool, one blocking request at a time on each, nothing
 * else. The driver shares the 2 cores with what it measures, so it should cost about what pgbench costs Script A; the
 * JDK's {@code HttpClient} cost the driver 0.24–0.56 ms of CPU per payment (benchmarks/README.md), this about a third.
 */
final class Http1 implements AutoCloseable {

    /** A status and a body, as Kopek answered. */
    record Answer(int status, String body) {}

    private static final int MAX_HEADER_BYTES = 16 * 1024;
    private static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    private final InetSocketAddress address;
    private final String host;
    private final int timeoutMillis;
    private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();

    Http1(URI base, Duration timeout) {
        this.address = new InetSocketAddress(base.getHost(), base.getPort());
        this.host = base.getHost() + ":" + base.getPort();
        this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    /** POSTs a JSON body with the given extra header lines ("Name: value"); the answer or an IOException. */
    Answer post(String path, String body, String... headers) throws IOException {
        return exchange("POST", path, body, headers);
    }

    /** GETs a path with the given extra header lines; the mixed workload polls its refunds with it. */
    Answer get(String path, String... headers) throws IOException {
        return exchange("GET", path, null, headers);
    }

    private Answer exchange(String method, String path, String body, String... headers) throws IOException {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(256)
                .append(method)
                .append(' ')
                .append(path)
                .append(" HTTP/1.1\r\nHost: ")
                .append(host)
                .append("\r\n");
        if (body != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ")
                    .append(content.length)
                    .append("\r\n");
        }
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        head.append("\r\n");
        Connection c = idle.poll();
        if (c == null) {
            c = new Connection(address, timeoutMillis);
        }
        try {
            Answer answer = c.exchange(head.toString().getBytes(StandardCharsets.US_ASCII), content);
            if (c.reusable) {
                idle.add(c);
            } else {
                c.close();
            }
            return answer;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public void close() {
        Connection c;
        while ((c = idle.poll()) != null) {
            c.close();
        }
    }

    private static final class Connection {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private boolean reusable = true;

        Connection(InetSocketAddress address, int timeoutMillis) throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(address, timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            in = new BufferedInputStream(socket.getInputStream(), 8192);
            out = socket.getOutputStream();
        }

        Answer exchange(byte[] head, byte[] content) throws IOException {
            byte[] request = new byte[head.length + content.length];
            System.arraycopy(head, 0, request, 0, head.length);
            System.arraycopy(content, 0, request, head.length, content.length);
            out.write(request);
            out.flush();
            String statusLine = line();
            if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
                throw new IOException("not an HTTP/1.1 status line: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "transfer-encoding" ->
                        chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                    case "connection" -> reusable &= !value.equalsIgnoreCase("close");
                    default -> {
                        // not needed
                    }
                }
            }
            byte[] body = chunked ? chunked() : length >= 0 ? exactly(length) : untilClose();
            return new Answer(status, new String(body, StandardCharsets.UTF_8));
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder(64);
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("connection closed in the middle of an answer");
                }
                if (b != '\r') {
                    sb.append((char) b);
                }
                if (sb.length() > MAX_HEADER_BYTES) {
                    throw new IOException("header line too long");
                }
            }
            return sb.toString();
        }

        private byte[] exactly(long length) throws IOException {
            if (length > MAX_BODY_BYTES) {
                throw new IOException("body of " + length + " bytes");
            }
            byte[] body = in.readNBytes((int) length);
            if (body.length != length) {
                throw new IOException("connection closed after " + body.length + " of " + length + " bytes");
            }
            return body;
        }

        private byte[] chunked() throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream(1024);
            for (long size = Long.parseLong(line().split(";")[0].trim(), 16);
                    size > 0;
                    size = Long.parseLong(line().split(";")[0].trim(), 16)) {
                if (body.size() + size > MAX_BODY_BYTES) {
                    throw new IOException("chunked body too large");
                }
                body.writeBytes(exactly(size));
                line();
            }
            for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                // trailers are not used
            }
            return body.toByteArray();
        }

        private byte[] untilClose() throws IOException {
            reusable = false;
            return in.readNBytes(MAX_BODY_BYTES);
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a socket that failed is all that is left to do
            }
        }
    }
}
