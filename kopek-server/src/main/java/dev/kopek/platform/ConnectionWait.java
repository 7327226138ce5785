package dev.kopek.platform;

import java.time.Clock;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs a payment's own transactions so that they wait for a database connection rather than fail for want of one.
 * When thousands of payments are in flight on a small pool (a slow PSP answering them all within seconds), the
 * pool's timeout is shorter than the queue: without this, a payment whose money already moved at the PSP would
 * fail to record it and be left to recovery. Only a failure to get a connection is retried, and only the unit of
 * work given here: it is a whole transaction that never started, so it wrote nothing. The wait is bounded by
 * {@code kopek.db.payment-connection-wait}; a waiting payment holds no connection, only its request's memory.
 */
@Component
public class ConnectionWait {

    private static final Logger log = LoggerFactory.getLogger(ConnectionWait.class);

    private final Clock clock;
    private final DatabaseProperties properties;

    ConnectionWait(Clock clock, DatabaseProperties properties) {
        this.clock = clock;
        this.properties = properties;
    }

    /** {@code work}, tried again each time the pool gave no connection within its timeout, until the wait ends. */
    public <T> T patiently(Supplier<T> work) {
        Instant deadline = clock.instant().plus(properties.paymentConnectionWait());
        for (int tries = 1; ; tries++) {
            try {
                return work.get();
            } catch (RuntimeException e) {
                if (DatabaseBusy.noConnection(e) == null || !clock.instant().isBefore(deadline)) {
                    throw e;
                }
                log.debug("no database connection within the pool's timeout (try {}), waiting on", tries);
            }
        }
    }
}
