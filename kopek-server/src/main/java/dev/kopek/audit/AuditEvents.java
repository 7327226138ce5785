package dev.kopek.audit;

import dev.kopek.platform.Db;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** Reads the audit trail, newest first, a page at a time. */
@Service
public class AuditEvents {

    public static final int MAX_LIMIT = 500;

    private final JdbcClient jdbc;

    AuditEvents(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public record Event(
            long seq,
            java.util.UUID id,
            Instant occurredAt,
            String actorKind,
            String actorId,
            String actorName,
            String action,
            String targetType,
            String targetId,
            String requestId,
            String clientIp,
            String before,
            String after) {}

    public record Page(List<Event> events, boolean hasMore) {}

    /**
     * @param actorId only this actor's events, or all
     * @param targetId only events about this object, or all
     * @param beforeSeq the cursor: events older than this one, or from the newest
     */
    public Page page(String actorId, String targetId, Long beforeSeq, int limit) {
        List<Event> rows = jdbc.sql("""
                SELECT seq, id, occurred_at, actor_kind, actor_id, actor_name, action, target_type, target_id,
                       request_id, client_ip, before::text AS before, after::text AS after
                  FROM audit_events
                 WHERE (CAST(:actor AS text) IS NULL OR actor_id = :actor)
                   AND (CAST(:target AS text) IS NULL OR target_id = :target)
                   AND (CAST(:before AS bigint) IS NULL OR seq < :before)
                 ORDER BY seq DESC
                 LIMIT :limit
                """)
                .param("actor", actorId)
                .param("target", targetId)
                .param("before", beforeSeq)
                .param("limit", limit + 1)
                .query((rs, n) -> new Event(
                        rs.getLong("seq"),
                        rs.getObject("id", java.util.UUID.class),
                        Db.instant(rs, "occurred_at"),
                        rs.getString("actor_kind"),
                        rs.getString("actor_id"),
                        rs.getString("actor_name"),
                        rs.getString("action"),
                        rs.getString("target_type"),
                        rs.getString("target_id"),
                        rs.getString("request_id"),
                        rs.getString("client_ip"),
                        rs.getString("before"),
                        rs.getString("after")))
                .list();
        boolean more = rows.size() > limit;
        return new Page(more ? rows.subList(0, limit) : rows, more);
    }
}
