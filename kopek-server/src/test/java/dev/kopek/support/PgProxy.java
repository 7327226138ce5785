package dev.kopek.support;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy in front of PostgreSQL that a test steers, speaking just enough of the wire protocol to cut a
 * connection at the worst moment: right after the server ended a transaction (its ReadyForQuery says idle again), so
 * the COMMIT happened and the client never learns it — the "commit happened, answer lost" of a failover. It also
 * plays the failover itself: {@link #cutAll} drops every connection, {@link #refuse} turns new ones away while no
 * server is there, and {@link #target} sends new connections to another server (the promoted standby).
 *
 * <p>Clients connect with {@code sslmode=disable}; startup messages are passed through unread.
 */
public final class PgProxy implements AutoCloseable {

    private static final int SSL_REQUEST = 80877103;
    private static final int GSS_REQUEST = 80877104;

    private final ServerSocket listener;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Armed> armed = new AtomicReference<>();
    private volatile int targetPort;
    private volatile boolean refusing;

    /** A cut waiting for the first statement whose text contains {@code marker}. */
    private record Armed(byte[] marker, CompletableFuture<Void> cut) {}

    public PgProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("pg-proxy-accept").start(this::accept);
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** A JDBC URL for {@code database} through the proxy. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + database + "?sslmode=disable&gssEncMode=disable";
    }

    /** New connections go to the server on {@code port} from now on. */
    public void target(int port) {
        this.targetPort = port;
    }

    /** While refusing, a new connection is closed at once, as by a host whose server is down. */
    public void refuse(boolean refuse) {
        this.refusing = refuse;
    }

    /** Drops every open connection, both ways, as the death of the server's machine does. */
    public void cutAll() {
        links.forEach(Link::close);
    }

    /**
     * Arms one cut: the connection that next sends a statement containing {@code marker} is dropped when the
     * server has ended that statement's transaction (committed it, in autocommit or at COMMIT), before the client
     * reads that the transaction is over. The future completes when the cut happened.
     */
    public CompletableFuture<Void> cutAfterCommitOf(String marker) {
        Armed next = new Armed(marker.getBytes(StandardCharsets.UTF_8), new CompletableFuture<>());
        if (!armed.compareAndSet(null, next)) {
            throw new IllegalStateException("a cut is armed already");
        }
        return next.cut();
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            if (refusing) {
                closeQuietly(client);
                continue;
            }
            try {
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                // Each message goes out as soon as it is whole: with Nagle's algorithm a small message waits for the
                // peer's delayed acknowledgement (40 ms on Linux), and a migration's hundreds of round trips took
                // seconds through the proxy.
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Link link = new Link(client, server);
                links.add(link);
                Thread.ofVirtual().name("pg-proxy-up").start(link::clientToServer);
                Thread.ofVirtual().name("pg-proxy-down").start(link::serverToClient);
            } catch (IOException e) {
                closeQuietly(client); // no server there: the client sees a refused connection
            }
        }
    }

    /** One client's connection and the proxy's own to the server. */
    private final class Link {

        private final Socket client;
        private final Socket server;
        private volatile Armed doomedBy;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void clientToServer() {
            try (DataInputStream in = new DataInputStream(client.getInputStream())) {
                OutputStream out = server.getOutputStream();
                int code;
                do { // untyped startup messages: an SSL or GSS request, then the startup message
                    int length = in.readInt();
                    byte[] rest = new byte[length - 4];
                    in.readFully(rest);
                    code = rest.length >= 4
                            ? ((rest[0] & 0xff) << 24)
                                    | ((rest[1] & 0xff) << 16)
                                    | ((rest[2] & 0xff) << 8)
                                    | (rest[3] & 0xff)
                            : 0;
                    out.write(
                            ByteBuffer.allocate(length).putInt(length).put(rest).array());
                    out.flush();
                } while (code == SSL_REQUEST || code == GSS_REQUEST);
                while (true) {
                    int type = in.readUnsignedByte();
                    int length = in.readInt();
                    byte[] body = new byte[length - 4];
                    in.readFully(body);
                    if ((type == 'Q' || type == 'P') && doomedBy == null) {
                        Armed a = armed.get();
                        if (a != null && contains(body, a.marker()) && armed.compareAndSet(a, null)) {
                            doomedBy = a;
                        }
                    }
                    forward(out, type, body);
                }
            } catch (IOException e) {
                close();
            }
        }

        void serverToClient() {
            try (DataInputStream in = new DataInputStream(server.getInputStream())) {
                OutputStream out = client.getOutputStream();
                boolean started = false;
                while (true) {
                    int type = in.readUnsignedByte();
                    if (!started && (type == 'N' || type == 'S' || type == 'G')) {
                        out.write(type); // the one-byte answer to an SSL or GSS request
                        out.flush();
                        continue;
                    }
                    started = true;
                    int length = in.readInt();
                    byte[] body = new byte[length - 4];
                    in.readFully(body);
                    Armed doom = doomedBy;
                    if (doom != null && type == 'Z' && body.length == 1 && body[0] == 'I') {
                        close(); // the transaction is over on the server; the client never hears it
                        doom.cut().complete(null);
                        return;
                    }
                    forward(out, type, body);
                }
            } catch (IOException e) {
                close();
            }
        }

        void close() {
            links.remove(this);
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    /** One typed message of the protocol, in one write: its type byte, its length (which counts itself), its body. */
    private static void forward(OutputStream out, int type, byte[] body) throws IOException {
        out.write(ByteBuffer.allocate(1 + 4 + body.length)
                .put((byte) type)
                .putInt(body.length + 4)
                .put(body)
                .array());
        out.flush();
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that is wanted
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // the links are closed below either way
        }
        cutAll();
    }
}
