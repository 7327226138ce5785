package dev.kopek.outbox.store;

import dev.kopek.events.BusinessEvent;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The outbox table: append in the business transaction, claim and mark for the relay, page for the feed. */
@Repository
public class OutboxStore {

    private final JdbcClient jdbc;

    OutboxStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Appends the event and, in the same statement, one pending webhook delivery per enabled endpoint of the
     * merchant subscribed to its type: one round trip per event instead of a lookup plus one insert per endpoint.
     * A data-modifying CTE always runs to completion, so the event is written whether or not any endpoint matches.
     * Delivery ids are UUID version 7 made from the event's time (Kopek's clock), as {@code TimeOrderedIds} would.
     */
    void insert(UUID id, BusinessEvent event, String envelope) {
        jdbc.sql("WITH event AS (" + EVENT.formatted("VALUES (" + EVENT_VALUES + ")") + ")\n" + DELIVERIES)
                .params(params(id, event, envelope))
                .update();
    }

    /** {@link #insert}'s two writes as CTEs of another statement, once for each row of its CTE {@code source}. */
    SqlPart appendPart(UUID id, BusinessEvent event, String envelope, String source) {
        return new SqlPart(
                "event AS (" + EVENT.formatted("SELECT " + EVENT_VALUES + " FROM " + source)
                        + "), event_deliveries AS (" + DELIVERIES + ")",
                params(id, event, envelope));
    }

    /** The rows {@link #appendEachPart} writes: each event with its id and rendered envelope. */
    record Appended(UUID id, BusinessEvent event, String envelope) {}

    /**
     * {@link #appendPart} for many events in one statement: each event, with its webhook deliveries, only if the
     * CTE {@code source} has a row whose {@code id} is the event's resource id.
     */
    SqlPart appendEachPart(List<Appended> events, String source) {
        int n = events.size();
        UUID[] ids = new UUID[n];
        String[] types = new String[n];
        String[] resourceTypes = new String[n];
        UUID[] resourceIds = new UUID[n];
        String[] publicIds = new String[n];
        long[] sequences = new long[n];
        UUID[] merchants = new UUID[n];
        String[] envelopes = new String[n];
        String[] ats = new String[n];
        for (int i = 0; i < n; i++) {
            BusinessEvent event = events.get(i).event();
            ids[i] = events.get(i).id();
            types[i] = event.type();
            resourceTypes[i] = event.resourceType();
            resourceIds[i] = event.resourceId();
            publicIds[i] = event.publicId();
            sequences[i] = event.sequence();
            merchants[i] = event.merchant().value();
            envelopes[i] = events.get(i).envelope();
            ats[i] = Db.micros(event.occurredAt()).toString(); // ISO-8601 text: nothing rounded on the way
        }
        Map<String, Object> params = new HashMap<>();
        params.put("evs_id", ids);
        params.put("evs_type", types);
        params.put("evs_resourceType", resourceTypes);
        params.put("evs_resourceId", resourceIds);
        params.put("evs_publicId", publicIds);
        params.put("evs_sequence", sequences);
        params.put("evs_merchant", merchants);
        params.put("evs_envelope", envelopes);
        params.put("evs_at", ats);
        return new SqlPart(
                "event AS (" + EVENT.formatted(EVENTS_EACH.formatted(source)) + "), event_deliveries AS ("
                        + DELIVERIES_EACH + ")",
                params);
    }

    private static final String EVENTS_EACH = """
            SELECT e.id, e.type, e.resource_type, e.resource_id, e.public_id, e.sequence, e.merchant, e.envelope, e.at
              FROM unnest(CAST(:evs_id AS uuid[]), CAST(:evs_type AS text[]), CAST(:evs_resourceType AS text[]),
                          CAST(:evs_resourceId AS uuid[]), CAST(:evs_publicId AS text[]),
                          CAST(:evs_sequence AS bigint[]), CAST(:evs_merchant AS uuid[]),
                          CAST(:evs_envelope AS text[]), CAST(:evs_at AS timestamptz[]))
                   AS e(id, type, resource_type, resource_id, public_id, sequence, merchant, envelope, at)
             WHERE e.resource_id IN (SELECT id FROM %s)""";
    /**
     * A delivery's id: a UUID version 7 whose first 48 bits are the milliseconds of the timestamptz {@code %s} (the
     * event's time), as {@code TimeOrderedIds} makes them, and the rest random with the version and variant bits set.
     */
    private static final String DELIVERY_ID = """
            encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                       PLACING substring(int8send((extract(epoch FROM %s) * 1000)::bigint) FROM 3)
                       FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid""";

    private static final String DELIVERIES_EACH = """
            INSERT INTO webhook_deliveries (id, endpoint_id, merchant_id, event_id, status, next_attempt_at,
                                            created_at, updated_at)
            SELECT %s,
                   w.id, w.merchant_id, event.id, 'PENDING', event.created_at, event.created_at, event.created_at
              FROM event JOIN webhook_endpoints w ON w.merchant_id = event.merchant_id
             WHERE w.status = 'ENABLED' AND (event.event_type = ANY (w.event_types) OR '*' = ANY (w.event_types))
            """.formatted(DELIVERY_ID.formatted("event.created_at"));

    private static final String EVENT = """
            INSERT INTO outbox (id, event_type, resource_type, resource_id, public_id, sequence, merchant_id,
                                envelope, created_at)
            %s
            RETURNING id, merchant_id, event_type, created_at
            """;
    private static final String EVENT_VALUES = "CAST(:ev_id AS uuid), :ev_type, :ev_resourceType, "
            + "CAST(:ev_resourceId AS uuid), :ev_publicId, :ev_sequence, CAST(:ev_merchant AS uuid), :ev_envelope, "
            + "CAST(:ev_at AS timestamptz)";
    private static final String DELIVERIES = """
            INSERT INTO webhook_deliveries (id, endpoint_id, merchant_id, event_id, status, next_attempt_at,
                                            created_at, updated_at)
            SELECT %s,
                   e.id, e.merchant_id, event.id, 'PENDING', :ev_at, :ev_at, :ev_at
              FROM webhook_endpoints e, event
             WHERE e.merchant_id = :ev_merchant AND e.status = 'ENABLED'
               AND (:ev_type = ANY (e.event_types) OR '*' = ANY (e.event_types))
            """.formatted(DELIVERY_ID.formatted("CAST(:ev_at AS timestamptz)"));

    private static Map<String, Object> params(UUID id, BusinessEvent event, String envelope) {
        Map<String, Object> params = new HashMap<>();
        params.put("ev_id", id);
        params.put("ev_type", event.type());
        params.put("ev_resourceType", event.resourceType());
        params.put("ev_resourceId", event.resourceId());
        params.put("ev_publicId", event.publicId());
        params.put("ev_sequence", event.sequence());
        params.put("ev_merchant", event.merchant().value());
        params.put("ev_envelope", envelope);
        params.put("ev_at", Db.at(event.occurredAt()));
        return params;
    }

    /**
     * Claims up to {@code limit} unpublished rows for the caller's transaction, keeping each resource's order
     * whatever other relays do at the same time.
     *
     * <p>A relay first locks, with {@code SKIP LOCKED}, only the <em>head</em> of each resource: its earliest
     * unpublished row. Another relay cannot take that head (it is locked) nor any later row of the resource (it
     * is not a head while the head is unpublished), so it skips the whole resource. The lock holder then adds the
     * resource's later unpublished rows. Rows come back in log order, which for one resource is its change order;
     * cutting the list at {@code limit} keeps a prefix of each resource. A resource is its (resource_type,
     * resource_id): its rows are found through the outbox's unique key (V165), filtered on published_at.
     */
    public List<OutboxRow> claimBatch(int limit) {
        return jdbc.sql("""
                WITH heads AS MATERIALIZED (
                    SELECT o.resource_type, o.resource_id
                      FROM outbox o
                     WHERE o.published_at IS NULL
                       AND NOT EXISTS (SELECT 1 FROM outbox earlier
                                        WHERE earlier.resource_type = o.resource_type
                                          AND earlier.resource_id = o.resource_id
                                          AND earlier.published_at IS NULL
                                          AND earlier.log_position < o.log_position)
                     ORDER BY o.log_position
                     LIMIT :limit
                       FOR UPDATE OF o SKIP LOCKED
                )
                SELECT o.id, o.event_type, o.resource_id, o.public_id, o.sequence, o.envelope, o.created_at
                  FROM outbox o
                 WHERE (o.resource_type, o.resource_id) IN (SELECT resource_type, resource_id FROM heads)
                   AND o.published_at IS NULL
                 ORDER BY o.log_position
                 LIMIT :limit
                   FOR UPDATE OF o
                """).param("limit", limit).query(OutboxStore::row).list();
    }

    public int markPublished(List<UUID> ids, Instant at) {
        if (ids.isEmpty()) {
            return 0;
        }
        return jdbc.sql("UPDATE outbox SET published_at = :at WHERE id IN (:ids) AND published_at IS NULL")
                .param("at", Db.at(at))
                .param("ids", ids)
                .update();
    }

    /**
     * Marks the rows published, like {@link #markPublished}, and returns how many of {@code ids} are now marked,
     * by this statement or earlier. A row this statement cannot see is not counted: one whose transaction has not
     * finished committing yet, or one deleted since.
     */
    public int markPublishedAndCount(List<UUID> ids, Instant at) {
        if (ids.isEmpty()) {
            return 0;
        }
        // The outer SELECT sees the table as it was before the UPDATE: a row is counted by one of the two.
        return jdbc.sql("""
                WITH marked AS (
                    UPDATE outbox SET published_at = :at WHERE id IN (:ids) AND published_at IS NULL RETURNING id
                )
                SELECT (SELECT count(*) FROM marked)
                     + (SELECT count(*) FROM outbox WHERE id IN (:ids) AND published_at IS NOT NULL)
                """)
                .param("at", Db.at(at))
                .param("ids", ids)
                .query(Integer.class)
                .single();
    }

    /**
     * Assigns a transaction id and returns it. A transaction gets its id at its first write, so every transaction
     * that had written anything before this call has a smaller one.
     */
    public long newTransactionId() {
        return jdbc.sql("SELECT pg_current_xact_id()::text::bigint")
                .query(Long.class)
                .single();
    }

    /** True once every transaction with an id up to {@code xid} has ended and is visible to a new snapshot. */
    public boolean endedThrough(long xid) {
        return jdbc.sql("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint > :xid")
                .param("xid", xid)
                .query(Boolean.class)
                .single();
    }

    /** A page of a merchant's events after a position, in a stable order (see {@link FeedPosition}). */
    public List<FeedEntry> feed(MerchantId merchant, FeedPosition after, int limit) {
        return jdbc.sql("""
                SELECT tx_id, log_position, envelope
                  FROM outbox
                 WHERE merchant_id = :merchant
                   AND (tx_id, log_position) > (:afterTx, :afterPosition)
                   AND tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
                 ORDER BY tx_id, log_position
                 LIMIT :limit
                """)
                .param("merchant", merchant.value())
                .param("afterTx", after.txId())
                .param("afterPosition", after.logPosition())
                .param("limit", limit)
                .query((rs, n) -> new FeedEntry(
                        new FeedPosition(rs.getLong("tx_id"), rs.getLong("log_position")), rs.getString("envelope")))
                .list();
    }

    /**
     * Deletes up to {@code batch} of the oldest events written before {@code before} that Kafka has acknowledged
     * (or all, when there is no Kafka) and that no webhook delivery still waits for; their deliveries and
     * attempts go with them.
     */
    public int deleteExpired(Instant before, boolean kafkaConfigured, int batch) {
        return jdbc.sql("""
                DELETE FROM outbox WHERE id IN (
                    SELECT o.id FROM outbox o
                     WHERE o.created_at < :before AND (o.published_at IS NOT NULL OR NOT :kafka)
                       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                                        WHERE d.event_id = o.id AND d.status = 'PENDING')
                     ORDER BY o.log_position
                     LIMIT :batch)
                """)
                .param("before", Db.at(before))
                .param("kafka", kafkaConfigured)
                .param("batch", batch)
                .update();
    }

    public Optional<Instant> oldestUnpublished() {
        return jdbc.sql("""
                SELECT created_at FROM outbox WHERE published_at IS NULL ORDER BY log_position LIMIT 1
                """).query((rs, n) -> Db.instant(rs, "created_at")).optional();
    }

    public long unpublishedCount() {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE published_at IS NULL")
                .query(Long.class)
                .single();
    }

    private static OutboxRow row(ResultSet rs, int n) throws SQLException {
        return new OutboxRow(
                rs.getObject("id", UUID.class),
                rs.getString("event_type"),
                rs.getObject("resource_id", UUID.class),
                rs.getString("public_id"),
                rs.getLong("sequence"),
                rs.getString("envelope"),
                Db.instant(rs, "created_at"));
    }

    /**
     * Where an event sits in the feed. Ordering by the writing transaction first, and showing only transactions
     * older than every one still running, means a transaction that commits late can never land behind a position
     * a reader has already passed.
     */
    public record FeedPosition(long txId, long logPosition) {
        public static final FeedPosition START = new FeedPosition(0, 0);
    }

    public record FeedEntry(FeedPosition position, String envelope) {}
}
