package dev.kopek.events;

import dev.kopek.platform.SqlPart;
import java.util.List;

/**
 * The one way to write a {@link BusinessEvent} inside the transaction of its change (L9): as a part of the very
 * statement that makes the change ({@link #append}, what a change made by one statement in autocommit needs), or as
 * a statement of its own in the change's transaction ({@link #write}). Implemented by the outbox.
 */
public interface EventStatements {

    /**
     * Common table expressions ({@code name AS (…), …}, no leading {@code WITH}) that append {@code event} to the
     * outbox, with its webhook deliveries, once for each row of {@code source}: a CTE of the caller's statement that
     * yields one row when the change was made and none when it was not.
     */
    SqlPart append(BusinessEvent event, String source);

    /**
     * {@link #append} for many events in one statement (a batch of changes): each event once, if {@code source}
     * has a row whose {@code id} is the event's resource id.
     */
    SqlPart appendEach(List<BusinessEvent> events, String source);

    /**
     * Writes {@code event} with its webhook deliveries in the transaction open now, and tells in-process observers
     * ({@link RecordedEvent}); refuses to write outside a transaction.
     */
    void write(BusinessEvent event);
}
