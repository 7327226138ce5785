package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.kopek.client.Event;
import dev.kopek.client.KopekClient;
import dev.kopek.client.NewPayment;
import dev.kopek.client.OperationKey;
import dev.kopek.client.WebhookDelivery;
import dev.kopek.client.WebhookEndpoint;
import dev.kopek.client.Webhooks;
import dev.kopek.support.Api;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The webhook receiver docs/integrating.md shows, run against a real Kopek: its code is {@link ShopWebhooks#start},
 * word for word the page's (this test fails when they differ), so the page's code compiles. It verifies each delivery
 * with kopek-client's {@link Webhooks}, handles an event once however often it comes, answers at once, and refuses
 * a body Kopek did not sign.
 */
class WebhookReceiverExampleTest extends OutboxIntegrationTest {

    private static final Path SOURCE = Path.of("src/test/java/dev/kopek/outbox/WebhookReceiverExampleTest.java");
    private static final Path PAGE = Path.of("../docs/integrating.md");

    /** A shop's receiver: what it does with an event is {@code handle}, after the answer has gone. */
    static final class ShopWebhooks {

        private final List<String> secrets;
        private final Consumer<Event> handle;
        private final Clock clock;

        ShopWebhooks(List<String> secrets, Consumer<Event> handle, Clock clock) {
            this.secrets = secrets;
            this.handle = handle;
            this.clock = clock;
        }

        // docs/integrating.md: webhook receiver
        HttpServer start(int port) throws IOException {
            Set<String> seen = ConcurrentHashMap.newKeySet(); // in production: a table, unique on the id
            ExecutorService work = Executors.newVirtualThreadPerTaskExecutor();
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
            server.createContext("/kopek/webhooks", exchange -> {
                byte[] raw = exchange.getRequestBody().readAllBytes(); // the raw bytes: the signature covers them
                int status = 200;
                try {
                    Event event = Webhooks.receive(
                            secrets, exchange.getRequestHeaders().getFirst("Kopek-Signature"), raw, clock.instant());
                    if (seen.add(event.id())) { // at least once: a copy has the same id
                        work.submit(() -> handle.accept(event)); // the work runs after the answer
                    }
                } catch (Webhooks.VerificationFailed refused) {
                    status = 400; // not signed by Kopek, or too old
                }
                exchange.sendResponseHeaders(status, -1); // answer at once, or Kopek retries
                exchange.close();
            });
            server.start();
            return server;
        }
        // docs/integrating.md: end
    }

    @Test
    void theReadmesReceiverHandlesEachEventOnceAndRefusesWhatKopekDidNotSign() throws Exception {
        var merchant = merchants.create("Receiver merchant " + Api.unique("m"));
        KopekClient kopek = KopekClient.builder(
                        baseUri(), merchants.issueKey(merchant.id()).secret())
                .build();
        BlockingQueue<Event> handled = new LinkedBlockingQueue<>();
        List<String> secrets = new CopyOnWriteArrayList<>();
        HttpServer server = new ShopWebhooks(secrets, handled::add, clock).start(0);
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/kopek/webhooks";
            WebhookEndpoint endpoint = kopek.createWebhookEndpoint(
                            OperationKey.generate(), url, List.of("payment.captured"))
                    .value();
            secrets.add(endpoint.secret());
            String reference = Api.unique("order");
            String payment = kopek.createPayment(
                            OperationKey.of(reference + "/pay"), NewPayment.of(reference, 1_500, "EUR", "pm_ok"))
                    .value()
                    .id();

            deliverAllDue();
            Event captured = handled.poll(10, TimeUnit.SECONDS);
            assertThat(captured).isNotNull();
            assertThat(captured.type()).isEqualTo("payment.captured");
            assertThat(captured.resource().id()).isEqualTo(payment);

            WebhookDelivery delivery = kopek.deliveries(endpoint.id(), 10).getFirst();
            assertThat(delivery.status()).as("answered 2xx").isEqualTo("succeeded");
            kopek.redeliver(OperationKey.generate(), endpoint.id(), delivery.id());
            deliverAllDue();
            assertThat(kopek.delivery(endpoint.id(), delivery.id()).attempts())
                    .as("the copy arrived and was answered")
                    .isEqualTo(2);
            assertThat(handled.poll(500, TimeUnit.MILLISECONDS))
                    .as("the copy has the same id: not handled again")
                    .isNull();

            HttpResponse<String> forged = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .header(
                                            "Kopek-Signature",
                                            "t=" + clock.instant().getEpochSecond() + ",v1=00")
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"evt_forged\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(forged.statusCode()).isEqualTo(400);
            assertThat(handled).isEmpty();
        } finally {
            server.stop(0);
        }
    }

    @Test
    void theIntegrationPageShowsThisReceiverWordForWord() throws IOException {
        List<String> lines = Files.readAllLines(SOURCE);
        int from = lines.indexOf("        // docs/integrating.md: webhook receiver");
        int to = lines.indexOf("        // docs/integrating.md: end");
        assertThat(from).isPositive();
        assertThat(to).isGreaterThan(from);
        StringBuilder snippet = new StringBuilder();
        for (String line : lines.subList(from + 1, to)) {
            snippet.append(line.length() >= 8 ? line.substring(8) : line.strip())
                    .append('\n');
        }
        assertThat(page()).contains("```java\n" + snippet + "```");
    }

    private static String page() {
        try {
            return Files.readString(PAGE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void deliverAllDue() {
        for (int pass = 0; pass < 100 && deliveries.deliverDue() > 0; pass++) {
            // again: a pass takes at most a batch
        }
    }
}
