package dev.kopek.client;

import java.util.List;

/** A page of the event feed; pass {@link #nextCursor()} back to continue exactly after it, even when empty. */
public record EventPage(List<Event> data, boolean hasMore, String nextCursor) {}
