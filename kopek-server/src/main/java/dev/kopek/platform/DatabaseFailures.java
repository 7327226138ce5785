package dev.kopek.platform;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/**
 * Tells a failure that means "the database went away or cannot take writes now" from every other failure. During a
 * failover PostgreSQL ends sessions (57P01 {@code admin_shutdown}), refuses new ones while it starts or shuts down
 * (57P03), drops connections (class 08), answers a write on a standby or a demoted primary with 25006, and the pool
 * gives no connection in time. In a rolling upgrade, a migration of the new version changes a table under the old
 * one's prepared statements (0A000 from {@code RevalidateCachedQuery}, {@link #planChanged}). None of these is a
 * defect: the request or pass wrote nothing, or — when the
 * connection was lost after COMMIT was sent — wrote what a retry with the same key or the next pass finds
 * (kopek-server/docs/pipeline.md, "When the database goes away"). They become a 503 with {@code Retry-After}, a
 * worker pause and one warning, never a 500 or a stack trace.
 */
public final class DatabaseFailures {

    /**
     * SQLSTATEs that mean the server, not the statement, is the problem, and the reason each is reported under. A
     * serialization failure or a deadlock that reaches this far was not retried by the code that ran it; the client's
     * retry with the same key runs it again.
     */
    private static final Map<String, String> STATES = Map.of(
            "57P01", "shutdown",
            "57P02", "crash_shutdown",
            "57P03", "cannot_connect_now",
            "25006", "read_only",
            "53300", "too_many_connections",
            "40001", "serialization_failure",
            "40P01", "deadlock",
            "57014", "statement_timeout",
            "55P03", "lock_timeout");

    /** Every reason a failure is reported under. */
    static final List<String> REASONS = reasons();

    private static final int MAX_DEPTH = 20;

    /** The reason a statement prepared before a migration changed its table is reported under. */
    private static final String SCHEMA_CHANGED = "schema_changed";

    private static List<String> reasons() {
        List<String> reasons = new ArrayList<>(
                List.of("no_connection", "connection_lost", "socket_timeout", "transient", SCHEMA_CHANGED));
        reasons.addAll(STATES.values());
        return List.copyOf(reasons);
    }

    private DatabaseFailures() {}

    /**
     * What made the database unavailable, read from {@code failure} and its causes.
     *
     * @param reason a short stable label for metrics and logs ({@code shutdown}, {@code connection_lost}, ...)
     * @param detail the driver's or the pool's message, one line, with no SQL and no parameters in it
     */
    public record Unavailable(String reason, String detail) {}

    /** Empty when {@code failure} is any other failure (a bug, a constraint, bad input): that stays a 500. */
    public static Optional<Unavailable> of(Throwable failure) {
        for (Throwable cause : causes(failure)) {
            if (isNoConnection(cause)) {
                Throwable root = cause;
                while (root.getCause() != null && root.getCause() != root) {
                    root = root.getCause();
                }
                String why = root == cause ? "" : " (" + oneLine(root.getMessage()) + ")";
                return Optional.of(new Unavailable("no_connection", oneLine(cause.getMessage()) + why));
            }
        }
        Optional<Unavailable> bySqlState = bySqlState(failure);
        return bySqlState.isPresent() ? bySqlState : byType(failure);
    }

    /**
     * Whether the pool gave no connection within its timeout: the unit of work never started, so it wrote nothing
     * and may simply run again ({@link ConnectionWait}).
     */
    public static boolean noConnection(Throwable failure) {
        for (Throwable cause : causes(failure)) {
            if (isNoConnection(cause)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isNoConnection(Throwable cause) {
        return cause instanceof CannotGetJdbcConnectionException || cause instanceof SQLTransientConnectionException;
    }

    /**
     * Whether {@code failure} is PostgreSQL refusing a statement this connection prepared before a migration changed
     * the result type of what it reads ({@code SELECT *} or {@code RETURNING *} on a table that gained a column):
     * "cached plan must not change result type". Recognised by the server's routine, as pgjdbc does, since the
     * message is translated with {@code lc_messages} and 0A000 alone means any unsupported feature. pgjdbc has
     * already forgotten every statement it prepared on that connection, so each connection fails so at most once
     * per migration; in autocommit pgjdbc itself runs the statement again, inside a transaction the transaction is
     * lost and wrote nothing, and running it again goes through.
     */
    static boolean planChanged(Throwable failure) {
        for (Throwable cause : causes(failure)) {
            if (cause instanceof PSQLException sql && "0A000".equals(sql.getSQLState())) {
                ServerErrorMessage server = sql.getServerErrorMessage();
                if (server != null && "RevalidateCachedQuery".equals(server.getRoutine())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a SQLSTATE says that this connection now talks to a server that takes no writes. */
    static boolean readOnly(String sqlState) {
        return "25006".equals(sqlState);
    }

    private static Optional<Unavailable> bySqlState(Throwable failure) {
        if (planChanged(failure)) {
            return Optional.of(new Unavailable(SCHEMA_CHANGED, "0A000 cached plan must not change result type"));
        }
        for (Throwable cause : causes(failure)) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                String reason = state.startsWith("08") ? "connection_lost" : STATES.get(state);
                if (reason != null) {
                    return Optional.of(new Unavailable(reason, state + " " + oneLine(sql.getMessage())));
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Unavailable> byType(Throwable failure) {
        for (Throwable cause : causes(failure)) {
            if (cause instanceof SocketTimeoutException) {
                return Optional.of(new Unavailable("socket_timeout", oneLine(cause.getMessage())));
            }
            if (cause instanceof TransientDataAccessException) {
                return Optional.of(new Unavailable("transient", cause.getClass().getSimpleName()));
            }
        }
        return Optional.empty();
    }

    /** {@code failure} and its causes, outermost first, each once (a cause chain may loop). */
    private static Iterable<Throwable> causes(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> chain = new ArrayList<>();
        for (Throwable cause = failure; cause != null && chain.size() < MAX_DEPTH && seen.add(cause); ) {
            chain.add(cause);
            cause = cause.getCause();
        }
        return chain;
    }

    /**
     * The first line of a driver message: PostgreSQL's messages may carry a detail line with row values, and a
     * Spring message names the SQL; neither belongs in a log line that runs on every failed request.
     */
    private static String oneLine(String message) {
        if (message == null) {
            return "";
        }
        int end = message.indexOf('\n');
        String first = end < 0 ? message : message.substring(0, end);
        int sql = first.indexOf("; SQL [");
        return (sql < 0 ? first : first.substring(0, sql)).trim();
    }
}
