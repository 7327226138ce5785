package dev.kopek.support;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Counts what this thread sends to PostgreSQL while a piece of code runs, at the driver: round trips (each ends with
 * the protocol's Sync message and waits for the server's answer), statements (each Execute), and commits. The
 * PostgreSQL driver writes every protocol message it sends to its own java.util.logging logger at FINEST; while
 * counting, this turns that level on, keeps the records of the counting thread only, and passes none of them on to
 * the application's logs. Structural, never timed: what a test asserts is how many, not how long.
 */
public final class RoundTrips {

    private static final Logger DRIVER = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");

    private static final String BEGIN = "FE=> SimpleQuery(query=\"BEGIN\")";

    /**
     * What one run sent and what the server said of it: {@code sent} the driver's messages in order (its own log
     * lines, which also carry the server's replies), from which the counts are read.
     */
    public record Count(List<String> sent) {

        /**
         * Round trips: each ends with a Sync and waits for the server's answer. One that carried nothing but the
         * transaction's BEGIN is not counted: pgjdbc sends BEGIN as a simple query and, depending on what the
         * connection ran before (seen once a statement was server-side prepared on it), sometimes waits for its answer
         * before the first statement and sometimes sends both at once, so whether it falls apart depends on the
         * connection's history, not on the code counted. A trip that parsed or described a statement without running
         * it is counted: the driver waited for it.
         */
        public long roundTrips() {
            long trips = 0;
            boolean other = false;
            for (String m : sent) {
                if (m.equals("FE=> Sync")) {
                    trips += other ? 1 : 0;
                    other = false;
                } else if (m.startsWith("FE=> ") && !m.equals(BEGIN)) {
                    other = true;
                }
            }
            return trips - pings();
        }

        /**
         * Statements other than the transactions' BEGIN and COMMIT and the pool's check of a connection that was idle
         * for a while (an empty statement).
         */
        public long statements() {
            long executed = count(m -> m.startsWith("FE=> Execute(") || m.startsWith("FE=> SimpleQuery("));
            return executed - count(m -> m.contains("CommandStatus(BEGIN)")) - commits() - pings();
        }

        public long commits() {
            return count(m -> m.contains("CommandStatus(COMMIT)"));
        }

        private long pings() {
            return count(m -> m.contains("query=\"\""));
        }

        private long count(Predicate<String> which) {
            return sent.stream().filter(which).count();
        }

        /** The counts, and the head of each statement the driver parsed, for a failing assertion's message. */
        @Override
        public String toString() {
            return "statements=" + statements() + " roundTrips=" + roundTrips() + " commits=" + commits() + " "
                    + sent.stream()
                            .filter(m -> m.startsWith("FE=> Parse("))
                            .map(m -> m.substring(0, Math.min(100, m.length())))
                            .toList();
        }
    }

    private RoundTrips() {}

    /** Runs {@code work} on this thread and counts what it sent. Not for two counts at once. */
    public static synchronized Count of(Runnable work) {
        long thread = Thread.currentThread().threadId();
        List<String> sent = new ArrayList<>();
        SimpleFormatter text = new SimpleFormatter();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord log) {
                if (log.getLongThreadID() == thread) {
                    sent.add(text.formatMessage(log).strip());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Level level = DRIVER.getLevel();
        boolean parents = DRIVER.getUseParentHandlers();
        handler.setLevel(Level.ALL);
        DRIVER.addHandler(handler);
        DRIVER.setUseParentHandlers(false);
        DRIVER.setLevel(Level.FINEST);
        try {
            work.run();
        } finally {
            DRIVER.setLevel(level);
            DRIVER.setUseParentHandlers(parents);
            DRIVER.removeHandler(handler);
        }
        return new Count(List.copyOf(sent));
    }
}
