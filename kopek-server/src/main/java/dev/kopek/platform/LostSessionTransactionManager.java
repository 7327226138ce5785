package dev.kopek.platform;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Spring's transaction manager, except that a rollback on a connection that is already gone is not a second
 * failure. When a failover ends a session mid-transaction, the statement fails (57P01, 08006) and the rollback that
 * follows fails too, on a connection the driver or the pool has closed; Spring would then log "Application
 * exception overridden by rollback exception" at ERROR with a stack trace and throw the rollback's failure — which
 * says only "Connection is closed", without the SQLSTATE that tells a failover from a defect — instead of the
 * statement's. A lost session holds no transaction: the server rolls it back as the session ends. So such a
 * rollback is skipped and the statement's own failure goes on (and becomes a 503 or a worker's pause,
 * {@link DatabaseOutages}).
 */
final class LostSessionTransactionManager extends DataSourceTransactionManager {

    private static final Logger log = LoggerFactory.getLogger(LostSessionTransactionManager.class);

    LostSessionTransactionManager(DataSource dataSource) {
        super(dataSource);
    }

    @Override
    protected void doRollback(DefaultTransactionStatus status) {
        try {
            super.doRollback(status);
        } catch (TransactionException e) {
            if (!sessionLost()) {
                throw e;
            }
            log.debug("rollback skipped: the session is gone, and its transaction with it ({})", e.getMessage());
        }
    }

    private boolean sessionLost() {
        if (!(TransactionSynchronizationManager.getResource(obtainDataSource()) instanceof ConnectionHolder holder)) {
            return false;
        }
        try {
            Connection connection = holder.getConnection();
            return connection.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }
}
