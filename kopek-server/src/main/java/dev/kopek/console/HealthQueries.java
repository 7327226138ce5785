package dev.kopek.console;

import dev.kopek.platform.ReadReplica;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The numbers an operator and an alert look at, read from the database at the moment they are asked for: the same
 * figures on the console's Health page and at {@code /actuator/prometheus}.
 */
@Component
public class HealthQueries {

    /**
     * Each kind's unknown outcomes: how many, and the oldest change among them. They are found from the unfinished
     * idempotency keys of the kind's key space (few, and indexed by ix_idempotency_keys_recovery and
     * ix_idempotency_keys_unfinished_resource), each joined to its payment or operation by primary key, and never
     * by reading the payments or operations whole: an index on their status would cost every capture and refund
     * its HOT update (V195). An undecided attempt always has such a key; the audit's check
     * undecided_attempts_have_open_keys finds one that does not. A refund's key is its run's (refund.execute, named
     * by the refund's id): its client's key was completed with the 202.
     */
    static final Map<String, String> UNKNOWN_OLDEST = Map.of(
            "payment", unknownOldest("published_payments", "", "payment.create"),
            "capture", unknownOldest("published_payment_operations", " AND r.kind = 'capture'", "payment.capture"),
            "void", unknownOldest("published_payment_operations", " AND r.kind = 'void'", "payment.void"),
            "refund", unknownOldest("published_payment_operations", " AND r.kind = 'refund'", "refund.execute"));

    private static String unknownOldest(String view, String kind, String keySpace) {
        return """
                SELECT count(*) AS n, min(r.updated_at) AS oldest FROM %s r
                 WHERE r.status = 'UNKNOWN'%s
                   AND r.id IN (SELECT resource_id FROM published_idempotency_keys
                                 WHERE status IN ('IN_PROGRESS', 'AWAITING_RESULT') AND operation = '%s')
                """.formatted(view, kind, keySpace);
    }

    /** What a manual-review item can be about: the four operations, a money exposure, an unmatched notification, a
     * violation the production audit found. */
    public static final List<String> REVIEW_SUBJECTS =
            List.of("payment", "capture", "void", "refund", "exposure", "notification", "invariant");

    private final JdbcClient jdbc;
    private final Clock clock;

    /** Health's figures tolerate a replica's few seconds of lag (docs/read-replicas.md). */
    HealthQueries(ReadReplica replica, Clock clock) {
        this.jdbc = replica.jdbc();
        this.clock = clock;
    }

    /** How many operations of a kind wait with an unknown PSP outcome, and the age of the oldest (0 when none). */
    public record Unknowns(long count, double oldestAgeSeconds) {}

    public Unknowns unknowns(String kind) {
        String sql = UNKNOWN_OLDEST.get(kind);
        if (sql == null) {
            throw new IllegalArgumentException("no such kind: " + kind);
        }
        return jdbc.sql(sql)
                .query((rs, n) ->
                        new Unknowns(rs.getLong("n"), ageSeconds(rs.getObject("oldest", OffsetDateTime.class))))
                .single();
    }

    public long openReviews() {
        return jdbc.sql("SELECT count(*) FROM published_manual_reviews WHERE status = 'OPEN'")
                .query(Long.class)
                .single();
    }

    public long openReviews(String kind) {
        return jdbc.sql("SELECT count(*) FROM published_manual_reviews WHERE status = 'OPEN' AND subject = :kind")
                .param("kind", kind)
                .query(Long.class)
                .single();
    }

    /**
     * Seconds the merchant feed is behind: the age of the oldest event that {@code GET /v1/events} cannot serve
     * yet, because a transaction older than it is still running (the feed never skips a late commit).
     */
    public double feedLagSeconds() {
        return ageSeconds(jdbc.sql("""
                SELECT min(created_at) FROM published_outbox
                 WHERE tx_id >= pg_snapshot_xmin(pg_current_snapshot())::text::bigint
                """).query(OffsetDateTime.class).optional().orElse(null));
    }

    /** Seconds the oldest webhook delivery that is still due has waited since its event. */
    public double webhookLagSeconds() {
        return ageSeconds(jdbc.sql("SELECT min(created_at) FROM published_webhook_deliveries WHERE status = 'PENDING'")
                .query(OffsetDateTime.class)
                .optional()
                .orElse(null));
    }

    /** Deliveries given up on (the endpoint failed for the whole retry window): the dead letters. */
    public long deadLetters() {
        return jdbc.sql("SELECT count(*) FROM published_webhook_deliveries WHERE status = 'FAILED'")
                .query(Long.class)
                .single();
    }

    public long disabledEndpoints() {
        return jdbc.sql("SELECT count(*) FROM published_webhook_endpoints WHERE status = 'DISABLED'")
                .query(Long.class)
                .single();
    }

    /** Settlement breaks reported (seen by two consecutive runs) and not yet acknowledged or resolved. */
    public long reportedBreaks() {
        return jdbc.sql("SELECT count(*) FROM published_recon_breaks WHERE status = 'REPORTED'")
                .query(Long.class)
                .single();
    }

    private double ageSeconds(OffsetDateTime oldest) {
        return oldest == null
                ? 0.0
                : Math.max(0, clock.millis() - oldest.toInstant().toEpochMilli()) / 1000.0;
    }
}
