package dev.kopek.events;

import dev.kopek.platform.SqlPart;

/**
 * Writes a {@link BusinessEvent} inside the very statement that makes its change, for a change made by one statement
 * in autocommit (no transaction for a listener to join): L9 holds because the event row and the change commit or fail
 * as one statement. Implemented by the outbox.
 */
public interface EventStatements {

    /**
     * Common table expressions ({@code name AS (…), …}, no leading {@code WITH}) that append {@code event} to the
     * outbox, with its webhook deliveries, once for each row of {@code source}: a CTE of the caller's statement that
     * yields one row when the change was made and none when it was not.
     */
    SqlPart append(BusinessEvent event, String source);
}
