package dev.kopek.psp.calls;

import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * At most one PSP movement per recorded charge or operation, as far as Kopek's own call log shows: every call that
 * moved money (or found, by lookup, that it had) under one provider key names the same PSP object. Two references
 * under one key are two movements for one operation — a double charge — whatever the records of the payment say.
 * The log is written after the calls and may miss a line under overload (V80), so this is a floor, not the PSP's own
 * count; the settlement files' check ({@code settled_once}) looks from the other side. Walks the log by id and
 * judges each key it meets over all of that key's calls.
 */
@Component
class OneMovementPerKeyCheck implements InvariantCheck {

    private final JdbcClient jdbc;

    OneMovementPerKeyCheck(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String name() {
        return "one_psp_movement_per_key";
    }

    @Override
    public String law() {
        return "L1/L6: each charge or operation moved money at the PSP at most once (PSP calls)";
    }

    @Override
    public long total() {
        return InvariantCheck.rowsOf(jdbc, "psp_calls");
    }

    @Override
    public Slice check(String after, int limit) {
        long from = after == null ? 0 : Long.parseLong(after);
        Window slice = InvariantCheck.window(jdbc, "psp_calls", "id", from, limit);
        if (slice.rows() == 0) {
            return new Slice(0, null, List.of());
        }
        List<Finding> findings = new ArrayList<>();
        jdbc.sql("""
                WITH keys AS (
                    SELECT DISTINCT provider, provider_key FROM psp_calls
                     WHERE id > :after AND id <= :last AND psp_reference IS NOT NULL
                       AND outcome IN ('succeeded', 'authorized', 'found')
                )
                SELECT k.provider, k.provider_key,
                       string_agg(DISTINCT c.psp_reference, ', ' ORDER BY c.psp_reference) AS refs
                  FROM keys k JOIN psp_calls c ON c.provider_key = k.provider_key AND c.provider = k.provider
                 WHERE c.psp_reference IS NOT NULL AND c.outcome IN ('succeeded', 'authorized', 'found')
                 GROUP BY k.provider, k.provider_key
                HAVING count(DISTINCT c.psp_reference) > 1
                """).param("after", from).param("last", slice.last()).query(rs -> {
            // The provider key is Kopek's derived key, not the client's: safe to log (L12).
            String key = rs.getString("provider_key");
            findings.add(new Finding(
                    rs.getString("provider") + " key " + key,
                    null,
                    null,
                    null,
                    "provider key " + key + " at " + rs.getString("provider")
                            + " moved money under more than one reference: " + rs.getString("refs"),
                    Excuse.NONE));
        });
        return new Slice(slice.rows(), Long.toString(slice.last()), findings);
    }
}
