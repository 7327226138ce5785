package dev.kopek.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.client.KopekApiException;
import dev.kopek.client.KopekClient;
import dev.kopek.client.NewPayment;
import dev.kopek.client.OperationKey;
import dev.kopek.client.Payment;
import dev.kopek.client.Refund;
import dev.kopek.client.RetryPolicy;
import dev.kopek.client.WebhookDelivery;
import dev.kopek.client.WebhookEndpoint;
import dev.kopek.support.Api;
import dev.kopek.support.ApiContract;
import dev.kopek.support.IntegrationTest;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * kopek-client covers every merchant route: each method of the client is called once against a real Kopek, the
 * requests it sends are recorded, and every operation the API document gives the merchant audience must have been
 * sent by one of them. A merchant route added to Kopek fails this test until the client has a method for it (and
 * the method is called here).
 */
class KopekClientRoutesTest extends IntegrationTest {

    @Test
    void everyMerchantRouteHasAClientMethod() {
        RecordingHttpClient http = new RecordingHttpClient();
        var merchant = merchants.create("Routes merchant " + Api.unique("m"));
        KopekClient kopek = KopekClient.builder(
                        baseUri(), merchants.issueKey(merchant.id()).secret())
                .retryPolicy(new RetryPolicy(Duration.ofSeconds(20), Duration.ofMillis(20), Duration.ofMillis(200), 8))
                .httpClient(http)
                .build();

        callEveryMethod(kopek);

        ApiContract document = ApiContract.of(baseUri());
        Set<String> merchantRoutes = merchantRoutes(document.document());
        assertThat(merchantRoutes).hasSizeGreaterThan(15);
        Set<String> sent = new TreeSet<>();
        http.sent()
                .forEach(request -> document.template(request.uri().getPath())
                        .ifPresent(template -> sent.add(request.method() + " " + template)));
        Set<String> missing = new TreeSet<>(merchantRoutes);
        missing.removeAll(sent);
        assertThat(missing)
                .as("merchant routes no kopek-client method sends (add one to KopekClient and call it " + "here)")
                .isEmpty();
    }

    private static void callEveryMethod(KopekClient kopek) {
        String reference = Api.unique("order");
        Payment paid = kopek.createPayment(
                        OperationKey.of(reference + "/pay"), NewPayment.of(reference, 2_000, "EUR", "pm_ok"))
                .value();
        kopek.payment(paid.id());
        kopek.paymentsByReference(reference);
        kopek.awaitPayment(paid.id(), Duration.ofSeconds(5));
        Refund refund = kopek.refund(OperationKey.of(reference + "/refund"), paid.id(), 500, null)
                .value();
        kopek.getRefund(refund.id());
        kopek.awaitRefund(refund.id(), Duration.ofMillis(300));
        kopek.refunds(paid.id());

        String held = Api.unique("order");
        Payment authorized = kopek.createPayment(
                        OperationKey.of(held + "/pay"),
                        NewPayment.of(held, 1_000, "EUR", "pm_ok").withManualCapture())
                .value();
        kopek.capture(OperationKey.of(held + "/capture"), authorized.id(), null, true);
        String voided = Api.unique("order");
        kopek.voidPayment(
                OperationKey.of(voided + "/void"),
                kopek.createPayment(
                                OperationKey.of(voided + "/pay"),
                                NewPayment.of(voided, 1_000, "EUR", "pm_ok").withManualCapture())
                        .value()
                        .id());

        kopek.events(null, 10);
        kopek.balance();
        var journal = kopek.ledgerTransactions(paid.id(), null, 10).data();
        kopek.ledgerTransaction(journal.getFirst().id());

        WebhookEndpoint endpoint = kopek.createWebhookEndpoint(
                        OperationKey.generate(), "https://hooks.example.test/kopek", List.of("*"))
                .value();
        kopek.webhookEndpoints();
        kopek.webhookEndpoint(endpoint.id());
        String again = Api.unique("order");
        kopek.createPayment(OperationKey.of(again + "/pay"), NewPayment.of(again, 300, "EUR", "pm_ok"));
        List<WebhookDelivery> deliveries = kopek.deliveries(endpoint.id(), 10);
        kopek.delivery(endpoint.id(), deliveries.getFirst().id());
        try {
            kopek.redeliver(
                    OperationKey.generate(),
                    endpoint.id(),
                    deliveries.getFirst().id());
        } catch (KopekApiException refused) {
            // An answer of the route all the same (the delivery may be in flight): the route was sent.
        }
        kopek.deleteWebhookEndpoint(endpoint.id());
    }

    /** Every operation of the merchant audience in the served document, as "METHOD template". */
    private static Set<String> merchantRoutes(JsonNode document) {
        Set<String> routes = new TreeSet<>();
        document.path("paths")
                .properties()
                .forEach(path -> path.getValue().properties().forEach(operation -> {
                    if ("merchant"
                            .equals(operation.getValue().path("x-audience").asString(""))) {
                        routes.add(operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey());
                    }
                }));
        return routes;
    }

    /** The JDK client, recording every request it is given. */
    private static final class RecordingHttpClient extends HttpClient {

        private final HttpClient delegate = HttpClient.newBuilder()
                .version(Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        private final List<HttpRequest> sent = new CopyOnWriteArrayList<>();

        List<HttpRequest> sent() {
            return new ArrayList<>(sent);
        }

        @Override
        public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
                throws IOException, InterruptedException {
            sent.add(request);
            return delegate.send(request, handler);
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(
                HttpRequest request, HttpResponse.BodyHandler<T> handler) {
            sent.add(request);
            return delegate.sendAsync(request, handler);
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(
                HttpRequest request, HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> promises) {
            sent.add(request);
            return delegate.sendAsync(request, handler, promises);
        }

        @Override
        public Optional<CookieHandler> cookieHandler() {
            return delegate.cookieHandler();
        }

        @Override
        public Optional<Duration> connectTimeout() {
            return delegate.connectTimeout();
        }

        @Override
        public Redirect followRedirects() {
            return delegate.followRedirects();
        }

        @Override
        public Optional<ProxySelector> proxy() {
            return delegate.proxy();
        }

        @Override
        public SSLContext sslContext() {
            return delegate.sslContext();
        }

        @Override
        public SSLParameters sslParameters() {
            return delegate.sslParameters();
        }

        @Override
        public Optional<Authenticator> authenticator() {
            return delegate.authenticator();
        }

        @Override
        public Version version() {
            return delegate.version();
        }

        @Override
        public Optional<Executor> executor() {
            return delegate.executor();
        }
    }
}
