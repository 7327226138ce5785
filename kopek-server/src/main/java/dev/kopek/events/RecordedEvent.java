package dev.kopek.events;

/**
 * A {@link BusinessEvent} that the statement making its change already wrote to the outbox
 * ({@link EventStatements}), announced after that statement committed, to in-process observers only: the outbox does
 * not listen to it, as it has the row.
 */
public record RecordedEvent(BusinessEvent event) {}
