package dev.kopek.outbox.store;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.events.RecordedEvent;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.outbox.EventTypes;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The one way a business event is written (L9): the outbox row and its webhook deliveries as a part of the
 * statement that makes the change, or — for a change made by several statements in a transaction — as a statement
 * of its own in that transaction. Either way the row commits or rolls back with the change. Nothing here talks to
 * Kafka or HTTP.
 */
@Component
public class OutboxStatements implements EventStatements {

    private static final Logger log = LoggerFactory.getLogger(OutboxStatements.class);

    private final OutboxStore store;
    private final ApplicationEventPublisher observers;
    private final Clock clock;
    private final Set<String> warnedTypes = ConcurrentHashMap.newKeySet();

    OutboxStatements(OutboxStore store, ApplicationEventPublisher observers, Clock clock) {
        this.store = store;
        this.observers = observers;
        this.clock = clock;
    }

    @Override
    public SqlPart append(BusinessEvent event, String source) {
        warnIfUnknown(event);
        UUID id = TimeOrderedIds.next(clock);
        return store.appendPart(id, event, Envelope.render(id, event), source);
    }

    @Override
    public SqlPart appendEach(List<BusinessEvent> events, String source) {
        List<OutboxStore.Appended> rows = events.stream()
                .map(event -> {
                    warnIfUnknown(event);
                    UUID id = TimeOrderedIds.next(clock);
                    return new OutboxStore.Appended(id, event, Envelope.render(id, event));
                })
                .toList();
        return store.appendEachPart(rows, source);
    }

    /** Refuses to write outside a transaction: such a row could outlive a rolled-back change. */
    @Override
    public void write(BusinessEvent event) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("business event " + event.type() + " for " + event.publicId()
                    + " written outside a transaction; it must be written with the change it reports (L9)");
        }
        warnIfUnknown(event);
        UUID id = TimeOrderedIds.next(clock);
        store.insert(id, event, Envelope.render(id, event)); // with its webhook deliveries, in one statement
        observers.publishEvent(new RecordedEvent(event));
    }

    private void warnIfUnknown(BusinessEvent event) {
        if (!EventTypes.isKnown(event.type()) && warnedTypes.add(event.type())) {
            log.warn("event type {} is not in EventTypes; only '*' webhook endpoints will receive it", event.type());
        }
    }
}
