package dev.kopek.integration;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of Kopek that, for the first {@code drops} connections, forwards the request and waits for
 * the first byte of Kopek's answer (so Kopek has done the work), then resets the client's connection instead of
 * passing the answer on: the load balancer that loses a response. Later connections pass through.
 */
final class DroppingProxy implements AutoCloseable {

    private final ServerSocket socket;
    private final int upstreamPort;
    private final AtomicInteger drops;
    private final AtomicInteger dropped = new AtomicInteger();

    DroppingProxy(int upstreamPort, int drops) throws IOException {
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.upstreamPort = upstreamPort;
        this.drops = new AtomicInteger(drops);
        Thread.ofVirtual().start(this::accept);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    int dropped() {
        return dropped.get();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                boolean drop = drops.getAndDecrement() > 0;
                Thread.ofVirtual().start(() -> relay(client, drop));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void relay(Socket client, boolean drop) {
        try (client;
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            Thread.ofVirtual().start(() -> pump(client, upstream));
            InputStream answer = upstream.getInputStream();
            if (drop) {
                if (answer.read() >= 0) {
                    dropped.incrementAndGet();
                }
                client.setSoLinger(true, 0);
                return;
            }
            answer.transferTo(client.getOutputStream());
        } catch (IOException ignored) {
            // a closed side ends the relay
        }
    }

    private static void pump(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            in.transferTo(out);
        } catch (IOException ignored) {
            // a closed side ends the relay
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
