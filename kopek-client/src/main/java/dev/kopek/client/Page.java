package dev.kopek.client;

import java.util.List;

/** A page of a list; {@code hasMore} says whether another page follows. */
public record Page<T>(List<T> data, boolean hasMore) {}
