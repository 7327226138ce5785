package dev.kopek.platform;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs a payment's own transactions so that they wait for a database connection rather than fail for want of one.
 * When thousands of payments are in flight on a small pool (a slow PSP answering them all within seconds), the
 * pool's timeout is shorter than the queue: without this, a payment whose money already moved at the PSP would
 * fail to record it and be left to recovery. {@link #patiently} retries only a failure to get a connection, and
 * only the unit of work given here: it is a whole transaction that never started, so it wrote nothing. It also runs
 * the unit once more when a migration of a rolling upgrade changed a table under a statement the connection had
 * prepared ({@link DatabaseFailures#planChanged}): that transaction was rolled back, so it wrote nothing either.
 * {@link #throughOutage} also retries a unit that failed on a connection the database dropped — a failover — for
 * work whose repeat after an unknown commit is harmless (phase 3). Either wait is bounded by
 * {@code kopek.db.payment-connection-wait}; a waiting payment holds no connection, only its request's memory.
 */
@Component
public class ConnectionWait {

    private static final Logger log = LoggerFactory.getLogger(ConnectionWait.class);

    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);
    private static final Duration MAX_PAUSE = Duration.ofSeconds(1);

    private final Clock clock;
    private final DatabaseProperties properties;
    private final DatabaseOutages outages;

    ConnectionWait(Clock clock, DatabaseProperties properties, DatabaseOutages outages) {
        this.clock = clock;
        this.properties = properties;
        this.outages = outages;
    }

    /**
     * {@code work}, tried again each time the pool gave no connection within its timeout, until the wait ends, and
     * once more after a statement prepared before a migration was refused. Not inside a caller's transaction: a
     * refused statement has ended that one, and only the caller can run it again.
     */
    public <T> T patiently(Supplier<T> work) {
        Instant deadline = clock.instant().plus(properties.paymentConnectionWait());
        boolean mayRunAgain = !TransactionSynchronizationManager.isActualTransactionActive();
        for (int tries = 1; ; tries++) {
            try {
                return work.get();
            } catch (RuntimeException e) {
                if (mayRunAgain && DatabaseFailures.planChanged(e)) {
                    mayRunAgain = false;
                    log.info("a migration changed a table under a prepared statement; running the transaction again");
                    continue;
                }
                if (!DatabaseFailures.noConnection(e) || !clock.instant().isBefore(deadline)) {
                    throw e;
                }
                log.debug("no database connection within the pool's timeout (try {}), waiting on", tries);
            }
        }
    }

    /**
     * {@code work} (given the try's number, from 1), tried again whenever the database was unavailable in any way ({@link DatabaseFailures}: no
     * connection, the session ended by a failover, a read-only server, a lost connection), until the wait ends. Only
     * for work that is harmless to run again after a commit whose answer was lost — phase 3, which is fenced by the
     * key's attempt: a repeat after its own commit finds the key completed and gives the stored answer
     * (kopek-server/docs/pipeline.md, "When the database goes away"). The PSP has answered by then, so recording it
     * rides through a failover instead of leaving moved money to recovery and the client to a 503.
     */
    public <T> T throughOutage(String what, IntFunction<T> work) {
        Instant deadline = clock.instant().plus(properties.paymentConnectionWait());
        Duration pause = FIRST_PAUSE;
        for (int tries = 1; ; tries++) {
            try {
                T done = work.apply(tries);
                if (tries > 1) {
                    log.info("{} went through after {} tries while the database was unavailable", what, tries);
                }
                return done;
            } catch (RuntimeException e) {
                if (DatabaseFailures.of(e).isEmpty() || !clock.instant().isBefore(deadline)) {
                    throw e;
                }
                outages.counted("phase3", e);
                log.debug("{}: database unavailable (try {}), trying again in {}", what, tries, pause);
                pauseFor(pause);
                pause = pause.multipliedBy(2).compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause.multipliedBy(2);
            }
        }
    }

    private static void pauseFor(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the database", e);
        }
    }
}
