package dev.kopek.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The choices one try of a property is built from. A generator ({@link Gen}) asks for numbers in ranges and builds
 * its value from them; every answer is recorded as an offset from the range's low end, so the same list replays the
 * same value, and a shorter list or smaller offsets build a simpler one: that is how {@link Property} shrinks any
 * value, whatever generators made it (the choice-sequence approach of Hypothesis). A replayed list that runs out
 * answers with the low end, and an offset beyond a range is read as its high end, so every list builds a valid value.
 *
 * <p>Fresh choices come from a seeded {@link Random}, with the ends of each range (the edge cases: lowest, highest,
 * zero, empty) mixed in one draw in eight; a try may also take the low or the high end of every range.
 */
public final class Choices {

    private enum Mode {
        RANDOM,
        LOWEST,
        HIGHEST,
        REPLAY
    }

    /** One draw in this many is an edge of its range instead of a uniform one. */
    private static final int EDGE_ONE_IN = 8;

    private final Mode mode;
    private final Random random;
    private final List<Long> replay;
    private final List<Long> made = new ArrayList<>();

    private Choices(Mode mode, Random random, List<Long> replay) {
        this.mode = mode;
        this.random = random;
        this.replay = replay;
    }

    static Choices random(Random random) {
        return new Choices(Mode.RANDOM, random, List.of());
    }

    /** Every range at its low end: zeros, minimums, empty and shortest lists, the first of each set. */
    static Choices lowest() {
        return new Choices(Mode.LOWEST, null, List.of());
    }

    /** Every range at its high end: maximums, longest lists, the last of each set. */
    static Choices highest() {
        return new Choices(Mode.HIGHEST, null, List.of());
    }

    static Choices replay(List<Long> offsets) {
        return new Choices(Mode.REPLAY, null, offsets);
    }

    /** The offsets drawn so far, in order. */
    List<Long> made() {
        return List.copyOf(made);
    }

    /** A number in {@code [min, max]}, both included. */
    public long between(long min, long max) {
        if (max < min) {
            throw new IllegalArgumentException("empty range " + min + ".." + max);
        }
        long span = max - min; // unsigned: fits even when the range is every long
        long offset = switch (mode) {
            case LOWEST -> 0;
            case HIGHEST -> span;
            case REPLAY -> {
                long replayed = made.size() < replay.size() ? replay.get(made.size()) : 0;
                yield Long.compareUnsigned(replayed, span) > 0 ? span : replayed;
            }
            case RANDOM -> random.nextInt(EDGE_ONE_IN) == 0 ? edge(min, span) : uniform(span);
        };
        made.add(offset);
        return min + offset;
    }

    private long edge(long min, long span) {
        List<Long> edges = new ArrayList<>(List.of(0L, span));
        if (Long.compareUnsigned(span, 2) >= 0) {
            edges.add(1L);
            edges.add(span - 1);
        }
        if (min < 0 && Long.compareUnsigned(-min, span) <= 0) {
            edges.add(-min); // the range holds zero
        }
        return edges.get(random.nextInt(edges.size()));
    }

    private long uniform(long span) {
        if (span == -1) {
            return random.nextLong();
        }
        if (span >= 0 && span < Long.MAX_VALUE) {
            return random.nextLong(span + 1);
        }
        long offset;
        do {
            offset = random.nextLong();
        } while (Long.compareUnsigned(offset, span) > 0);
        return offset;
    }
}
