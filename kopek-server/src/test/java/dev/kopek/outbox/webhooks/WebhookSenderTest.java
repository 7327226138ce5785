package dev.kopek.outbox.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The delivery-time address check, through the real HTTP client, with names answered by a resolver seam instead of
 * DNS. Every listener is on 127.0.0.1; nothing here leaves the machine (a refused address is never connected to).
 */
class WebhookSenderTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Map<String, String> HEADERS = Map.of("Kopek-Signature", "t=1,v1=00");

    @Test
    void aNameResolvingToAnInternalAddressIsRefusedBeforeAnyConnection() throws Exception {
        try (CountingListener listener = new CountingListener()) {
            InetAddress mappedLoopback =
                    Inet6Address.getByAddress(null, HexFormat.of().parseHex("00000000000000000000ffff7f000001"), -1);
            Map<String, List<InetAddress>> dns = Map.of(
                    "loopback.test", List.of(InetAddress.getByName("127.0.0.1")),
                    "mapped.test", List.of(mappedLoopback),
                    "private.test", List.of(InetAddress.getByName("10.0.0.5")),
                    "metadata.test", List.of(InetAddress.getByName("169.254.169.254")),
                    "cgnat.test", List.of(InetAddress.getByName("100.64.0.1")),
                    "v6-local.test", List.of(InetAddress.getByName("fd00:ec2::254")),
                    "multicast.test", List.of(InetAddress.getByName("224.0.0.251")),
                    "unspecified.test", List.of(InetAddress.getByName("0.0.0.0")),
                    "mixed.test", List.of(InetAddress.getByName("93.184.216.34"), InetAddress.getByName("127.0.0.1")));
            try (WebhookSender sender = new WebhookSender(TIMEOUT, TIMEOUT, false, fixed(dns))) {
                for (String host : dns.keySet()) {
                    WebhookSender.Result result =
                            sender.post("https://" + host + ":" + listener.port() + "/h", "{}", HEADERS);
                    assertThat(result.responseCode()).as(host).isNull();
                    assertThat(result.error()).as(host).startsWith("refused: " + host + " resolves to ");
                }
                WebhookSender.Result literal =
                        sender.post("https://127.0.0.1:" + listener.port() + "/h", "{}", HEADERS);
                assertThat(literal.error()).startsWith("refused:");
                WebhookSender.Result plain = sender.post("http://127.0.0.1:" + listener.port() + "/h", "{}", HEADERS);
                assertThat(plain.error()).contains("https only");
            }
            assertThat(listener.accepted())
                    .as("connections made to the listener")
                    .isZero();
        }
    }

    @Test
    void plainHttpReachesLoopbackOnlyWhereAllowedAndCarriesTheName() throws Exception {
        try (Receiver receiver = new Receiver(200)) {
            Map<String, List<InetAddress>> dns = Map.of(
                    "receiver.test", List.of(InetAddress.getByName("127.0.0.1")),
                    "private.test", List.of(InetAddress.getByName("192.168.1.20")));
            try (WebhookSender sender = new WebhookSender(TIMEOUT, TIMEOUT, true, fixed(dns))) {
                WebhookSender.Result delivered =
                        sender.post("http://receiver.test:" + receiver.port() + "/h", "{\"a\":1}", HEADERS);
                assertThat(delivered.succeeded())
                        .as(String.valueOf(delivered.error()))
                        .isTrue();
                assertThat(receiver.hosts()).containsExactly("receiver.test:" + receiver.port());

                assertThat(sender.post("http://private.test:" + receiver.port() + "/h", "{}", HEADERS)
                                .error())
                        .startsWith("refused: private.test resolves to");
                assertThat(sender.post("https://private.test:" + receiver.port() + "/h", "{}", HEADERS)
                                .error())
                        .as("demo mode opens loopback, nothing else")
                        .startsWith("refused:");
            }
            assertThat(receiver.hosts()).hasSize(1);
        }
    }

    @Test
    void aNameThatChangesItsAnswerIsCheckedOnEveryResolutionAndConnectedWhereChecked() throws Exception {
        try (Receiver receiver = new Receiver(200)) {
            AtomicInteger lookups = new AtomicInteger();
            WebhookSender.HostResolver rebinding = host -> new InetAddress[] {
                InetAddress.getByName(lookups.incrementAndGet() == 1 ? "127.0.0.1" : "169.254.169.254")
            };
            Map<String, String> closeEach = Map.of("Connection", "close");
            try (WebhookSender sender = new WebhookSender(TIMEOUT, TIMEOUT, true, rebinding)) {
                String url = "http://rebind.test:" + receiver.port() + "/h";
                assertThat(sender.post(url, "{}", closeEach).succeeded()).isTrue();
                assertThat(lookups)
                        .as("resolved once for the connection it used")
                        .hasValue(1);

                WebhookSender.Result second = sender.post(url, "{}", closeEach);
                assertThat(lookups).hasValue(2);
                assertThat(second.error()).startsWith("refused: rebind.test resolves to link-local or cloud metadata");
            }
            assertThat(receiver.hosts()).hasSize(1);
        }
    }

    @Test
    void aRedirectIsNotFollowed() throws Exception {
        try (Receiver target = new Receiver(200);
                Receiver mover = new Receiver(302)) {
            mover.location("http://127.0.0.1:" + target.port() + "/elsewhere");
            try (WebhookSender sender = new WebhookSender(
                    TIMEOUT, TIMEOUT, true, fixed(Map.of("mover.test", List.of(InetAddress.getByName("127.0.0.1")))))) {
                WebhookSender.Result result = sender.post("http://mover.test:" + mover.port() + "/h", "{}", HEADERS);
                assertThat(result.responseCode()).isEqualTo(302);
                assertThat(result.succeeded()).isFalse();
            }
            assertThat(mover.hosts()).hasSize(1);
            assertThat(target.hosts()).as("the redirect's target").isEmpty();
        }
    }

    private static WebhookSender.HostResolver fixed(Map<String, List<InetAddress>> dns) {
        return host -> {
            List<InetAddress> addresses = dns.get(host);
            if (addresses == null) {
                // Address literals are parsed, never looked up; any other name is unknown here.
                if (host.matches("[0-9.]+|[0-9a-fA-F:]+")) {
                    return new InetAddress[] {InetAddress.getByName(host)};
                }
                throw new UnknownHostException(host);
            }
            return addresses.toArray(InetAddress[]::new);
        };
    }

    /** Accepts TCP connections on 127.0.0.1 and counts them; answers nothing. */
    private static final class CountingListener implements AutoCloseable {
        private final ServerSocket socket;
        private final AtomicInteger accepted = new AtomicInteger();

        @SuppressWarnings("try") // the accepted socket is only closed
        CountingListener() throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
            Thread.ofVirtual().start(() -> {
                while (!socket.isClosed()) {
                    try (Socket ignored = socket.accept()) {
                        accepted.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
        }

        int port() {
            return socket.getLocalPort();
        }

        int accepted() {
            return accepted.get();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** An HTTP receiver on 127.0.0.1 that records the Host header of every request. */
    private static final class Receiver implements AutoCloseable {
        private final HttpServer server;
        private final List<String> hosts = new CopyOnWriteArrayList<>();
        private volatile String location;

        Receiver(int status) throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                hosts.add(exchange.getRequestHeaders().getFirst("Host"));
                if (location != null) {
                    exchange.getResponseHeaders().add("Location", location);
                }
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            server.start();
        }

        void location(String url) {
            this.location = url;
        }

        int port() {
            return server.getAddress().getPort();
        }

        List<String> hosts() {
            return hosts;
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
