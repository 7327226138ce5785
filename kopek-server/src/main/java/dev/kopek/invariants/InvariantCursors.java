package dev.kopek.invariants;

import dev.kopek.platform.Db;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Each check's place in its walk: leased by one instance at a time with a conditional UPDATE (a dead instance's
 * lease simply expires), moved on after a slice, and wrapped to the start with a new pass number when a slice ends
 * the walk.
 */
@Repository
class InvariantCursors {

    private final JdbcClient jdbc;
    private final Clock clock;

    InvariantCursors(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A leased cursor: where the check stands and the token that lets its holder move it. */
    record Lease(String check, UUID token, String position, long pass) {}

    /** Leases the check's cursor unless another instance holds it. */
    Optional<Lease> lease(String check, Duration duration) {
        Instant now = clock.instant();
        jdbc.sql("INSERT INTO invariant_cursors (check_name, pass_started_at) VALUES (:check, :now)"
                        + " ON CONFLICT (check_name) DO NOTHING")
                .param("check", check)
                .param("now", Db.at(now))
                .update();
        UUID token = UUID.randomUUID();
        return jdbc.sql("""
                UPDATE invariant_cursors SET leased_until = :until, lease_token = :token
                 WHERE check_name = :check AND (leased_until IS NULL OR leased_until < :now)
                RETURNING position, pass
                """)
                .param("until", Db.at(now.plus(duration)))
                .param("token", token)
                .param("check", check)
                .param("now", Db.at(now))
                .query((rs, n) -> new Lease(check, token, rs.getString("position"), rs.getLong("pass")))
                .optional();
    }

    /**
     * Records a slice and gives the lease back: the cursor moves to {@code position}, or, when the slice ended the
     * walk, the pass is recorded as complete and the next one starts at the beginning. False: the lease was lost.
     */
    boolean advance(Lease lease, String position, int rows, int found, boolean endsPass, long total) {
        return jdbc.sql("""
                UPDATE invariant_cursors
                   SET position = CASE WHEN :ends THEN NULL ELSE :position END,
                       pass = pass + CASE WHEN :ends THEN 1 ELSE 0 END,
                       pass_rows = CASE WHEN :ends THEN 0 ELSE pass_rows + :rows END,
                       last_pass_rows = CASE WHEN :ends THEN pass_rows + :rows ELSE last_pass_rows END,
                       last_pass_started_at = CASE WHEN :ends THEN pass_started_at ELSE last_pass_started_at END,
                       last_pass_finished_at = CASE WHEN :ends THEN :now ELSE last_pass_finished_at END,
                       pass_started_at = CASE WHEN :ends THEN :now ELSE pass_started_at END,
                       total_rows = :total, last_run_at = :now, last_run_rows = :rows, last_run_found = :found,
                       leased_until = NULL, lease_token = NULL
                 WHERE check_name = :check AND lease_token = :token
                """)
                        .param("ends", endsPass)
                        .param("position", position)
                        .param("rows", rows)
                        .param("found", found)
                        .param("total", total)
                        .param("now", Db.at(clock.instant()))
                        .param("check", lease.check())
                        .param("token", lease.token())
                        .update()
                == 1;
    }

    /** Every cursor by check name, as the console and the ops endpoint show them. */
    Map<String, Invariants.Cursor> all() {
        Map<String, Invariants.Cursor> cursors = new HashMap<>();
        jdbc.sql("SELECT * FROM invariant_cursors").query(rs -> {
            cursors.put(
                    rs.getString("check_name"),
                    new Invariants.Cursor(
                            rs.getString("position"),
                            rs.getLong("pass"),
                            rs.getLong("pass_rows"),
                            rs.getLong("total_rows"),
                            Db.instant(rs, "pass_started_at"),
                            Db.instant(rs, "last_run_at"),
                            rs.getInt("last_run_rows"),
                            rs.getInt("last_run_found"),
                            Db.instant(rs, "last_pass_started_at"),
                            Db.instant(rs, "last_pass_finished_at"),
                            rs.getObject("last_pass_rows", Long.class)));
        });
        return cursors;
    }

    /** Gives a lease back without moving (the slice failed; the next tick tries the same rows again). */
    void release(Lease lease) {
        jdbc.sql("UPDATE invariant_cursors SET leased_until = NULL, lease_token = NULL"
                        + " WHERE check_name = :check AND lease_token = :token")
                .param("check", lease.check())
                .param("token", lease.token())
                .update();
    }
}
