package dev.kopek.outbox;

import dev.kopek.platform.Db;
import java.time.Clock;
import java.util.Objects;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The consumer side of at-least-once: a Kopek consumer runs its handler for an event id at most once. The
 * handler's writes and the inbox row commit together, so a duplicated delivery finds the row and does nothing,
 * and a handler that throws leaves no row, so the redelivery runs it again.
 */
@Component
public class Inbox {

    private static final int MAX_CONSUMER = 100;

    private final JdbcClient jdbc;
    private final TransactionTemplate tx;
    private final Clock clock;

    Inbox(JdbcClient jdbc, TransactionTemplate tx, Clock clock) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.clock = clock;
    }

    /** One consumer's view of the inbox: {@code processOnce(eventId, handler)}. */
    public Consumer consumer(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.length() > MAX_CONSUMER) {
            throw new IllegalArgumentException("consumer name must be 1–" + MAX_CONSUMER + " characters");
        }
        return new Consumer(name);
    }

    public final class Consumer {

        private final String name;

        private Consumer(String name) {
            this.name = name;
        }

        /** Runs {@code handler} in one transaction with the inbox row; false when the event was seen before. */
        public boolean processOnce(UUID eventId, Runnable handler) {
            Objects.requireNonNull(eventId, "eventId");
            Boolean ran = tx.execute(status -> {
                boolean first = jdbc.sql("""
                        INSERT INTO inbox (consumer, event_id, processed_at) VALUES (:consumer, :event, :now)
                        ON CONFLICT (consumer, event_id) DO NOTHING
                        """)
                                .param("consumer", name)
                                .param("event", eventId)
                                .param("now", Db.at(clock.instant()))
                                .update()
                        == 1;
                if (first) {
                    handler.run();
                }
                return first;
            });
            return Boolean.TRUE.equals(ran);
        }
    }
}
