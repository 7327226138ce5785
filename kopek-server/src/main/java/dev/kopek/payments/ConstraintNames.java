package dev.kopek.payments;

import java.sql.SQLException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/** Which constraint PostgreSQL named when it refused a write. */
final class ConstraintNames {

    private ConstraintNames() {}

    static String of(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof PSQLException psql) {
                ServerErrorMessage message = psql.getServerErrorMessage();
                if (message != null && message.getConstraint() != null) {
                    return message.getConstraint();
                }
            }
            if (t instanceof SQLException sql && sql.getNextException() != null) {
                String next = of(sql.getNextException());
                if (!next.isEmpty()) {
                    return next;
                }
            }
        }
        return "";
    }
}
