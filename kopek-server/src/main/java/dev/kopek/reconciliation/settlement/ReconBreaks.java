package dev.kopek.reconciliation.settlement;

import dev.kopek.platform.Db;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reading breaks (the ops API, gauges) and the few single-row changes made to them outside a pass. */
@Repository
public class ReconBreaks {

    public static final int MAX_LIMIT = 500;
    private static final List<String> OPEN = List.of(BreakStatus.CANDIDATE.name(), BreakStatus.REPORTED.name());

    private final JdbcClient jdbc;
    private final Clock clock;

    ReconBreaks(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Breaks in the given statuses, optionally of one type and one settlement date; newest date first.
     *
     * @param type null for every type
     * @param date null for every date
     */
    public List<ReconBreak> list(BreakType type, Collection<BreakStatus> statuses, LocalDate date, int limit) {
        if (statuses.isEmpty() || limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("statuses must not be empty and limit 1–" + MAX_LIMIT);
        }
        return jdbc.sql("""
                SELECT * FROM recon_breaks
                 WHERE status IN (:statuses)
                   AND (CAST(:type AS TEXT) IS NULL OR type = CAST(:type AS TEXT))
                   AND (CAST(:date AS DATE) IS NULL OR settlement_date = CAST(:date AS DATE))
                 ORDER BY settlement_date DESC, created_at, id
                 LIMIT :limit
                """)
                .param("statuses", statuses.stream().map(Enum::name).toList())
                .param("type", type == null ? null : type.name())
                .param("date", date)
                .param("limit", limit)
                .query(ReconBreaks::map)
                .list();
    }

    /** What became of a person's decision on a break. */
    public sealed interface Decision {
        record Done(ReconBreak reconBreak) implements Decision {}

        record NotOpen(ReconBreak reconBreak) implements Decision {}

        record NotFound() implements Decision {}
    }

    public Optional<ReconBreak> find(UUID id) {
        return jdbc.sql("SELECT * FROM recon_breaks WHERE id = :id")
                .param("id", id)
                .query(ReconBreaks::map)
                .optional();
    }

    /** Marks an open break as seen by {@code actor}; it stays open and later passes still match it. */
    public Decision acknowledge(UUID id, String actor, String note) {
        return decide(
                id,
                jdbc.sql("""
                UPDATE recon_breaks
                   SET acknowledged_at = :now, acknowledged_by = :actor, acknowledged_note = :note, updated_at = :now
                 WHERE id = :id AND status IN (:open)
                RETURNING *
                """)
                        .param("id", id)
                        .param("actor", actor)
                        .param("note", note)
                        .param("open", OPEN)
                        .param("now", Db.at(clock.instant()))
                        .query(ReconBreaks::map)
                        .optional());
    }

    /**
     * Closes an open break with {@code note} as its resolution: the person has settled the difference outside
     * Kopek's automatic paths (a correcting entry, a PSP ticket) and says what was done.
     */
    public Decision resolve(UUID id, String actor, String note) {
        return decide(
                id,
                jdbc.sql("""
                UPDATE recon_breaks
                   SET status = 'RESOLVED', closed_at = :now, resolution = :note, resolved_by = :actor,
                       updated_at = :now
                 WHERE id = :id AND status IN (:open)
                RETURNING *
                """)
                        .param("id", id)
                        .param("actor", actor)
                        .param("note", note)
                        .param("open", OPEN)
                        .param("now", Db.at(clock.instant()))
                        .query(ReconBreaks::map)
                        .optional());
    }

    private Decision decide(UUID id, Optional<ReconBreak> changed) {
        if (changed.isPresent()) {
            return new Decision.Done(changed.get());
        }
        return find(id).<Decision>map(Decision.NotOpen::new).orElseGet(Decision.NotFound::new);
    }

    public long count(BreakType type, BreakStatus status) {
        return jdbc.sql("SELECT count(*) FROM recon_breaks WHERE type = :type AND status = :status")
                .param("type", type.name())
                .param("status", status.name())
                .query(Long.class)
                .single();
    }

    /** Open charges of that date the PSP settled and Kopek has no object for: each may be an unknown attempt. */
    List<ReconBreak> openMissingCharges(String provider, LocalDate date, int limit) {
        return jdbc.sql("""
                SELECT * FROM recon_breaks
                 WHERE provider = :provider AND settlement_date = :date AND type = 'MISSING_INTERNAL'
                   AND movement = 'charge' AND status IN (:open)
                 ORDER BY created_at, id
                 LIMIT :limit
                """)
                .param("provider", provider)
                .param("date", date)
                .param("open", OPEN)
                .param("limit", limit)
                .query(ReconBreaks::map)
                .list();
    }

    /**
     * Notes which of Kopek's payments the PSP says made the charge, so an operator sees it even while the attempt
     * cannot be settled yet (its grace not over, or parked for a person).
     */
    void attribute(UUID breakId, UUID paymentId, UUID merchantId, String status) {
        jdbc.sql("""
                UPDATE recon_breaks
                   SET internal_kind = 'payment', internal_id = :payment, payment_id = :payment,
                       merchant_id = :merchant, internal_status = :status, updated_at = :now
                 WHERE id = :id AND status IN (:open)
                """)
                .param("payment", paymentId)
                .param("merchant", merchantId)
                .param("status", status)
                .param("now", Db.at(clock.instant()))
                .param("id", breakId)
                .param("open", OPEN)
                .update();
    }

    /** Closes an open break whose cause was fixed; false when it was closed meanwhile. */
    boolean resolve(UUID breakId, String resolution) {
        return jdbc.sql("""
                UPDATE recon_breaks
                   SET status = 'RESOLVED', closed_at = :now, updated_at = :now, resolution = :resolution
                 WHERE id = :id AND status IN (:open)
                """)
                        .param("now", Db.at(clock.instant()))
                        .param("resolution", resolution)
                        .param("id", breakId)
                        .param("open", OPEN)
                        .update()
                == 1;
    }

    void countResolved(UUID runId, int resolved) {
        jdbc.sql("UPDATE settlement_runs SET resolved = resolved + :resolved WHERE id = :run")
                .param("resolved", resolved)
                .param("run", runId)
                .update();
    }

    private static ReconBreak map(ResultSet rs, int row) throws SQLException {
        return new ReconBreak(
                rs.getObject("id", UUID.class),
                rs.getString("provider"),
                rs.getObject("settlement_date", LocalDate.class),
                BreakType.valueOf(rs.getString("type")),
                BreakStatus.valueOf(rs.getString("status")),
                rs.getString("psp_reference"),
                rs.getString("movement"),
                rs.getString("psp_type"),
                rs.getObject("psp_amount", Long.class),
                rs.getString("psp_currency"),
                rs.getString("internal_kind"),
                rs.getObject("internal_id", UUID.class),
                rs.getObject("payment_id", UUID.class),
                rs.getObject("merchant_id", UUID.class),
                rs.getString("internal_type"),
                rs.getString("internal_status"),
                rs.getObject("internal_amount", Long.class),
                rs.getString("internal_currency"),
                rs.getInt("seen_count"),
                Db.instant(rs, "created_at"),
                Db.instant(rs, "updated_at"),
                Db.instant(rs, "reported_at"),
                Db.instant(rs, "closed_at"),
                rs.getString("resolution"));
    }
}
