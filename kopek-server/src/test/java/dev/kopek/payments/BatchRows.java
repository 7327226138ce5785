package dev.kopek.payments;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What a batch of phase 3s wrote, read from the database in the same words for every kind, so that a batch's rows can
 * be compared with what the one-request path wrote for their twins; and, for a race, the batches it formed and a way
 * to make requests meet in them.
 */
final class BatchRows {

    private BatchRows() {}

    /** The postings whose {@code column} is {@code id} as (kind, line, account type, side, amount). */
    static List<String> entries(JdbcClient jdbc, String column, UUID id) {
        return jdbc.sql("""
                SELECT t.kind || ' ' || e.line || ' ' || a.type || ' ' || e.side || ' ' || e.amount_minor
                  FROM ledger_transactions t
                  JOIN ledger_entries e ON e.transaction_id = t.id
                  JOIN ledger_accounts a ON a.id = e.account_id
                 WHERE t.%s = :id
                 ORDER BY t.kind, e.line
                """.formatted(column))
                .param("id", id)
                .query(String.class)
                .list();
    }

    /** The events of one resource, in order. */
    static List<String> outboxTypes(JdbcClient jdbc, UUID resource) {
        return jdbc.sql("SELECT event_type FROM outbox WHERE resource_id = :id ORDER BY sequence")
                .param("id", resource)
                .query(String.class)
                .list();
    }

    /** The kinds of a payment's postings, in the order they were made. */
    static List<String> postingKinds(JdbcClient jdbc, String paymentId) {
        UUID id = PaymentId.parse(paymentId).orElseThrow().value();
        return jdbc.sql("SELECT kind FROM ledger_transactions WHERE payment_id = :id ORDER BY occurred_at, kind")
                .param("id", id)
                .query(String.class)
                .list();
    }

    /** Journal transactions of the merchant whose debits and credits differ. */
    static long unbalancedTransactions(JdbcClient jdbc, MerchantId merchant) {
        return jdbc.sql("""
                SELECT count(*) FROM (
                    SELECT t.id FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
                     WHERE t.merchant_id = :m
                     GROUP BY t.id
                    HAVING sum(CASE e.side WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) <> 0) u
                """).param("m", merchant.value()).query(Long.class).single();
    }

    /**
     * The batches of one phase that {@code kopek.batch.size} counted since {@link #since}: how many, and how many
     * requests they held.
     */
    record Sizes(DistributionSummary summary, long batchesBefore, double requestsBefore) {

        static Sizes since(MeterRegistry meters, String phase) {
            DistributionSummary summary =
                    meters.get("kopek.batch.size").tag("phase", phase).summary();
            return new Sizes(summary, summary.count(), summary.totalAmount());
        }

        long batches() {
            return summary.count() - batchesBefore;
        }

        double requests() {
            return summary.totalAmount() - requestsBefore;
        }
    }

    /**
     * Runs {@code racers} while the merchant's payable account is held FOR UPDATE, and returns their answers. A
     * posting's entries check their account's row (FOR KEY SHARE), so the lanes' first batches wait in the database
     * and every other request queues behind them until {@code expected} more requests have entered a batch (by the
     * counter {@code submitted}) than at the start, or the racers end; then the account is let go, so the rest meet in
     * batches of more than one.
     */
    static <T> List<T> queuedBehindPayable(
            DataSource dataSource, MerchantId merchant, LongSupplier submitted, long expected, Callable<List<T>> racers)
            throws Exception {
        long before = submitted.getAsLong();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor();
                Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("""
                    SELECT 1 FROM ledger_accounts WHERE merchant_id = ? AND type = 'MERCHANT_PAYABLE'
                       AND currency = 'EUR' FOR UPDATE""")) {
                lock.setObject(1, merchant.value());
                lock.execute();
            }
            var running = threads.submit(racers);
            while (submitted.getAsLong() - before != expected && !running.isDone()) {
                Thread.onSpinWait();
                Thread.yield();
            }
            holder.commit();
            return running.get();
        }
    }
}
