package dev.kopek.outbox.store;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.outbox.EventTypes;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes each business event to the outbox, and schedules its webhook deliveries, in the transaction that made
 * the change (L9): a plain synchronous listener, so the row commits or rolls back with the change. Nothing here
 * talks to Kafka or HTTP.
 */
@Component
public class OutboxWriter implements EventStatements {

    private static final Logger log = LoggerFactory.getLogger(OutboxWriter.class);

    private final OutboxStore store;
    private final Clock clock;
    private final Set<String> warnedTypes = ConcurrentHashMap.newKeySet();

    OutboxWriter(OutboxStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    @EventListener
    void on(BusinessEvent event) {
        record(event);
    }

    /** The event's id. Refuses to write outside a transaction: such a row could outlive a rolled-back change. */
    public UUID record(BusinessEvent event) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("business event " + event.type() + " for " + event.publicId()
                    + " published outside a transaction; it must be written with the change it reports (L9)");
        }
        warnIfUnknown(event);
        UUID id = TimeOrderedIds.next(clock);
        String envelope = Envelope.render(id, event);
        store.insert(id, event, envelope); // with its webhook deliveries, in one statement
        return id;
    }

    @Override
    public SqlPart append(BusinessEvent event, String source) {
        warnIfUnknown(event);
        UUID id = TimeOrderedIds.next(clock);
        return store.appendPart(id, event, Envelope.render(id, event), source);
    }

    private void warnIfUnknown(BusinessEvent event) {
        if (!EventTypes.isKnown(event.type()) && warnedTypes.add(event.type())) {
            log.warn("event type {} is not in EventTypes; only '*' webhook endpoints will receive it", event.type());
        }
    }
}
