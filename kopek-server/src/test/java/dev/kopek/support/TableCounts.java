package dev.kopek.support;

import dev.kopek.outbox.EventTypes;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The row count of every table Kopek owns, in one statement: "a refused request stored nothing" as data. Left
 * out: the tables only background workers write (webhook deliveries and their attempts —
 * earlier tests' deliveries may still be retried while a test runs, and no request writes them directly; the PSP
 * call log, which one writer thread fills in batches after the calls, so an earlier request's line can land while a
 * later one runs; the balance projection and its mark, which the ledger projector writes after earlier requests'
 * postings committed), and the rate limiter's buckets, which every request draws on before it is validated, by design
 * (limits run first). Of the outbox, the events only the webhook worker writes are left out too: it disables an
 * endpoint whose deliveries have failed for the whole retry window, and that is an event. Earlier tests leave
 * endpoints that never answer, the clock they moved puts them past the window, and the worker's next pass (every
 * second, in every context on this database) then writes the event while a later test counts.
 */
public final class TableCounts {

    private static final String WORKER_TABLES = "'flyway_schema_history', 'webhook_deliveries', 'webhook_attempts',"
            + " 'rate_limit_buckets', 'psp_calls', 'ledger_balances', 'ledger_projection'";

    /** The rows of a table a test counts, where part of it is written by a worker alone. */
    private static final Map<String, String> COUNTED_ROWS =
            Map.of("outbox", "WHERE event_type <> '" + EventTypes.ENDPOINT_DISABLED + "'");

    private TableCounts() {}

    public static Map<String, Long> of(JdbcClient jdbc) {
        StringBuilder sql = new StringBuilder();
        for (String table :
                jdbc.sql("""
                SELECT table_name FROM information_schema.tables
                 WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
                   AND table_name NOT IN (%s)
                 ORDER BY table_name
                """.formatted(WORKER_TABLES)).query(String.class).list()) {
            sql.append(sql.isEmpty() ? "" : " UNION ALL ")
                    .append("SELECT '")
                    .append(table)
                    .append("' AS t, count(*) AS n FROM ")
                    .append(table)
                    .append(' ')
                    .append(COUNTED_ROWS.getOrDefault(table, ""));
        }
        Map<String, Long> counts = new TreeMap<>();
        jdbc.sql(sql.toString()).query(rs -> {
            counts.put(rs.getString("t"), rs.getLong("n"));
        });
        return counts;
    }
}
