package dev.kopek.support;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Shortens a failing list while it still fails: the simulation's step lists and the property runner's choices
 * ({@link Property}) are shrunk by the same loop. Chunks of half the list, then a quarter, down to single items are
 * dropped, from the end backwards; a candidate that still fails becomes the list. Never empty.
 */
public final class Shrink {

    private Shrink() {}

    /**
     * The shortest list found that {@code stillFails} accepts; {@code more} is asked before each try and ends the
     * search when a budget of runs or time is spent.
     */
    public static <T> List<T> dropChunks(List<T> items, Predicate<List<T>> stillFails, BooleanSupplier more) {
        List<T> current = new ArrayList<>(items);
        for (int chunk = Math.max(1, current.size() / 2); chunk >= 1; chunk /= 2) {
            for (int i = current.size() - chunk; i >= 0 && more.getAsBoolean(); i -= chunk) {
                List<T> candidate = new ArrayList<>(current.subList(0, i));
                candidate.addAll(current.subList(Math.min(current.size(), i + chunk), current.size()));
                if (candidate.isEmpty()) {
                    continue;
                }
                if (stillFails.test(candidate)) {
                    current = candidate;
                    i = Math.min(i, current.size());
                }
            }
        }
        return current;
    }
}
