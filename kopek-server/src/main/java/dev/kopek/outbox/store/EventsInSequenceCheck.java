package dev.kopek.outbox.store;

import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * L9's order in production: each resource's events are numbered without a gap, and their log order is their
 * sequence order (the relay publishes in log order, so a reversal would reach consumers out of order). Walks the
 * outbox by log position; each slice checks every resource it meets, all of that resource's kept events. The
 * retention cleanup deletes a resource's oldest events first, so a kept run may start above 1 but never has a hole.
 */
@Component
class EventsInSequenceCheck implements InvariantCheck {

    private final JdbcClient jdbc;

    EventsInSequenceCheck(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String name() {
        return "events_in_sequence";
    }

    @Override
    public String law() {
        return "L9: each resource's events are numbered without a gap, in log order";
    }

    @Override
    public long total() {
        return InvariantCheck.rowsOf(jdbc, "outbox");
    }

    @Override
    public Slice check(String after, int limit) {
        Window slice = InvariantCheck.window(
                jdbc, "outbox", "log_position", after == null ? 0L : Long.parseLong(after), limit);
        if (slice.rows() == 0) {
            return new Slice(0, null, List.of());
        }
        List<Finding> findings = new ArrayList<>();
        jdbc.sql("""
                WITH resources AS (
                    SELECT DISTINCT resource_type, resource_id FROM outbox
                     WHERE log_position > :after AND log_position <= :last
                ),
                events AS (
                    SELECT o.resource_type, o.resource_id, o.merchant_id, o.sequence, o.log_position,
                           lag(o.log_position) OVER (PARTITION BY o.resource_type, o.resource_id
                                                      ORDER BY o.sequence) AS previous
                      FROM outbox o JOIN resources r USING (resource_type, resource_id)
                )
                SELECT resource_type, resource_id, min(merchant_id::text) AS merchant, min(sequence) AS first,
                       max(sequence) AS last, count(*) AS events,
                       count(*) FILTER (WHERE log_position < previous) AS reversed
                  FROM events
                 GROUP BY resource_type, resource_id
                HAVING count(*) <> max(sequence) - min(sequence) + 1
                    OR count(*) FILTER (WHERE log_position < previous) > 0
                """)
                .param("after", after == null ? 0L : Long.parseLong(after))
                .param("last", slice.last())
                .query(rs -> {
                    UUID resource = rs.getObject("resource_id", UUID.class);
                    String type = rs.getString("resource_type");
                    findings.add(new Finding(
                            type + " " + resource + " events",
                            resource,
                            UUID.fromString(rs.getString("merchant")),
                            null,
                            type + " " + resource + " has " + rs.getLong("events") + " events numbered "
                                    + rs.getLong("first") + ".." + rs.getLong("last") + ", "
                                    + rs.getLong("reversed") + " of them before an earlier one in the log",
                            Excuse.NONE));
                });
        return new Slice(slice.rows(), Long.toString(slice.last()), findings);
    }
}
