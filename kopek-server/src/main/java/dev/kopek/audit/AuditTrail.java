package dev.kopek.audit;

import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records who did what. An event is written in the transaction of the action it records, so the two commit
 * together or not at all: {@link #record} refuses to run outside a transaction, and {@link #inTransaction} runs an
 * action and its recording in one. The table refuses UPDATE, DELETE and TRUNCATE (V40).
 *
 * <pre>{@code
 * return audit.inTransaction(status -> {
 *     Fee before = ...; Fee after = queries.setFee(...);
 *     audit.record(actor, "fee.changed", "merchant", merchant.toString(), json(before), json(after));
 *     return after;
 * });
 * }</pre>
 */
@Service
public class AuditTrail {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final Clock clock;
    private final TransactionTemplate tx;

    AuditTrail(JdbcClient jdbc, Clock clock, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.tx = tx;
    }

    /**
     * Appends one event inside the caller's transaction.
     *
     * @param action a dotted verb, {@code object.past_tense}: {@code merchant.created}, {@code fee.changed}
     * @param targetType what kind of object: {@code merchant}, {@code api_key}, {@code manual_review}, …
     * @param targetId its public id ({@code mer_…}) or natural key (a settlement date)
     * @param before a summary of the object before the action (null when it did not exist); never a secret
     * @param after a summary after the action (null when it is gone); never a secret
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void record(
            Actor actor,
            String action,
            String targetType,
            String targetId,
            Map<String, ?> before,
            Map<String, ?> after) {
        Objects.requireNonNull(actor, "actor");
        jdbc.sql("""
                INSERT INTO audit_events (id, occurred_at, actor_kind, actor_id, actor_name, action, target_type,
                                          target_id, request_id, client_ip, before, after)
                VALUES (:id, :at, :kind, :actorId, :actorName, :action, :targetType, :targetId, :requestId,
                        :clientIp, CAST(:before AS jsonb), CAST(:after AS jsonb))
                """)
                .param("id", TimeOrderedIds.next(clock))
                .param("at", Db.at(clock.instant()))
                .param("kind", actor.kind().name().toLowerCase(java.util.Locale.ROOT))
                .param("actorId", actor.id())
                .param("actorName", clip(actor.name(), Actor.MAX_NAME))
                .param("action", action)
                .param("targetType", targetType)
                .param("targetId", clip(targetId, 100))
                .param("requestId", actor.requestId())
                .param("clientIp", clip(actor.clientIp(), 64))
                .param("before", before == null ? null : JSON.writeValueAsString(before))
                .param("after", after == null ? null : JSON.writeValueAsString(after))
                .update();
    }

    /**
     * Runs an action and the {@link #record} calls it makes in one transaction. Services the action calls join it
     * (propagation REQUIRED); the action must not call a PSP or any other network service (L3). Mark the status
     * rollback-only to undo a refused action and record nothing.
     */
    public <T> T inTransaction(Function<TransactionStatus, T> action) {
        return tx.execute(action::apply);
    }

    private static String clip(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
