package dev.kopek.psp.stripe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Stripe API stub over HTTP whose objects start from Stripe's own fixtures ({@code stripe/openapi},
 * {@code openapi/fixtures3.json}) and whose idempotency is stateful as Stripe documents it: the same key with the same
 * parameters replays the first answer ({@code Idempotent-Replayed: true}), even a 500; the same key with other
 * parameters is 400 {@code idempotency_error}; the same key while the first request runs is 409
 * {@code idempotency_key_in_use}; validation errors and 429s are not stored. Payment methods choose the behaviour,
 * like Stripe's test payment methods ({@code pm_card_visa}, {@code pm_card_chargeDeclined}, …) plus the stub's own
 * faults ({@code pm_stub_*}). Its record of PaymentIntents is the oracle: how often did money move.
 */
public final class StripeStub implements AutoCloseable {

    public static final String SECRET_KEY = "sk_test_kopek_stub_0123456789";
    public static final String WEBHOOK_SECRET = "whsec_kopek_stub_0123456789abcdef";
    public static final String OK = "pm_card_visa";
    public static final String DECLINED = "pm_card_chargeDeclined";
    public static final String INSUFFICIENT_FUNDS = "pm_card_chargeDeclinedInsufficientFunds";
    /**
     * 3-D Secure, as Stripe answers a server-side confirmation: {@code next_action.type = redirect_to_url} (with the
     * URL and the return_url echoed) when the request sent a {@code return_url}, else {@code use_stripe_sdk}.
     */
    public static final String THREE_D_SECURE = "pm_card_authenticationRequired";
    /** Another of Stripe's 3-D Secure test cards; the same answers as {@link #THREE_D_SECURE}. */
    public static final String THREE_D_SECURE_REDIRECT = "pm_card_threeDSecureRequired";

    public static final String API_ERROR = "pm_stub_api_error";
    public static final String RATE_LIMITED = "pm_stub_rate_limit";
    public static final String INVALID = "pm_stub_invalid";
    /** Creates the PaymentIntent, then holds the answer until {@link #releaseHeld()}: the answer is lost. */
    public static final String HELD_AFTER_CHARGE = "pm_stub_held_after_charge";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ObjectNode FIXTURES = fixtures();

    private final HttpServer server;
    private final Clock clock;
    /**
     * Ids start at a random point per stub: the test classes share one database, and two stubs handing out the same
     * pi_stub1 would make two merchants' payments carry one PSP reference, which real Stripe accounts never do. They
     * stay below 12 digits: Kopek's input check reads a run of 13 that passes Luhn as a card number wherever it
     * stands (CardNumbers), and refuses a request that sends such an id back, as an operator's psp_reference.
     */
    private final AtomicLong ids = new AtomicLong(ThreadLocalRandom.current().nextLong(1, 9_000_000) * 10_000L);

    private final Map<String, Stored> keys = new ConcurrentHashMap<>();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<String, ObjectNode> intents = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> refunds = new ConcurrentHashMap<>();
    private final List<Movement> balance = Collections.synchronizedList(new ArrayList<>());
    /** The accounts the stub serves, by secret key: each sees only its own objects, keys and balance. */
    private final Set<String> accounts = ConcurrentHashMap.newKeySet();
    /** Accounts that settle in a currency of their own, by secret key, and the rate they convert at. */
    private final Map<String, Conversion> settlement = new ConcurrentHashMap<>();

    /** An account's settlement currency (lower case, as Stripe writes it) and its rate from any other currency. */
    private record Conversion(String currency, BigDecimal rate) {}

    /** The accounts that have multicapture (an IC+ feature at Stripe), by secret key. */
    private final Set<String> multicapture = ConcurrentHashMap.newKeySet();
    /** Which account (secret key) created each PaymentIntent and refund. */
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    /** The account of the request this thread is answering. */
    private static final ThreadLocal<String> CALLER = new ThreadLocal<>();

    private final Set<String> searchable = ConcurrentHashMap.newKeySet();
    private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean searchLags;
    private volatile CountDownLatch held = new CountDownLatch(1);
    private volatile CountDownLatch arrived = new CountDownLatch(1);

    /** One request the stub answered (or is answering). */
    public record Request(String method, String path, String idempotencyKey, Map<String, String> form) {}

    private record Stored(String fingerprint, int status, String body) {}

    private record Answer(int status, String body, boolean store) {}

    /** A balance transaction of one account. */
    private record Movement(String account, ObjectNode txn) {}

    public StripeStub(Clock clock) {
        this.clock = clock;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        accounts.add(SECRET_KEY);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/v1/", this::handle);
        server.start();
    }

    /**
     * Serves a second (third, …) Stripe account on the same base URL, as Stripe serves every account: requests with
     * this secret key see only that account's PaymentIntents, refunds, idempotency keys and balance transactions.
     */
    public StripeStub addAccount(String secretKey) {
        accounts.add(secretKey);
        return this;
    }

    /**
     * Gives an account Stripe's multicapture: a manual-capture PaymentIntent confirmed with {@code
     * payment_method_options[card][request_multicapture]=if_available} may then be captured with {@code
     * final_capture=false}, and its charge says {@code multicapture.status = available}. Every other PaymentIntent
     * refuses {@code final_capture=false}, as Stripe does.
     */
    public StripeStub enableMulticapture(String secretKey) {
        multicapture.add(secretKey);
        return this;
    }

    /**
     * Makes an account settle in {@code currency}: a movement in another currency becomes a balance transaction in
     * this one, converted at {@code rate} (rounded half up), with Stripe's {@code exchange_rate}, as Stripe converts
     * for an account whose bank account is in another currency. The source keeps its own amount and currency.
     */
    public StripeStub settleIn(String secretKey, String currency, String rate) {
        settlement.put(secretKey, new Conversion(currency, new BigDecimal(rate)));
        return this;
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        releaseHeld();
        server.stop(0);
    }

    /** New PaymentIntents stay out of search results until {@link #catchUpSearch()} (Stripe's search lags). */
    public void lagSearch() {
        searchLags = true;
    }

    public void catchUpSearch() {
        searchLags = false;
        searchable.addAll(intents.keySet());
    }

    public void releaseHeld() {
        held.countDown();
    }

    /** Waits until a held request has charged and is being held. */
    public void awaitHeld() throws InterruptedException {
        if (!arrived.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no request was held");
        }
    }

    public void reset() {
        releaseHeld();
        held = new CountDownLatch(1);
        arrived = new CountDownLatch(1);
        searchLags = false;
    }

    public List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    public Map<String, ObjectNode> intents() {
        return Map.copyOf(intents);
    }

    /** PaymentIntents that moved money for a Kopek reference (the metadata Kopek sets): the oracle. */
    public long chargedIntents(String reference) {
        return intents.values().stream()
                .filter(pi -> reference.equals(
                        pi.path("metadata").path("kopek_reference").asString(null)))
                .filter(pi -> pi.path("amount_received").asLong(0) > 0
                        || pi.path("status").asString("").equals("requires_capture"))
                .count();
    }

    public long received(String intentId) {
        ObjectNode pi = intents.get(intentId);
        return pi == null ? 0 : pi.path("amount_received").asLong(0);
    }

    public long refunded(String intentId) {
        return refunds.values().stream()
                .filter(r -> intentId.equals(r.path("payment_intent").asString(null)))
                .mapToLong(r -> r.path("amount").asLong(0))
                .sum();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            Map<String, String> query = decode(exchange.getRequestURI().getRawQuery());
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            String account = authorization != null && authorization.startsWith("Bearer ")
                    ? authorization.substring("Bearer ".length())
                    : "";
            CALLER.set(account);
            if (!accounts.contains(account)) {
                send(exchange, error(401, "invalid_request_error", null, "Invalid API Key provided"), false);
                return;
            }
            if (exchange.getRequestMethod().equals("GET")) {
                requests.add(new Request("GET", path, null, query));
                Answer answer = get(path, query);
                send(exchange, answer, false);
                return;
            }
            Map<String, String> form = decode(new String(readAll(exchange.getRequestBody()), StandardCharsets.UTF_8));
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            requests.add(new Request("POST", path, key, form));
            post(exchange, path, key, form);
        }
    }

    private void post(HttpExchange exchange, String path, String sentKey, Map<String, String> form) throws IOException {
        // Stripe scopes idempotency keys to the account.
        String key = sentKey == null ? null : CALLER.get() + " " + sentKey;
        String fingerprint = path + "?" + new java.util.TreeMap<>(form);
        if (key != null) {
            Stored stored = keys.get(key);
            if (stored != null) {
                send(
                        exchange,
                        stored.fingerprint().equals(fingerprint)
                                ? new Answer(stored.status(), stored.body(), true)
                                : error(
                                        400,
                                        "idempotency_error",
                                        null,
                                        "Keys for idempotent requests can only be used with"
                                                + " the same parameters they were first used with."),
                        stored.fingerprint().equals(fingerprint));
                return;
            }
            if (!inFlight.add(key)) {
                send(
                        exchange,
                        error(
                                409,
                                "invalid_request_error",
                                "idempotency_key_in_use",
                                "There is currently"
                                        + " another in-progress request using this Stripe API key and idempotency key."),
                        false);
                return;
            }
        }
        try {
            Answer answer = execute(path, form);
            if (HELD_AFTER_CHARGE.equals(form.get("payment_method"))) {
                // Stripe has charged but not finished the request: a retry meanwhile finds the key in use.
                arrived.countDown();
                awaitRelease();
            }
            if (key != null && answer.store()) {
                keys.put(key, new Stored(fingerprint, answer.status(), answer.body()));
            }
            send(exchange, new Answer(answer.status(), answer.body(), false), false);
        } finally {
            if (key != null) {
                inFlight.remove(key);
            }
        }
    }

    private void awaitRelease() {
        try {
            held.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Answer execute(String path, Map<String, String> form) {
        if (path.equals("/v1/payment_intents")) {
            return create(form);
        }
        if (path.equals("/v1/refunds")) {
            return refund(form);
        }
        String[] parts = path.split("/");
        if (parts.length == 5 && parts[2].equals("payment_intents")) {
            ObjectNode pi = mine(intents, parts[3]);
            if (pi == null) {
                return missing(parts[3]);
            }
            synchronized (pi) {
                return switch (parts[4]) {
                    case "capture" -> capture(pi, form);
                    case "cancel" -> cancel(pi);
                    default -> error(404, "invalid_request_error", "resource_missing", "Unrecognized request URL");
                };
            }
        }
        return error(404, "invalid_request_error", "resource_missing", "Unrecognized request URL");
    }

    private Answer create(Map<String, String> form) {
        String method = form.getOrDefault("payment_method", "");
        switch (method) {
            case RATE_LIMITED -> {
                return error(
                        429, "invalid_request_error", "rate_limit", "Too many requests hit the API too" + " quickly.");
            }
            case API_ERROR -> {
                Answer e = error(500, "api_error", null, "Something went wrong on Stripe's end.");
                return new Answer(e.status(), e.body(), true);
            }
            case INVALID -> {
                return error(
                        400, "invalid_request_error", "resource_missing", "No such PaymentMethod: '" + method + "'");
            }
            default -> {}
        }
        ObjectNode pi = fixture("payment_intent");
        String id = "pi_stub" + ids.incrementAndGet();
        long amount = Long.parseLong(form.get("amount"));
        boolean manual = "manual".equals(form.get("capture_method"));
        pi.put("id", id)
                .put("amount", amount)
                .put("currency", form.get("currency"))
                .put("capture_method", manual ? "manual" : "automatic")
                .put("created", now())
                .put("payment_method", method)
                .put("amount_received", 0)
                .put("amount_capturable", 0);
        pi.putNull("canceled_at");
        pi.putNull("last_payment_error");
        pi.putNull("next_action");
        ObjectNode metadata = pi.putObject("metadata");
        form.forEach((k, v) -> {
            if (k.startsWith("metadata[")) {
                metadata.put(k.substring("metadata[".length(), k.length() - 1), v);
            }
        });
        intents.put(id, pi);
        owners.put(id, CALLER.get());
        if (!searchLags) {
            searchable.add(id);
        }
        return switch (method) {
            case DECLINED, INSUFFICIENT_FUNDS ->
                declined(pi, method.equals(DECLINED) ? "generic_decline" : "insufficient_funds");
            case THREE_D_SECURE, THREE_D_SECURE_REDIRECT -> {
                pi.put("status", "requires_action");
                String returnUrl = form.get("return_url");
                if (returnUrl == null) {
                    ObjectNode next = pi.putObject("next_action").put("type", "use_stripe_sdk");
                    next.putObject("use_stripe_sdk").put("type", "three_d_secure_redirect");
                } else {
                    ObjectNode next = pi.putObject("next_action").put("type", "redirect_to_url");
                    next.putObject("redirect_to_url")
                            .put("url", "https://hooks.stripe.com/3d_secure_2/hosted?" + id)
                            .put("return_url", returnUrl);
                }
                yield new Answer(200, pi.toString(), true);
            }
            default -> {
                ObjectNode charge = newCharge(pi, amount);
                if (manual) {
                    pi.put("status", "requires_capture").put("amount_capturable", amount);
                    ObjectNode card = ((ObjectNode)
                                    charge.get("payment_method_details").get("card"))
                            .put("capture_before", now() + 7 * 86_400);
                    boolean requested =
                            "if_available".equals(form.get("payment_method_options[card][request_multicapture]"));
                    card.putObject("multicapture")
                            .put(
                                    "status",
                                    requested && multicapture.contains(CALLER.get()) ? "available" : "unavailable");
                } else {
                    pi.put("status", "succeeded").put("amount_received", amount);
                    moved(
                            "charge",
                            charge.path("id").asString(),
                            pi.path("id").asString(),
                            amount,
                            pi.path("currency").asString(),
                            CALLER.get());
                }
                pi.set("latest_charge", charge);
                yield new Answer(200, pi.toString(), true);
            }
        };
    }

    /**
     * The customer finished 3-D Secure on a PaymentIntent that required it: it succeeds (or waits for capture when
     * manual) with its charge, as Stripe moves it after the redirect.
     */
    public ObjectNode completeAction(String intentId) {
        ObjectNode pi = intents.get(intentId);
        synchronized (pi) {
            long amount = pi.path("amount").asLong();
            ObjectNode charge = newCharge(pi, amount);
            pi.putNull("next_action");
            if ("manual".equals(pi.path("capture_method").asString())) {
                pi.put("status", "requires_capture").put("amount_capturable", amount);
            } else {
                pi.put("status", "succeeded").put("amount_received", amount);
                moved(
                        "charge",
                        charge.path("id").asString(),
                        intentId,
                        amount,
                        pi.path("currency").asString(),
                        owners.get(intentId));
            }
            pi.set("latest_charge", charge);
            return pi.deepCopy();
        }
    }

    private Answer declined(ObjectNode pi, String declineCode) {
        pi.put("status", "requires_payment_method");
        ObjectNode lastError = pi.putObject("last_payment_error");
        lastError
                .put("type", "card_error")
                .put("code", "card_declined")
                .put("decline_code", declineCode)
                .put("message", "Your card was declined.");
        ObjectNode body = JSON.createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("type", "card_error")
                .put("code", "card_declined")
                .put("decline_code", declineCode)
                .put("message", "Your card was declined.");
        error.set("payment_intent", pi.deepCopy());
        return new Answer(402, body.toString(), true);
    }

    private Answer capture(ObjectNode pi, Map<String, String> form) {
        if (!pi.path("status").asString().equals("requires_capture")) {
            return unexpectedState(pi);
        }
        long capturable = pi.path("amount_capturable").asLong();
        long amount =
                form.containsKey("amount_to_capture") ? Long.parseLong(form.get("amount_to_capture")) : capturable;
        if (amount > capturable) {
            return error(
                    400,
                    "invalid_request_error",
                    "amount_too_large",
                    "amount_to_capture is greater than" + " the amount capturable");
        }
        boolean last = !"false".equals(form.get("final_capture"));
        if (!last
                && !"available"
                        .equals(pi.path("latest_charge")
                                .path("payment_method_details")
                                .path("card")
                                .path("multicapture")
                                .path("status")
                                .asString(""))) {
            return error(
                    400,
                    "invalid_request_error",
                    null,
                    "final_capture can only be false for a PaymentIntent with multicapture available.");
        }
        ObjectNode metadata = (ObjectNode) pi.path("metadata");
        form.forEach((k, v) -> {
            if (k.startsWith("metadata[")) {
                metadata.put(k.substring("metadata[".length(), k.length() - 1), v);
            }
        });
        pi.put("amount_received", pi.path("amount_received").asLong() + amount);
        pi.put("amount_capturable", last ? 0 : capturable - amount);
        pi.put("status", last || capturable == amount ? "succeeded" : "requires_capture");
        moved(
                "charge",
                pi.path("latest_charge").path("id").asString(),
                pi.path("id").asString(),
                amount,
                pi.path("currency").asString(),
                CALLER.get());
        return new Answer(200, pi.toString(), true);
    }

    private Answer cancel(ObjectNode pi) {
        String status = pi.path("status").asString();
        if (status.equals("succeeded") || status.equals("canceled") || status.equals("processing")) {
            return unexpectedState(pi);
        }
        pi.put("status", "canceled")
                .put("canceled_at", now())
                .put("cancellation_reason", "requested_by_customer")
                .put("amount_capturable", 0);
        return new Answer(200, pi.toString(), true);
    }

    private Answer refund(Map<String, String> form) {
        ObjectNode pi = mine(intents, form.getOrDefault("payment_intent", ""));
        if (pi == null) {
            return missing(form.get("payment_intent"));
        }
        synchronized (pi) {
            long amount = form.containsKey("amount")
                    ? Long.parseLong(form.get("amount"))
                    : pi.path("amount_received").asLong();
            long left =
                    pi.path("amount_received").asLong() - refunded(pi.path("id").asString());
            if (left <= 0) {
                return error(
                        400,
                        "invalid_request_error",
                        "charge_already_refunded",
                        "Charge " + pi.path("latest_charge").path("id").asString() + " has already been refunded.");
            }
            if (amount > left) {
                return error(
                        400,
                        "invalid_request_error",
                        "amount_too_large",
                        "Refund amount is greater than" + " unrefunded amount on charge");
            }
            ObjectNode refund = fixture("refund");
            String id = "re_stub" + ids.incrementAndGet();
            refund.put("id", id)
                    .put("amount", amount)
                    .put("currency", pi.path("currency").asString())
                    .put("payment_intent", pi.path("id").asString())
                    .put("created", now())
                    .put("status", "succeeded")
                    .put("charge", pi.path("latest_charge").path("id").asString());
            ObjectNode metadata = refund.putObject("metadata");
            form.forEach((k, v) -> {
                if (k.startsWith("metadata[")) {
                    metadata.put(k.substring("metadata[".length(), k.length() - 1), v);
                }
            });
            refunds.put(id, refund);
            owners.put(id, CALLER.get());
            moved("refund", id, null, -amount, pi.path("currency").asString(), CALLER.get());
            return new Answer(200, refund.toString(), true);
        }
    }

    private Answer get(String path, Map<String, String> query) {
        String[] parts = path.split("/");
        if (path.equals("/v1/payment_intents/search")) {
            return search(query.getOrDefault("query", ""));
        }
        if (path.equals("/v1/refunds")) {
            String intent = query.getOrDefault("payment_intent", "");
            return list(
                    refunds.values().stream()
                            .filter(r -> intent.equals(r.path("payment_intent").asString(null)))
                            .filter(r ->
                                    CALLER.get().equals(owners.get(r.path("id").asString())))
                            .sorted((a, b) -> b.path("id")
                                    .asString()
                                    .compareTo(a.path("id").asString()))
                            .toList(),
                    "/v1/refunds");
        }
        if (path.equals("/v1/balance_transactions")) {
            long from = Long.parseLong(query.getOrDefault("created[gte]", "0"));
            long to = Long.parseLong(query.getOrDefault("created[lt]", Long.toString(Long.MAX_VALUE)));
            synchronized (balance) {
                return list(
                        balance.stream()
                                .filter(m -> m.account().equals(CALLER.get()))
                                .map(Movement::txn)
                                .filter(t -> t.path("created").asLong() >= from
                                        && t.path("created").asLong() < to)
                                .toList(),
                        "/v1/balance_transactions");
            }
        }
        if (parts.length == 4 && parts[2].equals("payment_intents")) {
            ObjectNode pi = mine(intents, parts[3]);
            return pi == null ? missing(parts[3]) : new Answer(200, pi.toString(), false);
        }
        if (parts.length == 4 && parts[2].equals("refunds")) {
            ObjectNode refund = mine(refunds, parts[3]);
            return refund == null ? missing(parts[3]) : new Answer(200, refund.toString(), false);
        }
        return error(404, "invalid_request_error", "resource_missing", "Unrecognized request URL");
    }

    private Answer search(String query) {
        String prefix = "metadata['kopek_provider_key']:'";
        if (!query.startsWith(prefix) || !query.endsWith("'")) {
            return error(400, "invalid_request_error", "parameter_invalid_string", "Invalid search query");
        }
        String value = query.substring(prefix.length(), query.length() - 1)
                .replace("\\'", "'")
                .replace("\\\\", "\\");
        List<ObjectNode> found = intents.values().stream()
                .filter(pi -> searchable.contains(pi.path("id").asString()))
                .filter(pi -> CALLER.get().equals(owners.get(pi.path("id").asString())))
                .filter(pi -> value.equals(
                        pi.path("metadata").path("kopek_provider_key").asString(null)))
                .toList();
        ObjectNode result = JSON.createObjectNode()
                .put("object", "search_result")
                .put("url", "/v1/payment_intents/search")
                .put("has_more", false);
        result.putNull("next_page");
        result.putArray("data").addAll(found);
        return new Answer(200, result.toString(), false);
    }

    private static Answer list(List<ObjectNode> items, String url) {
        ObjectNode list =
                JSON.createObjectNode().put("object", "list").put("url", url).put("has_more", false);
        ArrayNode data = list.putArray("data");
        data.addAll(items);
        return new Answer(200, list.toString(), false);
    }

    private ObjectNode newCharge(ObjectNode pi, long amount) {
        ObjectNode charge = fixture("charge");
        charge.put("id", "ch_stub" + ids.incrementAndGet())
                .put("amount", amount)
                .put("currency", pi.path("currency").asString())
                .put("payment_intent", pi.path("id").asString())
                .put("created", now());
        return charge;
    }

    /**
     * A balance transaction, its source expanded as {@code expand[]=data.source} asks (with its own amount and currency;
     * a charge's captured amount so far), converted into the account's settlement currency where it has another.
     */
    private void moved(String type, String sourceId, String intentId, long amount, String currency, String account) {
        ObjectNode txn = fixture("balance_transaction");
        ObjectNode source = JSON.createObjectNode()
                .put("id", sourceId)
                .put("object", type)
                .put("amount", Math.abs(amount))
                .put("currency", currency);
        if (intentId != null) {
            source.put("payment_intent", intentId);
            source.put(
                    "amount_captured",
                    intents.get(intentId).path("amount_received").asLong());
        }
        Conversion conversion = settlement.get(account);
        long settled = amount;
        String settledIn = currency;
        txn.putNull("exchange_rate");
        if (conversion != null && !conversion.currency().equals(currency)) {
            settled = new BigDecimal(amount)
                    .multiply(conversion.rate())
                    .setScale(0, RoundingMode.HALF_UP)
                    .longValueExact();
            settledIn = conversion.currency();
            txn.put("exchange_rate", conversion.rate().doubleValue());
        }
        long fee = type.equals("charge") ? Math.max(1, settled * 29 / 1000) : 0;
        txn.put("id", "txn_stub" + ids.incrementAndGet())
                .put("type", type)
                .put("reporting_category", type)
                .put("amount", settled)
                .put("fee", fee)
                .put("net", settled - fee)
                .put("currency", settledIn)
                .put("created", now())
                .put("available_on", now() + 2 * 86_400);
        txn.set("source", source);
        balance.add(new Movement(account, txn));
    }

    /** A Stripe event around an object, shaped like the fixture, and its signature header. */
    public String event(String type, JsonNode object) {
        ObjectNode event = fixture("event");
        event.put("id", "evt_stub" + ids.incrementAndGet()).put("type", type).put("created", now());
        event.putObject("data").set("object", object);
        return event.toString();
    }

    /** A dispute on a PaymentIntent, from the fixture. */
    public ObjectNode dispute(String intentId, String status) {
        ObjectNode pi = intents.get(intentId);
        ObjectNode dispute = fixture("dispute");
        dispute.put("id", "dp_stub" + ids.incrementAndGet())
                .put("payment_intent", intentId)
                .put("charge", pi.path("latest_charge").path("id").asString())
                .put("amount", pi.path("amount_received").asLong())
                .put("currency", pi.path("currency").asString())
                .put("status", status)
                .put("created", now());
        return dispute;
    }

    public String signature(String body) {
        return StripeNotifications.sign(WEBHOOK_SECRET, now(), body);
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }

    private Answer unexpectedState(ObjectNode pi) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("type", "invalid_request_error")
                .put("code", "payment_intent_unexpected_state")
                .put(
                        "message",
                        "This PaymentIntent's status is " + pi.path("status").asString() + ".");
        error.set("payment_intent", pi.deepCopy());
        return new Answer(400, body.toString(), true);
    }

    /** An object of the calling account; another account's is as absent as an unknown id, as at Stripe. */
    private ObjectNode mine(Map<String, ObjectNode> objects, String id) {
        ObjectNode found = objects.get(id);
        return found != null && CALLER.get().equals(owners.get(id)) ? found : null;
    }

    /**
     * Puts a copy of a PaymentIntent's charge movement into another account's balance transactions: that account's
     * settlement then names a PaymentIntent it does not hold.
     */
    public void alsoSettleIn(String secretKey, String intentId) {
        synchronized (balance) {
            Movement charge = balance.stream()
                    .filter(m -> intentId.equals(
                            m.txn().path("source").path("payment_intent").asString(null)))
                    .findFirst()
                    .orElseThrow();
            ObjectNode copy = charge.txn().deepCopy().put("id", "txn_stub" + ids.incrementAndGet());
            balance.add(new Movement(secretKey, copy));
        }
    }

    private static Answer missing(String id) {
        return error(404, "invalid_request_error", "resource_missing", "No such object: '" + id + "'");
    }

    /**
     * An error body as Stripe's {@code error} schema has it ({@code StripeStubSpecTest} holds every one against the
     * spec): {@code type} is one of the spec's {@code api_error}, {@code card_error}, {@code idempotency_error},
     * {@code invalid_request_error} (a 401 and a 429 are invalid_request_error too, the 429 with code rate_limit), and
     * a coded error links its documentation as Stripe does.
     */
    private static Answer error(int status, String type, String code, String message) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode error = body.putObject("error");
        if (code != null) {
            error.put("code", code).put("doc_url", "https://stripe.com/docs/error-codes/" + code.replace('_', '-'));
        }
        error.put("message", message).put("type", type);
        return new Answer(status, body.toString(), false);
    }

    private static void send(HttpExchange exchange, Answer answer, boolean replayed) throws IOException {
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Request-Id", "req_stub");
        if (replayed) {
            exchange.getResponseHeaders().set("Idempotent-Replayed", "true");
        }
        exchange.sendResponseHeaders(answer.status(), bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static byte[] readAll(InputStream in) throws IOException {
        return in.readAllBytes();
    }

    private static Map<String, String> decode(String raw) {
        Map<String, String> form = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return form;
        }
        for (String pair : raw.split("&")) {
            String[] kv = pair.split("=", 2);
            String name = URLDecoder.decode(kv[0], StandardCharsets.UTF_8);
            String value = kv.length == 2 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "";
            form.merge(name, value, (a, b) -> a + "," + b);
        }
        return form;
    }

    private static ObjectNode fixture(String name) {
        return (ObjectNode) FIXTURES.get(name).deepCopy();
    }

    private static ObjectNode fixtures() {
        try (InputStream in = StripeStub.class.getResourceAsStream("/stripe/fixtures3-subset.json")) {
            return (ObjectNode) JSON.readTree(in).path("resources");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
