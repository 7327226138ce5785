package dev.kopek.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kopek's merchant API for Java. Every state-changing call takes the {@link OperationKey} of its logical operation
 * and sends that key on every try; retries happen only where the answer is "not finished yet" (see
 * {@link Transport}), inside the {@link RetryPolicy}'s budget. Thread-safe; build one per API key and share it.
 *
 * <pre>{@code
 * KopekClient kopek = KopekClient.builder(URI.create("http://127.0.0.1:8080"), apiKey).build();
 * Result<Payment> paid = kopek.createPayment(OperationKey.of("order-1001/pay"),
 *         NewPayment.of("order-1001", 499000, "RUB", "pm_ok"));
 * Payment payment = paid instanceof Result.Pending<Payment> p ? kopek.awaitPayment(p.value().id(),
 *         Duration.ofMinutes(2)).payment() : paid.value();
 * }</pre>
 */
public final class KopekClient {

    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            // Fields a newer Kopek adds are ignored, and fields an older one lacks read as zero or null, so the
            // client and the server can be upgraded in either order.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
            .build();

    private static final Duration MAX_POLL = Duration.ofSeconds(5);

    private final Transport transport;
    private final RetryPolicy retry;
    private final Clock clock;
    private final Pause pause;

    private KopekClient(Builder builder) {
        HttpClient http = builder.http != null
                ? builder.http
                : HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
        this.retry = builder.retry;
        this.clock = builder.clock;
        this.pause = builder.pause;
        this.transport = new Transport(
                http,
                builder.base,
                builder.apiKey,
                builder.retry,
                builder.requestTimeout,
                builder.clock,
                JSON,
                builder.pause);
    }

    public static Builder builder(URI base, String apiKey) {
        return new Builder(base, apiKey);
    }

    // ---- payments

    /** {@code POST /v1/payments}: 201 → {@link Result.Done}; 202 processing → {@link Result.Pending}. */
    public Result<Payment> createPayment(OperationKey key, NewPayment payment) {
        return paymentResult(transport.exchange("POST", "/v1/payments", write(payment.body()), required(key)));
    }

    /** Captures {@code amount} (null: all that remains); {@code finalCapture} releases the rest. */
    public Result<Payment> capture(OperationKey key, String paymentId, Long amount, boolean finalCapture) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (amount != null) {
            body.put("amount", amount);
        }
        if (finalCapture) {
            body.put("final", true);
        }
        return paymentResult(transport.exchange(
                "POST", "/v1/payments/" + segment(paymentId) + "/capture", write(body), required(key)));
    }

    public Result<Payment> voidPayment(OperationKey key, String paymentId) {
        return paymentResult(
                transport.exchange("POST", "/v1/payments/" + segment(paymentId) + "/void", "{}", required(key)));
    }

    public Payment payment(String paymentId) {
        return payment(paymentId, retry.totalBudget());
    }

    private Payment payment(String paymentId, Duration budget) {
        return read(
                transport
                        .exchange("GET", "/v1/payments/" + segment(paymentId), null, null, budget)
                        .body(),
                Payment.class);
    }

    /** Every attempt for the intent, newest first. */
    public List<Payment> paymentsByReference(String reference) {
        return list(
                        transport
                                .exchange("GET", "/v1/payments?reference=" + query(reference), null, null)
                                .body(),
                        new TypeReference<Page<Payment>>() {})
                .data();
    }

    /**
     * Polls the payment while it is {@code processing}, until {@code timeout} passes; no read runs past it. A payment
     * that {@code requires_action} is answered at once as {@link Awaited.ActionRequired}: polling cannot end it, only
     * the customer can. On timeout the answer is {@link Awaited.StillProcessing}: Kopek keeps resolving it.
     */
    public Awaited awaitPayment(String paymentId, Duration timeout) {
        Payment seen = poll(timeout, budget -> payment(paymentId, budget), Payment::isProcessing);
        if (seen.requiresAction()) {
            return new Awaited.ActionRequired(seen, seen.nextAction());
        }
        return seen.isProcessing() ? new Awaited.StillProcessing(seen) : new Awaited.Known(seen);
    }

    // ---- refunds

    /**
     * {@code POST /v1/payments/{id}/refunds}: the amount is reserved at once and Kopek answers 202 with the refund
     * {@code pending} ({@link Result.Pending}) until the PSP answers; {@link #awaitRefund} waits for that, or read the
     * {@code refund.*} events. Never refund again with a new key for a pending refund: it is still running.
     */
    public Result<Refund> refund(OperationKey key, String paymentId, long amount, String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("amount", amount);
        if (reason != null) {
            body.put("reason", reason);
        }
        Transport.Answer answer = transport.exchange(
                "POST", "/v1/payments/" + segment(paymentId) + "/refunds", write(body), required(key));
        Refund refund = read(answer.body(), Refund.class);
        return refund.isPending() ? new Result.Pending<>(refund) : new Result.Done<>(refund, answer.replayed());
    }

    public Refund getRefund(String refundId) {
        return refund(refundId, retry.totalBudget());
    }

    private Refund refund(String refundId, Duration budget) {
        return read(
                transport
                        .exchange("GET", "/v1/refunds/" + segment(refundId), null, null, budget)
                        .body(),
                Refund.class);
    }

    /**
     * Polls the refund while it is pending, until {@code timeout} passes; no read runs past it. {@link Result.Done}
     * with the refund {@code succeeded} or {@code failed}; {@link Result.Pending} with the refund as last seen when
     * the time ran out (Kopek keeps resolving it: look again later).
     */
    public Result<Refund> awaitRefund(String refundId, Duration timeout) {
        Refund seen = poll(timeout, budget -> refund(refundId, budget), Refund::isPending);
        return seen.isPending() ? new Result.Pending<>(seen) : new Result.Done<>(seen, false);
    }

    public List<Refund> refunds(String paymentId) {
        return list(
                        transport
                                .exchange("GET", "/v1/payments/" + segment(paymentId) + "/refunds", null, null)
                                .body(),
                        new TypeReference<Page<Refund>>() {})
                .data();
    }

    // ---- events and webhook endpoints

    /** {@code GET /v1/events}: from the start with a null cursor, else exactly after {@code after}. */
    public EventPage events(String after, int limit) {
        String path = "/v1/events?limit=" + limit + (after == null ? "" : "&after=" + query(after));
        return read(transport.exchange("GET", path, null, null).body(), EventPage.class);
    }

    /**
     * Creates an endpoint for an {@code https} URL (Kopek refuses plain http except to loopback in demo mode). The
     * first answer carries the signing secret; an idempotent replay of it ({@link Result.Done#replayed()}) has a
     * null secret, since Kopek keeps the secret sealed and never shows it twice: store it from the first answer.
     */
    public Result<WebhookEndpoint> createWebhookEndpoint(OperationKey key, String url, List<String> eventTypes) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("url", url);
        body.put("event_types", eventTypes);
        Transport.Answer answer = transport.exchange("POST", "/v1/webhook-endpoints", write(body), required(key));
        return new Result.Done<>(read(answer.body(), WebhookEndpoint.class), answer.replayed());
    }

    public List<WebhookEndpoint> webhookEndpoints() {
        return list(
                        transport
                                .exchange("GET", "/v1/webhook-endpoints", null, null)
                                .body(),
                        new TypeReference<Page<WebhookEndpoint>>() {})
                .data();
    }

    public WebhookEndpoint webhookEndpoint(String endpointId) {
        return read(
                transport
                        .exchange("GET", "/v1/webhook-endpoints/" + segment(endpointId), null, null)
                        .body(),
                WebhookEndpoint.class);
    }

    public WebhookEndpoint deleteWebhookEndpoint(String endpointId) {
        return read(
                transport
                        .exchange("DELETE", "/v1/webhook-endpoints/" + segment(endpointId), null, null)
                        .body(),
                WebhookEndpoint.class);
    }

    public List<WebhookDelivery> deliveries(String endpointId, int limit) {
        return list(
                        transport
                                .exchange(
                                        "GET",
                                        "/v1/webhook-endpoints/" + segment(endpointId) + "/deliveries?limit=" + limit,
                                        null,
                                        null)
                                .body(),
                        new TypeReference<Page<WebhookDelivery>>() {})
                .data();
    }

    public WebhookDelivery delivery(String endpointId, String deliveryId) {
        return read(
                transport
                        .exchange(
                                "GET",
                                "/v1/webhook-endpoints/" + segment(endpointId) + "/deliveries/" + segment(deliveryId),
                                null,
                                null)
                        .body(),
                WebhookDelivery.class);
    }

    public Result<WebhookDelivery> redeliver(OperationKey key, String endpointId, String deliveryId) {
        Transport.Answer answer = transport.exchange(
                "POST",
                "/v1/webhook-endpoints/" + segment(endpointId) + "/deliveries/" + segment(deliveryId) + "/redeliver",
                null,
                required(key));
        return new Result.Done<>(read(answer.body(), WebhookDelivery.class), answer.replayed());
    }

    // ---- balance and ledger

    public Balance balance() {
        return read(transport.exchange("GET", "/v1/balance", null, null).body(), Balance.class);
    }

    /** The merchant's journal, newest first; {@code paymentId} and {@code after} (a transaction id) may be null. */
    public Page<LedgerTransaction> ledgerTransactions(String paymentId, String after, int limit) {
        StringBuilder path = new StringBuilder("/v1/ledger/transactions?limit=").append(limit);
        if (paymentId != null) {
            path.append("&payment_id=").append(query(paymentId));
        }
        if (after != null) {
            path.append("&after=").append(query(after));
        }
        return list(
                transport.exchange("GET", path.toString(), null, null).body(),
                new TypeReference<Page<LedgerTransaction>>() {});
    }

    public LedgerTransaction ledgerTransaction(String id) {
        return read(
                transport
                        .exchange("GET", "/v1/ledger/transactions/" + segment(id), null, null)
                        .body(),
                LedgerTransaction.class);
    }

    /** Reads an event's {@code data} (or any Kopek JSON) as one of this client's types. */
    public static <T> T convert(JsonNode node, Class<T> type) {
        return JSON.treeToValue(node, type);
    }

    // ---- plumbing

    /**
     * Reads until {@code waiting} no longer holds or the next read would start past {@code timeout}, backing off from
     * 100 ms to 5 s between reads. Each read may take only what is left of the timeout (and at most the retry
     * budget); a later read that cannot get an answer in that time leaves the last one seen as the answer.
     */
    private <T> T poll(Duration timeout, Function<Duration, T> read, Predicate<T> waiting) {
        if (!timeout.isPositive()) {
            throw new IllegalArgumentException("an await needs a positive timeout");
        }
        Instant deadline = clock.instant().plus(timeout);
        Duration wait = Duration.ofMillis(100);
        T seen = read.apply(budgetUntil(deadline));
        while (waiting.test(seen) && clock.instant().plus(wait).isBefore(deadline)) {
            pause.pause(wait);
            wait = wait.multipliedBy(2).compareTo(MAX_POLL) > 0 ? MAX_POLL : wait.multipliedBy(2);
            try {
                seen = read.apply(budgetUntil(deadline));
            } catch (RetriesExhaustedException timeUp) {
                return seen;
            }
        }
        return seen;
    }

    private Duration budgetUntil(Instant deadline) {
        Duration left = Duration.between(clock.instant(), deadline);
        return left.compareTo(retry.totalBudget()) < 0 ? left : retry.totalBudget();
    }

    private Result<Payment> paymentResult(Transport.Answer answer) {
        Payment payment = read(answer.body(), Payment.class);
        return answer.status() == 202 ? new Result.Pending<>(payment) : new Result.Done<>(payment, answer.replayed());
    }

    private static OperationKey required(OperationKey key) {
        return Objects.requireNonNull(key, "every state-changing call needs the operation's key");
    }

    private static String write(Object body) {
        return JSON.writeValueAsString(body);
    }

    static <T> T read(String body, Class<T> type) {
        return JSON.readValue(body, type);
    }

    private static <T> T list(String body, TypeReference<T> type) {
        return JSON.readValue(body, type);
    }

    private static String segment(String id) {
        Objects.requireNonNull(id, "id");
        if (!id.matches("[A-Za-z0-9_]{1,64}")) {
            throw new IllegalArgumentException("not a Kopek id: " + id);
        }
        return id;
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Settings; the defaults suit a merchant backend calling Kopek on its network. */
    public static final class Builder {

        private final URI base;
        private final String apiKey;
        private RetryPolicy retry = RetryPolicy.DEFAULT;
        private Duration requestTimeout = Duration.ofSeconds(30);
        private Clock clock = Clock.systemUTC();
        private HttpClient http;
        private Pause pause = Pause.SLEEP;

        private Builder(URI base, String apiKey) {
            this.base = Objects.requireNonNull(base, "base");
            this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        }

        public Builder retryPolicy(RetryPolicy policy) {
            this.retry = Objects.requireNonNull(policy);
            return this;
        }

        /**
         * How long one try may take before it counts as a transport failure (and is retried with the same key); never
         * longer than what is left of the retry policy's budget.
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Objects.requireNonNull(timeout);
            return this;
        }

        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value);
            return this;
        }

        public Builder httpClient(HttpClient client) {
            this.http = Objects.requireNonNull(client);
            return this;
        }

        /** For tests in this package: record waits instead of sleeping through them. */
        Builder pause(Pause value) {
            this.pause = Objects.requireNonNull(value);
            return this;
        }

        public KopekClient build() {
            return new KopekClient(this);
        }
    }
}
