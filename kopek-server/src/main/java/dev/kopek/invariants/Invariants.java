package dev.kopek.invariants;

import dev.kopek.platform.InvariantCheck;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * What the production audit knows, for people and for the runs that must end with zero violations (the crash run,
 * the high-availability run): each check's last run, its coverage and what it found. Read from the database, so
 * every instance answers the same whichever one ran the checks.
 */
@Service
public class Invariants {

    private final List<InvariantCheck> checks;
    private final InvariantCursors cursors;
    private final InvariantViolations violations;

    Invariants(List<InvariantCheck> checks, InvariantCursors cursors, InvariantViolations violations) {
        this.checks = checks.stream()
                .sorted(Comparator.comparing(InvariantCheck::name))
                .toList();
        this.cursors = cursors;
        this.violations = violations;
    }

    /** A check's cursor: where its walk stands and what its last run and last whole pass saw. */
    public record Cursor(
            String position,
            long pass,
            long passRows,
            long totalRows,
            Instant passStartedAt,
            Instant lastRunAt,
            int lastRunRows,
            int lastRunFound,
            Instant lastPassStartedAt,
            Instant lastPassFinishedAt,
            Long lastPassRows) {

        static final Cursor NEVER = new Cursor(null, 1, 0, 0, null, null, 0, 0, null, null, null);
    }

    /** One check as people see it; {@code violations}: current ones (found, not cleared by a later pass). */
    public record CheckStatus(String name, String law, long violations, Cursor cursor) {

        /** Rows of the pass under way that were checked, in percent of what the pass covers (100 when empty). */
        public long coveragePercent() {
            if (cursor.totalRows() == 0) {
                return 100;
            }
            return Math.min(100, Math.round(100.0 * cursor.passRows() / cursor.totalRows()));
        }
    }

    /** A violation found and not cleared since. */
    public record Violation(
            UUID id,
            String check,
            String subject,
            UUID merchant,
            UUID payment,
            String detail,
            Instant firstSeenAt,
            Instant lastSeenAt) {}

    public List<CheckStatus> checks() {
        Map<String, Cursor> all = cursors.all();
        Map<String, Long> counts = violations.currentCounts();
        return checks.stream()
                .map(c -> new CheckStatus(
                        c.name(), c.law(), counts.getOrDefault(c.name(), 0L), all.getOrDefault(c.name(), Cursor.NEVER)))
                .toList();
    }

    /** The newest current violations, at most {@code limit}. */
    public List<Violation> current(int limit) {
        return violations.current(limit);
    }
}
