package dev.kopek.simulator;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An in-memory HTTP acquirer with an honest idempotency contract and fault tokens, usable embedded
 * (tests, kopek-server) or standalone via {@link AcquirerSimulatorMain}. The Java methods read and
 * steer the same state as the {@code /_sim} endpoints.
 */
public final class AcquirerSimulator implements AutoCloseable {
    /** Generous: a benchmark opens many connections at once and a refused connect is not a simulated fault. */
    private static final int BACKLOG = 1024;
    private static final byte[] LOOPBACK = {127, 0, 0, 1};

    private final HttpServer server;
    private final ExecutorService executor;
    private final Simulation simulation;
    private final AtomicBoolean closed = new AtomicBoolean();

    private AcquirerSimulator(HttpServer server, ExecutorService executor, Simulation simulation) {
        this.server = server;
        this.executor = executor;
        this.simulation = simulation;
    }

    /**
     * Starts a simulator on 127.0.0.1.
     *
     * @param port the port, or 0 for any free one (see {@link #port()})
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static AcquirerSimulator start(int port) {
        Simulation simulation = new Simulation(Clock.systemUTC());
        Router router = new Router();
        new ChargeEndpoints(simulation).register(router);
        new AdminEndpoints(simulation).register(router);
        HttpServer server;
        try {
            InetAddress loopback = InetAddress.getByAddress(LOOPBACK);
            server = HttpServer.create(new InetSocketAddress(loopback, port), BACKLOG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the acquirer simulator to 127.0.0.1:" + port, e);
        }
        // One virtual thread per exchange: pm_slow and hangs just park, they never starve other requests.
        ExecutorService executor = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("acquirer-sim-", 0).factory());
        server.createContext("/", router);
        server.setExecutor(executor);
        server.start();
        return new AcquirerSimulator(server, executor, simulation);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port());
    }

    /** Stops accepting, closes connections and interrupts handlers that are still sleeping. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.stop(0);
        executor.shutdownNow();
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

    /** Forgets every key, charge and counter, rewinds the clock offset and restores the default config. */
    public void reset() {
        simulation.reset();
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
}
