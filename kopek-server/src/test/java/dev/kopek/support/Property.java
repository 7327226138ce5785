package dev.kopek.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Kopek's own property runner, in place of jqwik (whose authors ask that it not be used by AI coding agents, with
 * which Kopek is built). A property runs {@code tries} times from one seed: the first try with every choice at its
 * low end, the second at its high end, the rest random with the ends of each range mixed in. On a failure it shrinks
 * the counterexample ({@link Choices}: drop chunks of choices as the simulation drops steps, then make each choice as
 * small as still fails the same way) and fails with the seed, the shrunk and the original counterexample. The seed
 * is new each run; {@code -Dkopek.property.seed=N} replays one.
 *
 * <pre>
 * Property.check(500, Gen.ints(1, 100).list(1, 10), list -> assertThat(...));
 * </pre>
 */
public final class Property {

    /** Replays a run: {@code -Dkopek.property.seed=N}, as a failure prints it. */
    public static final String SEED = "kopek.property.seed";

    private static final int MAX_SHRINK_RUNS = 2_000;
    private static final long SHRINK_BUDGET_NANOS = 30_000_000_000L;

    /** The property itself: an assertion over one value, which may throw anything. */
    @FunctionalInterface
    public interface Check<T> {
        void accept(T value) throws Exception;
    }

    private Property() {}

    /** Checks {@code property} on {@code tries} values of {@code gen}; fails with a shrunk counterexample. */
    public static <T> void check(int tries, Gen<T> gen, Check<T> property) {
        check(Long.getLong(SEED, ThreadLocalRandom.current().nextLong()), tries, gen, property);
    }

    static <T> void check(long seed, int tries, Gen<T> gen, Check<T> property) {
        Random random = new Random(seed);
        for (int i = 0; i < tries; i++) {
            Choices choices = switch (i) {
                case 0 -> Choices.lowest();
                case 1 -> Choices.highest();
                default -> Choices.random(random);
            };
            Outcome<T> outcome = run(gen, choices, property);
            if (outcome.failure() != null) {
                Outcome<T> shrunk = shrink(gen, property, outcome);
                throw new AssertionError(
                        report(caller(), i + 1, tries, seed, outcome, shrunk, shrunk.runs()), shrunk.failure());
            }
        }
    }

    /** One try: the value its choices build, the choices used, and what it threw (null when it held). */
    private record Outcome<T>(T value, List<Long> choices, Throwable failure, int runs) {}

    private static <T> Outcome<T> run(Gen<T> gen, Choices choices, Check<T> property) {
        T value = null;
        try {
            value = gen.draw(choices);
            property.accept(value);
            return new Outcome<>(value, choices.made(), null, 0);
        } catch (Exception | AssertionError e) {
            return new Outcome<>(value, choices.made(), e, 0);
        }
    }

    /** Shorter choice lists first, then smaller choices, while the property still fails with the same kind. */
    private static <T> Outcome<T> shrink(Gen<T> gen, Check<T> property, Outcome<T> failed) {
        Class<?> kind = failed.failure().getClass();
        long deadline = System.nanoTime() + SHRINK_BUDGET_NANOS;
        List<Outcome<T>> best = new ArrayList<>(List.of(failed));
        int[] runs = {0};
        Predicate<List<Long>> stillFails = candidate -> {
            runs[0]++;
            Outcome<T> outcome = run(gen, Choices.replay(candidate), property);
            boolean same = outcome.failure() != null && outcome.failure().getClass() == kind;
            if (same) {
                best.set(0, outcome);
            }
            return same;
        };
        BooleanSupplier more = () -> runs[0] < MAX_SHRINK_RUNS && System.nanoTime() < deadline;
        List<Long> before;
        do {
            before = best.getFirst().choices();
            Shrink.dropChunks(best.getFirst().choices(), stillFails, more);
            List<Long> choices = best.getFirst().choices();
            for (int i = 0; i < choices.size() && more.getAsBoolean(); i++) {
                minimize(best, i, stillFails, more);
                choices = best.getFirst().choices();
            }
        } while (!best.getFirst().choices().equals(before) && more.getAsBoolean());
        Outcome<T> shrunk = best.getFirst();
        return new Outcome<>(shrunk.value(), shrunk.choices(), shrunk.failure(), runs[0]);
    }

    /** The smallest value of choice {@code i} that still fails: zero if it does, else a binary search below it. */
    private static <T> void minimize(
            List<Outcome<T>> best, int i, Predicate<List<Long>> stillFails, BooleanSupplier more) {
        List<Long> choices = best.getFirst().choices();
        if (i >= choices.size() || choices.get(i) == 0 || stillFails.test(with(choices, i, 0))) {
            return;
        }
        long low = 0; // passes
        long high = choices.get(i); // fails
        while (Long.compareUnsigned(high - low, 1) > 0 && more.getAsBoolean()) {
            long middle = low + Long.divideUnsigned(high - low, 2);
            List<Long> current = best.getFirst().choices();
            if (i < current.size() && stillFails.test(with(current, i, middle))) {
                high = middle;
            } else {
                low = middle;
            }
        }
    }

    private static List<Long> with(List<Long> choices, int i, long value) {
        List<Long> changed = new ArrayList<>(choices);
        changed.set(i, value);
        return changed;
    }

    private static String report(
            String name, int failedTry, int tries, long seed, Outcome<?> original, Outcome<?> shrunk, int runs) {
        return name + " failed on try " + failedTry + " of " + tries + " (seed " + seed + ").\n"
                + "  shrunk counterexample (" + runs + " shrinking runs): " + shrunk.value() + "\n"
                + "  failure: " + shrunk.failure() + "\n"
                + "  original counterexample: " + original.value() + "\n"
                + "  replay: -D" + SEED + "=" + seed;
    }

    /** The test method that called {@link #check}, for the report. */
    private static String caller() {
        return StackWalker.getInstance()
                .walk(frames -> frames.filter(f -> !f.getClassName().equals(Property.class.getName()))
                        .findFirst()
                        .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "."
                                + f.getMethodName())
                        .orElse("a property"));
    }
}
