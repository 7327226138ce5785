package dev.kopek.simulation;

import java.util.List;
import java.util.function.Predicate;

/**
 * THE ONE EXCLUSION LIST. Defects of issue 10 that the simulation found and that are not fixed yet: the CI run
 * leaves out the steps that trigger them, so that {@code ./mvnw verify} stays green while the auditor stays fully
 * on. Each entry names its defect number and its note (S1–S13, listed in {@code kopek-server/docs/simulation.md}).
 * When a defect is fixed, delete its entry: its regression seeds in {@link SystemSimulationTest#REGRESSION_SEEDS}
 * then run too.
 * {@code -Dkopek.simulation.exclusions=none} switches every exclusion off (to hunt, or to show a defect).
 */
final class KnownDefects {

    /** Steps that trigger an unfixed defect. */
    record Exclusion(int defect, String note, Predicate<Op> excludes) {}

    /**
     * Empty: every defect the simulation found is fixed (docs/simulation.md). An entry looks like
     * {@code new Exclusion(8, "S1: ...", op -> op instanceof Op.Create c && c.method().equals("pm_429"))}.
     */
    static final List<Exclusion> UNFIXED = List.of();

    private final List<Exclusion> active;

    private KnownDefects(List<Exclusion> active) {
        this.active = active;
    }

    static KnownDefects fromSystemProperties() {
        return "none".equals(System.getProperty("kopek.simulation.exclusions")) ? none() : new KnownDefects(UNFIXED);
    }

    static KnownDefects none() {
        return new KnownDefects(List.of());
    }

    boolean excludes(Op op) {
        return active.stream().anyMatch(e -> e.excludes().test(op));
    }

    static boolean isFixed(int defect) {
        return UNFIXED.stream().noneMatch(e -> e.defect() == defect);
    }
}
