package dev.kopek.psp.calls;

import dev.kopek.psp.PspCallLog;
import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores each PSP call in {@code psp_calls}, off the payment's path: the call is queued in memory and one writer
 * thread inserts whatever has queued in one multi-row statement. Under load that is one statement and one commit
 * for dozens of payments instead of one each (benchmarks/HISTORY.md); when idle, a line is written within
 * milliseconds. A failure to store is logged and the lines are dropped: the story of a payment may miss a line,
 * the payment itself must not fail or wait. For the same reason the commit does not wait for the WAL flush, and a
 * full queue (the database far behind) drops lines rather than grow: a crash may lose the last lines, never a
 * payment. Only this diagnostic table is written this way (V80); everything about money is synchronous.
 */
@Component
public class JdbcPspCallLog implements PspCallLog {

    private static final Logger log = LoggerFactory.getLogger(JdbcPspCallLog.class);
    private static final int MAX_DETAIL = 300;
    private static final int QUEUE_CAPACITY = 20_000;
    private static final int MAX_BATCH = 500;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final BlockingQueue<Call> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    private final Thread writer;
    private volatile boolean running = true;

    JdbcPspCallLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
        this.writer = Thread.ofPlatform().daemon().name("psp-call-log").start(this::writeUntilStopped);
    }

    @Override
    public void record(Call call) {
        if (!queue.offer(call) && dropped.getAndIncrement() % 1000 == 0) {
            log.warn(
                    "psp call log queue full ({} lines): dropping lines for the console, {} so far",
                    QUEUE_CAPACITY,
                    dropped.get());
        }
    }

    /** Writes what is queued at shutdown, after the requests have drained and before the pool closes. */
    @PreDestroy
    void stop() throws InterruptedException {
        running = false;
        writer.interrupt();
        writer.join(TimeUnit.SECONDS.toMillis(5));
        List<Call> rest = new ArrayList<>();
        queue.drainTo(rest);
        for (int from = 0; from < rest.size(); from += MAX_BATCH) {
            write(rest.subList(from, Math.min(rest.size(), from + MAX_BATCH)));
        }
    }

    private void writeUntilStopped() {
        List<Call> batch = new ArrayList<>(MAX_BATCH);
        while (running) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(batch, MAX_BATCH - 1);
            write(batch);
            batch.clear();
        }
    }

    private void write(List<Call> calls) {
        List<Map<String, Object>> rows = new ArrayList<>(calls.size());
        for (Call call : calls) {
            Map<String, Object> row = new HashMap<>();
            row.put("provider", call.provider());
            row.put("operation", call.operation());
            row.put("provider_key", call.providerKey());
            row.put("outcome", call.outcome());
            row.put("psp_reference", call.pspReference());
            row.put(
                    "detail",
                    call.detail() == null || call.detail().length() <= MAX_DETAIL
                            ? call.detail()
                            : call.detail().substring(0, MAX_DETAIL));
            row.put("started_at", call.startedAt().toString());
            row.put("duration_ms", call.durationMillis());
            rows.add(row);
        }
        try {
            // One statement text whatever the batch size. The one write near the payment path that may skip the WAL
            // flush: a diagnostic line for the console, never money (V80). set_config(..., true) lasts for this
            // statement's own transaction, commit included.
            jdbc.sql("""
                    WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
                    INSERT INTO psp_calls (provider, operation, provider_key, outcome, psp_reference, detail,
                                           started_at, duration_ms)
                    SELECT c.provider, c.operation, c.provider_key, c.outcome, c.psp_reference, c.detail,
                           c.started_at, c.duration_ms
                      FROM relaxed, jsonb_to_recordset(CAST(:calls AS jsonb)) AS c(provider varchar,
                           operation varchar, provider_key varchar, outcome varchar, psp_reference varchar,
                           detail varchar, started_at timestamptz, duration_ms bigint)
                    """).param("calls", JSON.writeValueAsString(rows)).update();
        } catch (RuntimeException e) {
            log.warn("{} psp calls could not be recorded for the console: {}", calls.size(), e.getMessage());
        }
    }
}
