package dev.kopek.platform;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * One law checked against production data a slice at a time (issue 26 §2). The module that owns the tables
 * implements it over its own tables, so no module's SQL reads another's; the auditor job (module invariants) keeps
 * each check's cursor, runs one slice per tick, and turns what a slice finds into a metric, an ERROR line, a review
 * item and the console's Invariants page.
 *
 * <p>A check walks its table in one fixed order. {@link #check} looks at the rows after {@code after} (the position
 * a previous slice returned; {@code null} starts a pass) and answers where it stopped: a slice with fewer rows than
 * asked for ended the pass, and the next one starts again from the beginning.
 */
public interface InvariantCheck {

    /** The check's name: the metric's {@code check} label and its cursor's key (lower snake case, stable). */
    String name();

    /** The law it guards, in one sentence, for the console. */
    String law();

    /** How many rows a whole pass covers (an estimate will do): the denominator of the console's coverage. */
    long total();

    /**
     * Checks at most {@code limit} rows after {@code after}, in the check's order, in one statement or in one
     * snapshot where it can, so that a slice never sees half of a transaction.
     */
    Slice check(String after, int limit);

    /** Below this many rows (by the planner's estimate) {@link #rowsOf} counts exactly; above, it estimates. */
    long EXACT_BELOW = 100_000;

    /**
     * How many rows {@code table} holds: exact for a small table, the planner's estimate for a large one, whose
     * count would read it all on every tick.
     *
     * @param table a constant table name of the calling module, never input
     */
    static long rowsOf(JdbcClient jdbc, String table) {
        long estimate = jdbc.sql("SELECT GREATEST(reltuples, 0)::bigint FROM pg_class WHERE oid = to_regclass(:t)")
                .param("t", table)
                .query(Long.class)
                .optional()
                .orElse(0L);
        if (estimate >= EXACT_BELOW) {
            return estimate;
        }
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }

    /** The rows of a slice over a table walked by a numeric column: how many, and the last one's value. */
    record Window(int rows, long last) {}

    /**
     * The next slice of a table walked by an increasing numeric column (a log position, an identity): at most
     * {@code limit} rows after {@code after}.
     *
     * @param table a constant table name of the calling module, never input
     * @param column a constant column name of it
     */
    static Window window(JdbcClient jdbc, String table, String column, long after, int limit) {
        return jdbc.sql("SELECT count(*) AS rows, COALESCE(max(c), :after) AS last FROM (SELECT %2$s AS c FROM %1$s"
                                .formatted(table, column)
                        + " WHERE %1$s > :after ORDER BY %1$s LIMIT :limit) s".formatted(column))
                .param("after", after)
                .param("limit", limit)
                .query((rs, n) -> new Window(rs.getInt("rows"), rs.getLong("last")))
                .single();
    }

    /**
     * What one slice looked at and found.
     *
     * <p>Most checks read everything they need in the slice's snapshot. A check that carries state from slice to
     * slice (running sums, say) keeps it in a table of its own on the primary, never on a replica that may lag behind
     * the cursor: its slice reads what it can on the replica and leaves the rest to {@code onPrimary}, which the
     * auditor runs on the primary in the transaction that moves the cursor (so that state and cursor move together,
     * or neither does) and whose answer is the slice as it counts.
     *
     * @param rows how many rows it checked
     * @param last the position of the last row checked (the next slice's {@code after}); null when it checked none
     * @param goesOn the pass goes on although the slice took fewer rows than it could (it moved to another phase)
     * @param onPrimary what is left to do on the primary, answering the slice as it counts; null when nothing is
     */
    record Slice(int rows, String last, List<Finding> findings, boolean goesOn, Supplier<Slice> onPrimary) {

        public Slice {
            findings = List.copyOf(findings);
        }

        /** A slice that read everything it needed in its snapshot. */
        public Slice(int rows, String last, List<Finding> findings) {
            this(rows, last, findings, false, null);
        }

        /** The slice as it counts: what {@code onPrimary} answers; run it on the primary, once. */
        public Slice settled() {
            return onPrimary == null ? this : onPrimary.get().settled();
        }

        /** Whether the pass is over: the slice found fewer rows than it could have taken, and has no phase left. */
        public boolean endsPass(int limit) {
            return !goesOn && rows < limit;
        }
    }

    /**
     * One row that breaks the law.
     *
     * @param subject what is wrong, stable across passes, e.g. {@code payment 0190…} (one finding per subject)
     * @param subjectId the object's own id, when it has one (a payment, an operation, a journal transaction)
     * @param merchant its merchant, when it has one
     * @param payment its payment, when it belongs to one
     * @param detail what the check saw, with the figures
     * @param excuse the review item that would make it no violation (a person has it)
     */
    record Finding(String subject, UUID subjectId, UUID merchant, UUID payment, String detail, Excuse excuse) {

        public Finding {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(detail, "detail");
            Objects.requireNonNull(excuse, "excuse");
        }
    }

    /** Which review item, if one exists, means a person already has the finding's subject in hand. */
    enum Excuse {
        /** Nothing excuses it. */
        NONE,
        /** An {@code exposure} review item of the payment (docs/design.md "Disputes"), open or decided. */
        EXPOSURE_REVIEW,
        /** An open review item about the subject itself or its payment (an unknown outcome parked for a person). */
        OPEN_REVIEW
    }
}
