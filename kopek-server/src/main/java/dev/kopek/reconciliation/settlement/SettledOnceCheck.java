package dev.kopek.reconciliation.settlement;

import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * At most one PSP movement per recorded charge or operation, as the PSP's own settlement files show: across the
 * current version of every day's file of a provider, one PSP reference appears at most once per movement type (a
 * reference settled twice, on one day or on two, is money that moved twice). Fees are the PSP's own lines and are
 * left out. Walks the loaded lines in (file, line) order; each slice judges the references it meets over all files.
 */
@Component
class SettledOnceCheck implements InvariantCheck {

    private static final String START = "00000000-0000-0000-0000-000000000000:0";

    private final JdbcClient jdbc;

    SettledOnceCheck(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String name() {
        return "settled_once";
    }

    @Override
    public String law() {
        return "L1/L6: each charge or operation moved money at the PSP at most once (settlement files)";
    }

    @Override
    public long total() {
        return InvariantCheck.rowsOf(jdbc, "settlement_rows");
    }

    @Override
    public Slice check(String after, int limit) {
        String[] position = (after == null ? START : after).split(":");
        record Line(UUID file, int line) {}
        List<Line> lines = jdbc.sql("""
                SELECT file_id, line_no FROM settlement_rows
                 WHERE (file_id, line_no) > (CAST(:file AS uuid), :line)
                 ORDER BY file_id, line_no LIMIT :limit
                """)
                .param("file", position[0])
                .param("line", Integer.parseInt(position[1]))
                .param("limit", limit)
                .query((rs, n) -> new Line(rs.getObject("file_id", UUID.class), rs.getInt("line_no")))
                .list();
        if (lines.isEmpty()) {
            return new Slice(0, null, List.of());
        }
        List<Finding> findings = new ArrayList<>();
        jdbc.sql("""
                WITH current AS (
                    SELECT DISTINCT ON (provider, settlement_date) id, provider, settlement_date
                      FROM settlement_files ORDER BY provider, settlement_date, version DESC
                ),
                met AS (
                    SELECT DISTINCT f.provider, r.psp_reference, r.type
                      FROM settlement_rows r JOIN current f ON f.id = r.file_id
                     WHERE (r.file_id, r.line_no) > (CAST(:file AS uuid), :line)
                       AND (r.file_id, r.line_no) <= (CAST(:lastFile AS uuid), :lastLine)
                       AND r.type <> 'fee'
                )
                SELECT m.provider, m.psp_reference, m.type, count(*) AS times,
                       string_agg(f.settlement_date::text, ', ' ORDER BY f.settlement_date) AS dates
                  FROM met m
                  JOIN settlement_rows r ON r.psp_reference = m.psp_reference AND r.type = m.type
                  JOIN current f ON f.id = r.file_id AND f.provider = m.provider
                 GROUP BY m.provider, m.psp_reference, m.type
                HAVING count(*) > 1
                """)
                .param("file", position[0])
                .param("line", Integer.parseInt(position[1]))
                .param("lastFile", lines.getLast().file())
                .param("lastLine", lines.getLast().line())
                .query(rs -> {
                    String what =
                            rs.getString("provider") + " " + rs.getString("type") + " " + rs.getString("psp_reference");
                    findings.add(new Finding(
                            "settled " + what,
                            null,
                            null,
                            null,
                            what + " is settled " + rs.getLong("times") + " times (files of " + rs.getString("dates")
                                    + ")",
                            Excuse.NONE));
                });
        Line last = lines.getLast();
        return new Slice(lines.size(), last.file() + ":" + last.line(), findings);
    }
}
