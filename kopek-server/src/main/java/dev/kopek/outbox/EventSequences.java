package dev.kopek.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The outbox's answer to "has every change of these resources its event?" for the modules that own the resources
 * (issue 26 §2): they read their rows' versions, the outbox reads its own table, and neither reads the other's.
 */
@Service
public class EventSequences {

    /** Leeway past the retention: a cleanup pass may be running a little ahead of the clock that set it. */
    private static final Duration CLEANUP_LEEWAY = Duration.ofHours(1);

    private final JdbcClient jdbc;
    private final OutboxProperties properties;
    private final Clock clock;

    EventSequences(JdbcClient jdbc, OutboxProperties properties, Clock clock) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.clock = clock;
    }

    /** The highest event sequence of each resource of that type that has events (absent: none are kept). */
    public Map<UUID, Long> last(String resourceType, Collection<UUID> ids) {
        Map<UUID, Long> last = new HashMap<>();
        if (ids.isEmpty()) {
            return last;
        }
        jdbc.sql("""
                SELECT r.id, (SELECT max(o.sequence) FROM outbox o
                               WHERE o.resource_type = :type AND o.resource_id = r.id) AS last
                  FROM unnest(CAST(:ids AS uuid[])) AS r (id)
                """)
                .param("type", resourceType)
                .param("ids", ids.toArray(UUID[]::new))
                .query(rs -> {
                    long sequence = rs.getLong("last");
                    if (!rs.wasNull()) {
                        last.put(rs.getObject("id", UUID.class), sequence);
                    }
                });
        return last;
    }

    /** A resource last changed before this may have had all its events deleted by the retention cleanup. */
    public Instant keptSince() {
        return clock.instant().minus(properties.retention()).plus(CLEANUP_LEEWAY);
    }
}
