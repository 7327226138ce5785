package dev.kopek.psp.calls;

import dev.kopek.platform.Db;
import dev.kopek.psp.PspCallLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Stores each PSP call in {@code psp_calls}, in its own short statement after the call returned. A failure to
 * store is logged and swallowed: the story of a payment may miss a line, the payment itself must not fail. For
 * the same reason its commit does not wait for the WAL flush: a crash may lose the last few lines (about
 * {@code wal_writer_delay}), never a payment.
 */
@Component
public class JdbcPspCallLog implements PspCallLog {

    private static final Logger log = LoggerFactory.getLogger(JdbcPspCallLog.class);
    private static final int MAX_DETAIL = 300;

    private final JdbcClient jdbc;

    JdbcPspCallLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void record(Call call) {
        try {
            // The one write on the payment path that may skip the WAL flush: a diagnostic line for the console,
            // never money (V80). Without this, every PSP call would add a third synchronous commit (an fsync) to
            // each payment. set_config(..., true) lasts for this statement's own transaction, commit included.
            jdbc.sql("""
                    WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
                    INSERT INTO psp_calls (provider, operation, provider_key, outcome, psp_reference, detail,
                                           started_at, duration_ms)
                    SELECT CAST(:provider AS varchar), CAST(:operation AS varchar), CAST(:key AS varchar),
                           CAST(:outcome AS varchar), CAST(:reference AS varchar), CAST(:detail AS varchar),
                           CAST(:startedAt AS timestamptz), CAST(:duration AS bigint)
                      FROM relaxed
                    """)
                    .param("provider", call.provider()).param("operation", call.operation())
                    .param("key", call.providerKey()).param("outcome", call.outcome())
                    .param("reference", call.pspReference())
                    .param("detail", call.detail() == null || call.detail().length() <= MAX_DETAIL ? call.detail()
                            : call.detail().substring(0, MAX_DETAIL))
                    .param("startedAt", Db.at(call.startedAt())).param("duration", call.durationMillis())
                    .update();
        } catch (RuntimeException e) {
            log.warn("psp call of {} could not be recorded for the console: {}", call.operation(), e.getMessage());
        }
    }
}
