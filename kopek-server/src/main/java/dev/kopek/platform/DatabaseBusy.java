package dev.kopek.platform;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/**
 * No connection to PostgreSQL within the pool's timeout: the pool is exhausted under load, or the database is
 * down or restarting. Wherever it happens (authentication, the rate limiter, a handler) the client is told to
 * retry with the same key after a second — 503 with {@code Retry-After} — as the retry contract says for a
 * 5xx; a transaction that never got a connection wrote nothing. It is an operating condition, not a defect,
 * so it is logged as a warning without a stack trace.
 */
final class DatabaseBusy {

    private static final Logger log = LoggerFactory.getLogger(DatabaseBusy.class);

    private DatabaseBusy() {}

    /** The 503 to answer when the failure, or one of its causes, is a connection the pool could not give. */
    static ApiProblem problemFor(Throwable failure) {
        Throwable cause = noConnection(failure);
        if (cause != null) {
            log.warn("no database connection within the pool's timeout: {}", cause.getMessage());
        } else if ((cause = cancelledByTimeout(failure)) != null) {
            log.warn("a statement ran past kopek.db.statement-timeout and was cancelled: {}", cause.getMessage());
        } else {
            return null;
        }
        return ApiProblem.withHeaders(
                HttpStatus.SERVICE_UNAVAILABLE,
                "database_unavailable",
                "The database is busy or unavailable; retry with the same Idempotency-Key after "
                        + "Retry-After seconds.",
                Map.of(HttpHeaders.RETRY_AFTER, "1"));
    }

    /** The cause that says PostgreSQL cancelled a statement at its statement timeout (57014), or null. */
    static Throwable cancelledByTimeout(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 10; depth++) {
            if (cause instanceof SQLException sql && "57014".equals(sql.getSQLState())) {
                return cause;
            }
            cause = cause.getCause();
        }
        return null;
    }

    /** The cause that says the pool gave no connection within its timeout, or null when it is another failure. */
    static Throwable noConnection(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 10; depth++) {
            if (cause instanceof CannotGetJdbcConnectionException || cause instanceof SQLTransientConnectionException) {
                return cause;
            }
            cause = cause.getCause();
        }
        return null;
    }
}
