package dev.kopek.platform;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops connections to a server that takes no writes. HikariCP already throws away a connection that failed with a
 * connection error (class 08) or a shutdown (57P01–57P03), but a server that became read-only while a connection
 * stayed open — a primary demoted in place, a DNS name or a load balancer now pointing at a standby — answers every
 * write with 25006, and the pool would hand that connection out again and again. On 25006 this connection is evicted,
 * and so is every other one in the pool (softly: idle ones at once, busy ones when they come back), since they were
 * opened to the same server; new connections go through {@code targetServerType=primary} and find the new primary.
 *
 * <p>The opposite case is a statement prepared before a migration changed its table (0A000 from
 * {@code RevalidateCachedQuery}, {@link DatabaseFailures#planChanged}): HikariCP counts 0A000 as fatal, but the
 * connection is sound and pgjdbc has already forgotten its prepared statements, so evicting it would only cost a new
 * connection and a warning with a stack trace for each pooled connection during every rolling upgrade. It stays.
 */
final class ReadOnlyEviction implements SQLExceptionOverride {

    private static final Logger log = LoggerFactory.getLogger(ReadOnlyEviction.class);

    private final AtomicReference<HikariDataSource> pool = new AtomicReference<>();

    /** The pool whose connections to evict, known only once it is built from the configuration holding this. */
    void evictFrom(HikariDataSource dataSource) {
        pool.set(dataSource);
    }

    public SQLExceptionOverride.Override adjudicate(SQLException e) {
        if (DatabaseFailures.planChanged(e)) {
            return SQLExceptionOverride.Override.DO_NOT_EVICT;
        }
        if (!DatabaseFailures.readOnly(e.getSQLState())) {
            return SQLExceptionOverride.Override.CONTINUE_EVICT;
        }
        HikariDataSource dataSource = pool.get();
        HikariPoolMXBean bean = dataSource == null ? null : dataSource.getHikariPoolMXBean();
        if (bean != null) {
            bean.softEvictConnections();
        }
        log.warn("the database refused a write as read-only (25006): every pooled connection is replaced");
        return SQLExceptionOverride.Override.MUST_EVICT;
    }
}
