package dev.kopek.outbox.relay;

import dev.kopek.outbox.OutboxProperties;
import dev.kopek.outbox.store.OutboxRow;
import dev.kopek.outbox.store.OutboxStore;
import dev.kopek.platform.DatabaseOutages;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * The CDC relay: Debezium's embedded PostgreSQL connector reads inserts into the outbox table from the WAL
 * (pgoutput, through Kopek's own slot and an insert-only publication on that one table) and publishes each row
 * with the same {@link KafkaPublisher} as the polling relay, so both produce the same records.
 *
 * <p>A slot serves one reader, so one instance runs the engine: the holder of a session advisory lock. Before it
 * streams, it creates the slot if missing and drains, with the polling relay, whatever was unpublished when the
 * slot began (rows written before the slot existed are not in its stream); the engine then starts at the slot's
 * position, so one resource's events still reach the broker in order. The slot advances only after a batch was
 * acknowledged, so a crash re-sends (same event ids) rather than loses. Rows are also marked published, which
 * keeps the lag metric honest and lets the polling mode take over at any time.
 *
 * <p>A failover loses the slot: PostgreSQL 15 and 16 keep logical slots on the primary only (17 carries them to a
 * standby only with {@code sync_replication_slots}), and a promoted standby or a server restored from a base backup
 * has none. That is the first start again: the watchdog, once the pool reaches the new primary, creates the slot
 * there and the catch-up publishes every row not marked published — those the old slot had not streamed, and those
 * it streamed whose marks were lost with the old primary (duplicates with the same event ids, which consumers drop).
 * No event is lost, because the mark is written only after the broker acknowledged the event. How many were sent
 * again is logged and counted ({@code kopek_outbox_cdc_slot_created_total}, docs/beyond-one-machine.md). The
 * watchdog also checks that the session holding the lock still answers and is on a primary: a lock held on a
 * frozen or demoted server is given up and taken again where the pool now connects.
 */
public class CdcRelay {

    private static final Logger log = LoggerFactory.getLogger(CdcRelay.class);
    /** "kopekcdc": one advisory lock key per database; whoever holds it runs the engine. */
    private static final long LOCK_KEY = 0x6b6f70656b636463L;

    private static final int CATCH_UP_BATCHES = 10_000;
    private static final Duration MAX_RETRY_PAUSE = Duration.ofSeconds(30);
    private static final Duration VISIBILITY_PAUSE = Duration.ofMillis(5);
    private static final int LOCK_CHECK_SECONDS = 2;
    private static final String WORKER = "CDC relay";

    private final DataSource dataSource;
    private final PollingRelay catchUp;
    private final KafkaPublisher publisher;
    private final OutboxStore store;
    private final OutboxProperties.Cdc settings;
    private final Clock clock;
    private final DatabaseOutages outages;
    private final Counter slotsCreated;
    private final KafkaOutageLog kafkaOutage;

    private Connection lockHolder;
    private DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    private Thread engineThread;
    private volatile boolean running;
    private volatile boolean stopping;
    /** A slot this instance created whose catch-up has not gone through yet: counted and warned about once it has. */
    private boolean slotCreatedUncounted;

    public CdcRelay(
            DataSource dataSource,
            PollingRelay catchUp,
            KafkaPublisher publisher,
            OutboxStore store,
            OutboxProperties.Cdc settings,
            Clock clock,
            DatabaseOutages outages,
            MeterRegistry meters) {
        this.outages = outages;
        this.slotsCreated = Counter.builder("kopek.outbox.cdc.slot.created")
                .description("logical replication slots the CDC relay had to create: its first start, or a failover")
                .register(meters);
        this.dataSource = dataSource;
        this.catchUp = catchUp;
        this.publisher = publisher;
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.kafkaOutage =
                new KafkaOutageLog(WORKER, "events wait in the outbox; the relay retries until it is back", log, clock);
    }

    public boolean isRunning() {
        return running;
    }

    public String slot() {
        return settings.slot();
    }

    /** Starts the engine here unless it runs here already or another instance holds the lock; true if it runs. */
    public synchronized boolean ensureRunning() {
        if (running && lockStillHeld()) {
            return true;
        }
        if (running) {
            log.warn("CDC relay: the session holding its lock no longer answers or is not on a primary; restarting");
            stop();
        }
        releaseLock();
        int caughtUp;
        try {
            lockHolder = dataSource.getConnection();
            if (!tryLock(lockHolder)) {
                releaseLock();
                return false;
            }
            if (prepare(lockHolder)) {
                slotCreatedUncounted = true;
            }
            caughtUp = catchUp.drain(CATCH_UP_BATCHES);
            kafkaOutage.published();
            if (slotCreatedUncounted) {
                slotCreatedUncounted = false;
                slotsCreated.increment();
                log.warn(
                        "CDC relay: slot {} was missing on this server (the first start, or a failover: PostgreSQL"
                                + " keeps logical slots on the primary only); created it and sent the {} events not"
                                + " marked published again",
                        settings.slot(),
                        caughtUp);
            }
            stopping = false;
            engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                    .using(engineProperties(CdcSource.of(dataSource, lockHolder)))
                    .notifying(this::handleBatch)
                    .using((success, message, error) -> engineEnded(success, message, error))
                    .build();
        } catch (KafkaPublisher.PublishFailed e) {
            kafkaOutage.failed(e); // the catch-up could not publish: the next watchdog pass retries
            releaseLock();
            return false;
        } catch (SQLException | RuntimeException e) {
            if (!outages.failed(WORKER, e)) {
                log.error("CDC relay could not start; the next watchdog pass retries", e);
            }
            releaseLock();
            return false;
        }
        outages.succeeded(WORKER);
        running = true;
        engineThread = Thread.ofPlatform().name("kopek-outbox-cdc").daemon().start(engine);
        log.info(
                "CDC relay started: slot={} publication={} caught_up={}",
                settings.slot(),
                settings.publication(),
                caughtUp);
        return true;
    }

    /** Stops the engine and gives up the lock; the slot stays (with the WAL it retains) for the next start. */
    public synchronized void stop() {
        stopping = true;
        if (engine != null) {
            try {
                engine.close();
            } catch (IOException e) {
                log.warn("closing the CDC engine failed", e);
            }
        }
        if (engineThread != null) {
            try {
                engineThread.join(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        engine = null;
        engineThread = null;
        running = false;
        releaseLock();
    }

    /** On the engine's thread, perhaps while {@link #stop()} waits for it: so not synchronized. */
    private void engineEnded(boolean success, String message, Throwable error) {
        running = false;
        if (stopping) {
            return;
        }
        if (error != null && outages.failed(WORKER, error)) {
            return; // the database went away (a failover): warned about once, the watchdog restarts the engine
        }
        log.error("CDC engine stopped (success={}): {}; the watchdog restarts it", success, message, error);
    }

    /** Whether the session holding the lock still answers, on a server that is still a primary. */
    private boolean lockStillHeld() {
        try (Statement s = lockHolder.createStatement()) {
            s.setQueryTimeout(LOCK_CHECK_SECONDS);
            try (ResultSet rs = s.executeQuery("SELECT NOT pg_is_in_recovery()")) {
                return rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    private static boolean tryLock(Connection connection) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            s.setLong(1, LOCK_KEY);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /**
     * The publication (inserts into the outbox only) and the slot, created once and then reused; true when the slot
     * had to be created.
     */
    private boolean prepare(Connection connection) throws SQLException {
        if (!exists(connection, "SELECT 1 FROM pg_publication WHERE pubname = ?", settings.publication())) {
            try (Statement s = connection.createStatement()) {
                // Identifiers were checked against [a-z_][a-z0-9_]* in OutboxProperties.Cdc.
                s.execute("CREATE PUBLICATION " + settings.publication() + " FOR TABLE " + settings.schema()
                        + ".outbox WITH (publish = 'insert')");
            }
        }
        if (!exists(connection, "SELECT 1 FROM pg_replication_slots WHERE slot_name = ?", settings.slot())) {
            try (PreparedStatement s =
                    connection.prepareStatement("SELECT pg_create_logical_replication_slot(?, 'pgoutput')")) {
                s.setString(1, settings.slot());
                s.execute();
            }
            log.info(
                    "created logical replication slot {}: it retains WAL until the CDC relay confirms it",
                    settings.slot());
            return true;
        }
        return false;
    }

    private static boolean exists(Connection connection, String sql, String name) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    private synchronized void releaseLock() {
        if (lockHolder != null) {
            try {
                lockHolder.close(); // the session ends, and with it the advisory lock
            } catch (SQLException e) {
                log.warn("closing the CDC lock connection failed", e);
            }
            lockHolder = null;
        }
    }

    private Properties engineProperties(CdcSource source) {
        Properties p = new Properties();
        p.setProperty("name", "kopek-outbox-cdc");
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("offset.storage", InMemoryOffsets.class.getName());
        p.setProperty("offset.flush.interval.ms", "1000");
        p.setProperty("database.hostname", source.host());
        p.setProperty("database.port", Integer.toString(source.port()));
        p.setProperty("database.dbname", source.database());
        p.setProperty("database.user", source.user());
        p.setProperty("database.password", source.password());
        p.setProperty("topic.prefix", "kopek");
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", settings.slot());
        p.setProperty("publication.name", settings.publication());
        p.setProperty("publication.autocreate.mode", "disabled");
        p.setProperty("table.include.list", settings.schema() + ".outbox");
        // Only what a record needs; tx_id's default expression would also puzzle Debezium's schema reader.
        p.setProperty(
                "column.include.list",
                String.join(
                        ",",
                        Stream.of("id", "event_type", "resource_id", "public_id", "sequence", "envelope", "created_at")
                                .map(column -> settings.schema() + ".outbox." + column)
                                .toList()));
        p.setProperty("snapshot.mode", "no_data");
        p.setProperty("tombstones.on.delete", "false");
        p.setProperty(
                "poll.interval.ms",
                Long.toString(Math.max(1, settings.pollInterval().toMillis())));
        return p;
    }

    private void handleBatch(
            List<RecordChangeEvent<SourceRecord>> records,
            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
            throws InterruptedException {
        List<OutboxRow> rows = new ArrayList<>(records.size());
        for (RecordChangeEvent<SourceRecord> event : records) {
            inserted(event.record()).ifPresent(rows::add);
        }
        if (!rows.isEmpty()) {
            publishUntilAcknowledged(rows);
            markPublished(rows);
        }
        for (RecordChangeEvent<SourceRecord> event : records) {
            committer.markProcessed(event);
        }
        committer.markBatchFinished();
    }

    private void publishUntilAcknowledged(List<OutboxRow> rows) throws InterruptedException {
        untilDone("publish a CDC batch of " + rows.size(), KafkaPublisher.PublishFailed.class, () -> {
            publisher.publish(rows, "cdc");
            kafkaOutage.published();
        });
    }

    /**
     * The events are out; the rows are marked before the slot may move past them. A mark that fails (the pool had
     * no connection for a while under load) is tried again in place: skipped, it left rows unmarked for good and
     * the lag metric reporting events that had long been delivered.
     */
    private void markPublished(List<OutboxRow> rows) throws InterruptedException {
        List<UUID> ids = rows.stream().map(OutboxRow::id).distinct().toList();
        untilDone("mark " + ids.size() + " CDC-published rows", DataAccessException.class, () -> markVisible(ids));
    }

    /**
     * The slot hands a transaction over once its commit record is flushed, which is before its writer has left
     * PostgreSQL's running transactions: for a moment normally, and with a synchronous standby until the standby
     * confirms. A mark in that moment sees none of its rows and updates nothing; the crash run's CDC drain found
     * such a row, its event on the topic and the row unmarked for good. So the mark is repeated until every row is
     * marked, or until every transaction that had begun when it first fell short has ended: a row still missing
     * then was deleted, which only happens to an event long published.
     */
    private void markVisible(List<UUID> ids) throws InterruptedException {
        if (store.markPublishedAndCount(ids, clock.instant()) == ids.size()) {
            return;
        }
        long horizon = store.newTransactionId();
        while (true) {
            boolean allEnded = store.endedThrough(horizon);
            int marked = store.markPublishedAndCount(ids, clock.instant());
            if (marked == ids.size()) {
                return;
            }
            if (allEnded) {
                log.warn("{} of {} CDC-published rows are no longer in the outbox", ids.size() - marked, ids.size());
                return;
            }
            if (stopping) {
                throw new InterruptedException("stopping before the rows of a CDC batch became visible");
            }
            Thread.sleep(VISIBILITY_PAUSE);
        }
    }

    /**
     * Retries a step of a batch in place: the slot must not move past rows the broker has not acknowledged or that
     * are not marked. Stopping gives the batch up; the next engine streams it again (same event ids).
     */
    private void untilDone(String what, Class<? extends RuntimeException> retryable, Step step)
            throws InterruptedException {
        Duration pause = Duration.ofSeconds(1);
        while (true) {
            try {
                step.run();
                return;
            } catch (RuntimeException e) {
                if (!retryable.isInstance(e)) {
                    throw e;
                }
                if (stopping) {
                    throw new InterruptedException("stopping before it could " + what + "; it is streamed again");
                }
                if (e instanceof KafkaPublisher.PublishFailed unpublished) {
                    kafkaOutage.failed(unpublished);
                } else if (!outages.failed(WORKER, e)) {
                    log.warn("could not {}, retrying in {}", what, pause, e);
                }
                Thread.sleep(pause);
                pause = pause.multipliedBy(2).compareTo(MAX_RETRY_PAUSE) > 0 ? MAX_RETRY_PAUSE : pause.multipliedBy(2);
            }
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws InterruptedException;
    }

    private Optional<OutboxRow> inserted(SourceRecord record) {
        if (!(record.value() instanceof Struct value)
                || value.schema().field("op") == null
                || !"c".equals(value.getString("op"))
                || !(value.get("after") instanceof Struct after)) {
            return Optional.empty(); // heartbeats, and anything that is not an insert
        }
        return Optional.of(new OutboxRow(
                UUID.fromString(after.getString("id")),
                after.getString("event_type"),
                UUID.fromString(after.getString("resource_id")),
                after.getString("public_id"),
                after.getInt64("sequence"),
                after.getString("envelope"),
                instant(after.getString("created_at"))));
    }

    private static Instant instant(String zonedTimestamp) {
        return OffsetDateTime.parse(zonedTimestamp).toInstant();
    }
}
