package dev.kopek.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A scripted HTTP/1.1 server on a raw socket: each request gets the next scripted answer, and an answer may be a
 * dropped connection (the client sees a reset after the server read the request) or a held one (read, never
 * answered). Records every request.
 */
final class StubServer implements AutoCloseable {

    record Seen(String method, String path, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private record Scripted(int status, Map<String, String> headers, String body) {
        boolean dropped() {
            return status == 0;
        }

        boolean held() {
            return status == -1;
        }
    }

    private final ServerSocket socket;
    private final Deque<Scripted> script = new ArrayDeque<>();
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private final Thread acceptor;
    private final CountDownLatch closed = new CountDownLatch(1);

    StubServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().start(this::serve);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    StubServer answer(int status, String body, String... headerPairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1]);
        }
        synchronized (script) {
            script.add(new Scripted(status, headers, body));
        }
        return this;
    }

    StubServer drop() {
        synchronized (script) {
            script.add(new Scripted(0, Map.of(), ""));
        }
        return this;
    }

    /** The next request is read and never answered: the connection stays open until the stub closes. */
    StubServer hold() {
        synchronized (script) {
            script.add(new Scripted(-1, Map.of(), ""));
        }
        return this;
    }

    List<Seen> requests() {
        return List.copyOf(seen);
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket connection = socket.accept()) {
                handle(connection);
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void handle(Socket connection) throws IOException {
        BufferedReader in =
                new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8));
        String requestLine = in.readLine();
        if (requestLine == null) {
            return;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            int colon = line.indexOf(':');
            headers.put(
                    line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    line.substring(colon + 1).trim());
        }
        char[] body = new char[Integer.parseInt(headers.getOrDefault("content-length", "0"))];
        int read = 0;
        while (read < body.length) {
            read += in.read(body, read, body.length - read);
        }
        String[] parts = requestLine.split(" ");
        seen.add(new Seen(parts[0], parts[1], headers, new String(body)));
        Scripted next;
        synchronized (script) {
            next = script.isEmpty() ? new Scripted(500, Map.of(), "{\"code\":\"unscripted\"}") : script.poll();
        }
        if (next.dropped()) {
            return;
        }
        if (next.held()) {
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        byte[] bytes = next.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("HTTP/1.1 " + next.status() + " X\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n");
        next.headers()
                .forEach((name, value) ->
                        head.append(name).append(": ").append(value).append("\r\n"));
        OutputStream out = connection.getOutputStream();
        out.write(head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
        out.write(bytes);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        socket.close();
        acceptor.interrupt();
    }
}
