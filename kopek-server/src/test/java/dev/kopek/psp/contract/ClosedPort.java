package dev.kopek.psp.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;

/** A loopback address where nothing listens: a port the system handed out and that was closed at once. */
public final class ClosedPort {

    private ClosedPort() {}

    public static URI uri() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
