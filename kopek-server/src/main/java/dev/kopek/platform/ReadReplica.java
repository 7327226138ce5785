package dev.kopek.platform;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Where the reads that tolerate staleness go (docs/read-replicas.md): a read-only replica when
 * {@code KOPEK_DB_READ_URL} names one, else the primary itself. It is a type of its own, not a second
 * {@code DataSource} bean, so nothing picks it up by accident: only the read models named in the architecture test
 * may depend on it, and never the key store, the fences or a write path (seed 000: a retry whose key was read from
 * a replica that had not seen the first answer charged again).
 */
public final class ReadReplica implements AutoCloseable {

    private final DataSource dataSource;
    private final DataSource primary;
    private final JdbcClient jdbc;
    private final TransactionTemplate snapshot;
    private final boolean separate;

    ReadReplica(DataSource dataSource, DataSource primary) {
        this.dataSource = dataSource;
        this.primary = primary;
        this.jdbc = JdbcClient.create(dataSource);
        this.snapshot = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.snapshot.setReadOnly(true);
        this.separate = dataSource != primary;
    }

    /** Statements on the replica (or the primary when there is none); each sees a recent, maybe stale, state. */
    public JdbcClient jdbc() {
        return jdbc;
    }

    /** Whether reads go to a server other than the primary. */
    public boolean separate() {
        return separate;
    }

    /** Runs {@code reads} in one read-only snapshot of the replica (several statements, one moment). */
    public <T> T inSnapshot(Supplier<T> reads) {
        return snapshot.execute(status -> reads.get());
    }

    /**
     * Runs {@code reads} on the replica in one read-only snapshot although they are written against the primary's
     * {@code JdbcClient}: for this thread and for their duration, the replica's connection stands in for the
     * primary's. For the production audit, whose checks belong to the modules whose tables they read and which may
     * not know the replica; nothing in them writes, and a write would fail on the read-only standby rather than land
     * anywhere.
     */
    public <T> T inSnapshotInPlaceOfPrimary(Supplier<T> reads) {
        if (!separate) {
            return inSnapshot(reads);
        }
        return snapshot.execute(status -> {
            TransactionSynchronizationManager.bindResource(
                    primary, TransactionSynchronizationManager.getResource(dataSource));
            try {
                return reads.get();
            } finally {
                TransactionSynchronizationManager.unbindResource(primary);
            }
        });
    }

    /**
     * How far the replica's replay is behind what it has been sent: zero when it has replayed everything it
     * received (or when reads go to the primary), else the age of the last transaction it replayed.
     */
    public Optional<Duration> lag() {
        if (!separate) {
            return Optional.of(Duration.ZERO);
        }
        Double seconds = jdbc.sql("""
                SELECT CASE
                         WHEN NOT pg_is_in_recovery() THEN 0
                         WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                         ELSE EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp())
                       END
                """).query(Double.class).single();
        return Optional.ofNullable(seconds).map(s -> Duration.ofMillis(Math.round(s * 1000)));
    }

    /** Closes the replica's own pool; the primary's is the primary's to close. */
    @Override
    public void close() {
        if (separate && dataSource instanceof HikariDataSource pool) {
            pool.close();
        }
    }
}
