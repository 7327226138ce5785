package dev.kopek.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** A port the OS reports free now; a process restarted after kill -9 keeps its port, so it is chosen once. */
final class Ports {

    /** Below Linux's ephemeral range (32768–60999), where no outgoing connection takes a port meanwhile. */
    private static final int FIXED_LOW = 20_000;

    private static final int FIXED_HIGH = 32_000;

    /**
     * Every fixed port handed out in this run: a port is free when it is checked but stays free until its member
     * binds it, so two calls must not both draw it (broker 1's listener and broker 2's controller once did).
     */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private Ports() {}

    /**
     * A free port for a cluster member whose peers are told it before it starts (a Kafka voter, a Patroni node)
     * and which must get it back when restarted: chosen outside the ephemeral range, since a port the OS hands
     * out as free there may be an outgoing connection's by the time the member binds it.
     */
    static int fixed() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(FIXED_LOW, FIXED_HIGH);
            if (HANDED_OUT.contains(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return port;
                }
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new IllegalStateException("no free port between " + FIXED_LOW + " and " + FIXED_HIGH);
    }

    static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
