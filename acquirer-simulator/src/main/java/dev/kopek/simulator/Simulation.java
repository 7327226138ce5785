package dev.kopek.simulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The simulator's mutable world without any HTTP: config, clock, key store and ledger.
 *
 * <p>Keys and ledger live together in one {@link Books} swapped whole on reset. A request captures the
 * books once when it starts, so one that is still running across a reset writes into the old books and
 * cannot leak a charge or a key into the fresh ones.
 */
final class Simulation {
    /** The key store and the ledger that must be reset together. */
    record Books(IdempotencyKeys keys, ChargeLedger ledger) {
        static Books empty() {
            return new Books(new IdempotencyKeys(), new ChargeLedger());
        }
    }

    private final SimClock clock;
    private final AtomicReference<SimulatorConfig> config = new AtomicReference<>(SimulatorConfig.defaults());
    private volatile Books books = Books.empty();

    Simulation(Clock clock) {
        this.clock = new SimClock(clock);
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
        books = Books.empty();
        clock.reset();
        config.set(SimulatorConfig.defaults());
    }

    List<ChargeRecord> charges() {
        return books.ledger().charges();
    }

    ChargeLedger.Stats stats(String idempotencyKey) {
        return books.ledger().stats(idempotencyKey);
    }
}
