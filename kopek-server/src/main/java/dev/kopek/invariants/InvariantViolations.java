package dev.kopek.invariants;

import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import dev.kopek.platform.InvariantCheck.Finding;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * What the checks found: one row per check and subject, seen again or cleared by later passes. The current ones
 * (not cleared) are what the metric counts and the console and ops endpoint list.
 */
@Repository
class InvariantViolations {

    private final JdbcClient jdbc;
    private final Clock clock;

    InvariantViolations(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A violation as recorded; {@code fresh} when this sighting made it current (new, or back after a clear). */
    record Recorded(UUID id, boolean fresh) {}

    Recorded record(String check, long pass, Finding f) {
        Instant now = clock.instant();
        return jdbc.sql("""
                WITH before AS (
                    SELECT cleared_at FROM invariant_violations WHERE check_name = :check AND subject = :subject
                ),
                seen AS (
                    INSERT INTO invariant_violations AS v (id, check_name, subject, subject_id, merchant_id,
                                                           payment_id, detail, first_seen_at, last_seen_at,
                                                           last_seen_pass)
                    VALUES (:id, :check, :subject, :subjectId, :merchant, :payment, :detail, :now, :now, :pass)
                    ON CONFLICT (check_name, subject) DO UPDATE
                       SET detail = EXCLUDED.detail, last_seen_at = EXCLUDED.last_seen_at,
                           last_seen_pass = EXCLUDED.last_seen_pass, cleared_at = NULL,
                           first_seen_at = CASE WHEN v.cleared_at IS NULL THEN v.first_seen_at
                                                ELSE EXCLUDED.first_seen_at END
                    RETURNING id
                )
                SELECT id, NOT EXISTS (SELECT 1 FROM before WHERE cleared_at IS NULL) AS fresh FROM seen
                """)
                .param("id", TimeOrderedIds.next(clock))
                .param("check", check)
                .param("subject", clip(f.subject(), 200))
                .param("subjectId", f.subjectId())
                .param("merchant", f.merchant())
                .param("payment", f.payment())
                .param("detail", clip(f.detail(), 1000))
                .param("now", Db.at(now))
                .param("pass", pass)
                .query((rs, n) -> new Recorded(rs.getObject("id", UUID.class), rs.getBoolean("fresh")))
                .single();
    }

    /** After a pass: what it did not find again is no longer current. */
    int clearUnseen(String check, long pass) {
        return jdbc.sql("""
                UPDATE invariant_violations SET cleared_at = :now
                 WHERE check_name = :check AND cleared_at IS NULL AND last_seen_pass < :pass
                """)
                .param("now", Db.at(clock.instant()))
                .param("check", check)
                .param("pass", pass)
                .update();
    }

    /** Current violations per check. */
    Map<String, Long> currentCounts() {
        Map<String, Long> counts = new HashMap<>();
        jdbc.sql("SELECT check_name, count(*) AS n FROM invariant_violations WHERE cleared_at IS NULL GROUP BY 1")
                .query(rs -> {
                    counts.put(rs.getString("check_name"), rs.getLong("n"));
                });
        return counts;
    }

    /** The newest current violations, at most {@code limit}. */
    List<Invariants.Violation> current(int limit) {
        return jdbc.sql("""
                SELECT * FROM invariant_violations WHERE cleared_at IS NULL
                 ORDER BY last_seen_at DESC, id LIMIT :limit
                """)
                .param("limit", limit)
                .query(InvariantViolations::map)
                .list();
    }

    private static Invariants.Violation map(ResultSet rs, int row) throws SQLException {
        return new Invariants.Violation(
                rs.getObject("id", UUID.class),
                rs.getString("check_name"),
                rs.getString("subject"),
                rs.getObject("merchant_id", UUID.class),
                rs.getObject("payment_id", UUID.class),
                rs.getString("detail"),
                Db.instant(rs, "first_seen_at"),
                Db.instant(rs, "last_seen_at"));
    }

    private static String clip(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
