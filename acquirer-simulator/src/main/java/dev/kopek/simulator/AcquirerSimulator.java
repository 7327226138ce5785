package dev.kopek.simulator;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-memory HTTP acquirer with an honest idempotency contract and fault tokens, usable embedded
 * (tests, kopek-server) or standalone via {@link AcquirerSimulatorMain}. The Java methods read and
 * steer the same state as the {@code /_sim} endpoints.
 */
public final class AcquirerSimulator implements AutoCloseable {
    /** Generous: a benchmark opens many connections at once and a refused connect is not a simulated fault. */
    private static final int BACKLOG = 1024;
    /**
     * The JDK server closes every idle keep-alive connection beyond 200 at once (sun.net.httpserver.maxIdleConnections),
     * so a client that just had thousands of calls in flight finds most of its pooled connections closed under it. A
     * PSP's edge keeps thousands open; so does the simulator, unless the property is set.
     */
    private static final String MAX_IDLE_CONNECTIONS = "10000";

    private static final byte[] LOOPBACK = {127, 0, 0, 1};

    private final HttpServer server;
    private final ExecutorService executor;
    private final Simulation simulation;
    private final DisputeDesk disputes;
    private final TraceTrail trail;
    private final AtomicBoolean closed = new AtomicBoolean();

    private AcquirerSimulator(HttpServer server, ExecutorService executor, Simulation simulation, TraceTrail trail) {
        this.trail = trail;
        this.server = server;
        this.executor = executor;
        this.simulation = simulation;
        this.disputes = new DisputeDesk(simulation);
    }

    /**
     * Starts a simulator on 127.0.0.1.
     *
     * @param port the port, or 0 for any free one (see {@link #port()})
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static AcquirerSimulator start(int port) {
        return start(loopback(), port);
    }

    /**
     * Starts a simulator on the given address: loopback for tests and the demo, another address (or
     * {@code 0.0.0.0}) when it runs in a container that Kopek reaches over a network.
     *
     * @throws UncheckedIOException when the address cannot be bound
     */
    public static AcquirerSimulator start(InetAddress address, int port) {
        if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
            System.setProperty("sun.net.httpserver.maxIdleConnections", MAX_IDLE_CONNECTIONS);
        }
        Simulation simulation = new Simulation(Clock.systemUTC());
        Router router = new Router();
        new ChargeEndpoints(simulation).register(router);
        new FollowUpEndpoints(simulation).register(router);
        new AdminEndpoints(simulation).register(router);
        new DisputeEndpoints(simulation).register(router);
        new WebhookEndpoints(simulation).register(router);
        new SettlementEndpoints(simulation).register(router);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(address, port), BACKLOG);
        } catch (IOException e) {
            simulation.close();
            throw new UncheckedIOException(
                    "cannot bind the acquirer simulator to " + address.getHostAddress() + ":" + port, e);
        }
        // One virtual thread per exchange: pm_slow and hangs just park, they never starve other requests.
        ExecutorService executor = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("acquirer-sim-", 0).factory());
        server.createContext("/", router);
        server.setExecutor(executor);
        server.start();
        return new AcquirerSimulator(server, executor, simulation, router.trail());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Where a client on this machine reaches it: loopback when it listens on every address. */
    public URI baseUri() {
        InetAddress bound = server.getAddress().getAddress();
        InetAddress reachable = bound.isAnyLocalAddress() ? loopback() : bound;
        String host = reachable.getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port());
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByAddress(LOOPBACK);
        } catch (IOException e) {
            throw new IllegalStateException("127.0.0.1 is always a valid address", e);
        }
    }

    /**
     * Stops accepting, closes connections, interrupts handlers that are still sleeping and stops webhook
     * deliveries and pending asynchronous outcomes. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.stop(0);
        executor.shutdownNow();
        simulation.close();
        try {
            // Interrupted handlers finish in microseconds; the bound only guards against a stuck one.
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public SimulatorConfig config() {
        return simulation.config();
    }

    /** Applies to requests that start after this call; running ones keep the config they started with. */
    public void configure(SimulatorConfig config) {
        simulation.configure(config);
    }

    /**
     * Forgets every key, charge, movement, armed fault, dispute, webhook and settlement discrepancy and
     * every counter, rewinds the clock offset and restores the default config.
     */
    public void reset() {
        simulation.reset();
        trail.clear();
    }

    /**
     * The W3C {@code traceparent} that came with each request carrying this idempotency key, oldest first (null
     * where a request had none): how a test sees that a caller propagates its trace.
     */
    public List<String> traceparents(String idempotencyKey) {
        return trail.all().stream()
                .filter(seen -> idempotencyKey.equals(seen.idempotencyKey()))
                .map(TraceTrail.Seen::traceparent)
                .toList();
    }

    /** The {@code X-Request-Id} that came with each request carrying this idempotency key, oldest first. */
    public List<String> requestIds(String idempotencyKey) {
        return trail.all().stream()
                .filter(seen -> idempotencyKey.equals(seen.idempotencyKey()))
                .map(TraceTrail.Seen::requestId)
                .toList();
    }

    /** Moves the simulator clock forward (never back), e.g. past the key window. */
    public void advanceClock(Duration d) {
        simulation.advanceClock(d);
    }

    /** Every charge that reached a result (succeeded or declined), in the order they were recorded. */
    public List<ChargeRecord> charges() {
        return simulation.charges();
    }

    /** Succeeded charges made under this key across all its windows: the double-charge detector. */
    public long moneyMovements(String idempotencyKey) {
        return simulation.stats(idempotencyKey).moneyMovements();
    }

    /** {@code GET /charges?idempotency_key=} lookups made for this key. */
    public long lookups(String idempotencyKey) {
        return simulation.stats(idempotencyKey).lookups();
    }

    /** {@code POST /charges} requests that carried this key, whatever their outcome. */
    public long chargeRequests(String idempotencyKey) {
        return simulation.stats(idempotencyKey).chargeRequests();
    }

    /** {@code operation} requests ({@code charge}, {@code capture}, {@code void} or {@code refund}) that carried this key. */
    public long requests(String operation, String idempotencyKey) {
        return simulation.books().scope(Operation.of(operation)).counters().requests(idempotencyKey);
    }

    /** Lookups by key in that operation's collection, e.g. {@code GET /refunds?idempotency_key=}. */
    public long lookups(String operation, String idempotencyKey) {
        return simulation.books().scope(Operation.of(operation)).counters().lookups(idempotencyKey);
    }

    // ---- Money movements: the oracle for captures, voids, refunds and disputes ----

    /** Every movement (charge, authorization, capture, void, refund, chargeback, reversal) in recording order. */
    public List<MovementRecord> movements() {
        return simulation.books().movements().movements(null);
    }

    /** The movements of one charge, in recording order. */
    public List<MovementRecord> movements(String chargeId) {
        return simulation.books().movements().movements(Objects.requireNonNull(chargeId, "chargeId"));
    }

    /** Succeeded "charge" (captured when made) and "capture" movements of the charge, summed. */
    public long capturedTotal(String chargeId) {
        return simulation.books().movements().capturedTotal(Objects.requireNonNull(chargeId, "chargeId"));
    }

    /** Succeeded refunds of the charge, summed. */
    public long refundedTotal(String chargeId) {
        return simulation.books().movements().refundedTotal(Objects.requireNonNull(chargeId, "chargeId"));
    }

    /**
     * Every payment-method token the simulator gives a behaviour of its own ({@code pm_ok} included; any other token
     * behaves like {@code pm_ok}), as the README's token table lists them.
     */
    public static List<String> paymentMethodTokens() {
        return Arrays.stream(FaultToken.values()).map(FaultToken::token).toList();
    }

    /** Every fault {@link #armFault} accepts, as the README's armed-fault table lists them. */
    public static List<String> armableFaults() {
        return Arrays.stream(ArmedFault.values()).map(ArmedFault::wireName).toList();
    }

    /**
     * Makes the next {@code times} operations of a kind on a charge misbehave.
     *
     * @param operation {@code capture}, {@code void} or {@code refund}
     * @param fault     {@code timeout_after_success}, {@code reset_after_success}, {@code 5xx_after_success},
     *                  {@code 5xx_no_effect}, {@code 429} or {@code declined}
     * @param times     1..10000
     * @throws IllegalArgumentException for an unknown charge ("charge_not_found"), operation or fault
     */
    public void armFault(String operation, String chargeId, String fault, int times) {
        try {
            simulation.armFault(operation, chargeId, fault, times);
        } catch (ApiRefusal e) {
            throw e.forJava();
        }
    }

    // ---- Webhooks ----

    /**
     * Creates and sends an event of any type, e.g. to test a receiver's handling of an unexpected one.
     *
     * @param dataJson the event's {@code data}, a JSON object
     * @throws IllegalStateException    when no webhook URL is configured ("webhooks_off")
     * @throws IllegalArgumentException when dataJson is not a JSON object
     */
    public WebhookEvent sendWebhook(String type, String dataJson) {
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("type is required");
        }
        JsonNode data;
        try {
            data = Json.MAPPER.readTree(dataJson);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("dataJson is not valid JSON", e);
        }
        if (!(data instanceof ObjectNode object)) {
            throw new IllegalArgumentException("dataJson must be a JSON object");
        }
        try {
            return simulation.sendWebhook(type, object);
        } catch (ApiRefusal e) {
            throw e.forJava();
        }
    }

    /**
     * Delivers an event once more, same id and payload, freshly signed.
     *
     * @throws IllegalArgumentException for an unknown event; IllegalStateException when webhooks are off
     */
    public void resendWebhook(String eventId) {
        try {
            simulation.books().webhooks().resend(eventId, simulation.config().webhooks());
        } catch (ApiRefusal e) {
            throw e.forJava();
        }
    }

    /** With {@code webhook_reorder}: sends the held batch now (shuffled) instead of at the end of its window. */
    public void flushWebhooks() {
        simulation.books().webhooks().flush();
    }

    /** Every event created since the last reset, in creation order (none while webhooks are off). */
    public List<WebhookEvent> webhookEvents() {
        return simulation.books().webhooks().events();
    }

    /** Every delivery attempt so far, in the order they completed. */
    public List<WebhookDelivery> webhookDeliveries() {
        return simulation.books().webhooks().deliveries();
    }

    // ---- Disputes ----

    /**
     * Opens a dispute on a captured charge: a chargeback movement and a {@code dispute.opened} webhook.
     *
     * @param amount null for everything captured and not refunded
     * @param reason null for "fraudulent"
     * @return the dispute id ({@code dp_…})
     * @throws IllegalArgumentException "charge_not_found"
     * @throws IllegalStateException    "charge_not_captured", "already_disputed", "amount_exceeds_disputable", ...
     */
    public String openDispute(String chargeId, Long amount, String reason) {
        try {
            return disputes.open(chargeId, amount, reason).id();
        } catch (ApiRefusal e) {
            throw e.forJava();
        }
    }

    /**
     * Closes an open dispute with a {@code dispute.won} or {@code dispute.lost} webhook; a won dispute
     * also records a chargeback_reversal movement.
     *
     * @throws IllegalArgumentException "dispute_not_found"; IllegalStateException "dispute_closed"
     */
    public void resolveDispute(String disputeId, boolean won) {
        try {
            disputes.resolve(disputeId, won);
        } catch (ApiRefusal e) {
            throw e.forJava();
        }
    }

    // ---- Settlement ----

    /** The rows of the settlement file of that day, with any injected discrepancies applied. */
    public List<SettlementRow> settlementRows(LocalDate date) {
        return simulation.settlementRows(Objects.requireNonNull(date, "date"));
    }

    /** The settlement file of that day as served by {@code GET /_sim/settlements/{date}}. */
    public String settlementFile(LocalDate date) {
        return Settlements.csv(settlementRows(date));
    }

    /**
     * Adds deliberate errors to that day's settlement file; they accumulate until reset.
     *
     * @throws IllegalArgumentException when a reference names no row of that day's file
     */
    public void addSettlementDiscrepancies(LocalDate date, SettlementDiscrepancies discrepancies) {
        simulation.addSettlementDiscrepancies(
                Objects.requireNonNull(date, "date"), Objects.requireNonNull(discrepancies, "discrepancies"));
    }
}
