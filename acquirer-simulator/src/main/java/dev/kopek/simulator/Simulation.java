package dev.kopek.simulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulator's mutable world without any HTTP: config, clock, key stores, charges and ledgers.
 *
 * <p>Everything a reset forgets lives together in one {@link Books} swapped whole on reset. A request
 * captures the books once when it starts, so one that is still running across a reset writes into the
 * old books and cannot leak a charge, a key or a webhook into the fresh ones.
 */
final class Simulation {
    /** Everything that must be reset together. */
    record Books(
            Map<Operation, KeyScope> scopes,
            ChargeLedger ledger,
            Map<String, ChargeAccount> accounts,
            Map<String, ChargeAccount> disputes,
            MovementLedger movements,
            ArmedFaults faults,
            WebhookSender webhooks,
            Settlements settlements) {

        static Books empty(WebhookSender webhooks) {
            Map<Operation, KeyScope> scopes = new EnumMap<>(Operation.class);
            for (Operation operation : Operation.values()) {
                scopes.put(operation, KeyScope.empty());
            }
            return new Books(
                    Map.copyOf(scopes),
                    new ChargeLedger(),
                    new ConcurrentHashMap<>(),
                    new ConcurrentHashMap<>(),
                    new MovementLedger(),
                    new ArmedFaults(),
                    webhooks,
                    new Settlements());
        }

        KeyScope scope(Operation operation) {
            return scopes.get(operation);
        }

        /** The charge, or a 404 {@code charge_not_found}. */
        ChargeAccount account(String chargeId) {
            ChargeAccount account = chargeId == null ? null : accounts.get(chargeId);
            if (account == null) {
                throw ApiRefusal.notFound("charge_not_found");
            }
            return account;
        }
    }

    private final SimClock clock;
    private final AtomicReference<SimulatorConfig> config = new AtomicReference<>(SimulatorConfig.defaults());
    /** Webhook deliveries and asynchronous outcomes; one virtual thread each, interrupted on close. */
    private final ExecutorService background = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("acquirer-sim-background-", 0).factory());

    private final WebhookTransport transport = new WebhookTransport();
    private volatile Books books;

    Simulation(Clock clock) {
        this.clock = new SimClock(clock);
        this.books = Books.empty(newSender());
    }

    private WebhookSender newSender() {
        return new WebhookSender(background, transport, this::now);
    }

    Books books() {
        return books;
    }

    Instant now() {
        return clock.now();
    }

    SimulatorConfig config() {
        return config.get();
    }

    void configure(SimulatorConfig next) {
        config.set(Objects.requireNonNull(next, "config"));
    }

    /** Atomic read-modify-write so two concurrent partial updates cannot lose each other's fields. */
    SimulatorConfig updateConfig(UnaryOperator<SimulatorConfig> change) {
        return config.updateAndGet(change);
    }

    Instant advanceClock(Duration by) {
        return clock.advance(Objects.requireNonNull(by, "duration"));
    }

    void reset() {
        Books old = books;
        books = Books.empty(newSender());
        old.webhooks().close();
        clock.reset();
        config.set(SimulatorConfig.defaults());
    }

    /** Sends a webhook about a state change in these books, with the webhook settings current now. */
    void publish(Books in, String type, ObjectNode data) {
        in.webhooks().publish(type, data, config().webhooks());
    }

    /** Runs a task in the background (asynchronous outcomes); it is interrupted when the simulator closes. */
    void background(Runnable task) {
        background.execute(task);
    }

    List<ChargeRecord> charges() {
        return books.ledger().charges();
    }

    ChargeLedger.Stats stats(String idempotencyKey) {
        Books current = books;
        RequestCounters counters = current.scope(Operation.CHARGE).counters();
        return new ChargeLedger.Stats(
                current.ledger().moneyMovements(idempotencyKey),
                counters.lookups(idempotencyKey),
                counters.requests(idempotencyKey));
    }

    ChargeLedger.Stats totals() {
        Books current = books;
        RequestCounters counters = current.scope(Operation.CHARGE).counters();
        return new ChargeLedger.Stats(
                current.ledger().totalMoneyMovements(), counters.totalLookups(), counters.totalRequests());
    }

    /**
     * Arms a fault for the next {@code times} operations of a kind on a charge.
     *
     * @throws IllegalArgumentException for an unknown operation or fault, or times outside 1..10000
     * @throws ApiRefusal               404 {@code charge_not_found}
     */
    void armFault(String operation, String chargeId, String fault, int times) {
        Operation op = Operation.of(operation);
        ArmedFault armed = ArmedFault.of(fault);
        Books current = books;
        current.account(chargeId);
        current.faults().arm(op, chargeId, armed, times);
    }

    /**
     * Creates and sends an event of any type with the given data.
     *
     * @throws ApiRefusal 409 {@code webhooks_off} when no webhook URL is configured
     */
    WebhookEvent sendWebhook(String type, ObjectNode data) {
        WebhookEvent event = books.webhooks().publish(type, data, config().webhooks());
        if (event == null) {
            throw ApiRefusal.conflict("webhooks_off");
        }
        return event;
    }

    List<SettlementRow> settlementRows(LocalDate date) {
        Books current = books;
        return current.settlements().rows(date, current.movements().entries());
    }

    /** @throws IllegalArgumentException when a reference names no row of that day's file */
    void addSettlementDiscrepancies(LocalDate date, SettlementDiscrepancies discrepancies) {
        Books current = books;
        current.settlements().add(date, discrepancies, current.movements().entries());
    }

    /** Stops webhook deliveries and asynchronous outcomes. */
    void close() {
        books.webhooks().close();
        background.shutdownNow();
        transport.close();
        try {
            background.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
