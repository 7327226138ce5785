package dev.kopek.console;

import dev.kopek.platform.Db;
import dev.kopek.platform.LogContext;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** The operators' trail: one append-only row per console action, inside the action's own transaction. */
@Component
public class ActionLog {

    /** One recorded action. */
    public record Entry(long id, String actor, String action, String target, String detail, String requestId,
            String clientIp, Instant at) {
    }

    private final JdbcClient jdbc;
    private final Clock clock;

    ActionLog(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Must run inside the action's transaction: the row commits with the action or not at all. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void record(Operator operator, String action, String target, String detail) {
        jdbc.sql("""
                INSERT INTO operator_actions (actor, action, target, detail, request_id, client_ip, at)
                VALUES (:actor, :action, :target, :detail, :requestId, :ip, :at)
                """)
                .param("actor", operator.name()).param("action", action).param("target", target)
                .param("detail", detail).param("requestId", LogContext.requestId()).param("ip", operator.clientIp())
                .param("at", Db.at(clock.instant())).update();
    }

    public List<Entry> latest(int limit) {
        return jdbc.sql("SELECT * FROM operator_actions ORDER BY at DESC, id DESC LIMIT :limit")
                .param("limit", Math.min(Math.max(limit, 1), 500))
                .query((rs, n) -> new Entry(rs.getLong("id"), rs.getString("actor"), rs.getString("action"),
                        rs.getString("target"), rs.getString("detail"), rs.getString("request_id"),
                        rs.getString("client_ip"), Db.instant(rs, "at")))
                .list();
    }
}
