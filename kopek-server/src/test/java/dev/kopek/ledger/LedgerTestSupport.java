package dev.kopek.ledger;

import dev.kopek.events.MoneyMovement;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.jdbc.BalanceStore;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.SqlPart;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.LedgerProjection;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The shared Kopek of {@link IntegrationTest}, plus what ledger tests need: posting movements the way the business
 * modules do (inside their transaction, as statement parts or through the listener) and reading accounts straight
 * from SQL.
 */
abstract class LedgerTestSupport extends IntegrationTest {

    /** A read that sums whatever the projector has not reached: the tests hold it back on purpose. */
    private static final long UNBOUNDED = Long.MAX_VALUE / 2;

    /** The CTE that makes a statement part post: one row, as a business change that was made. */
    private static final String SOURCE = "movement";

    @Autowired
    protected ApplicationEventPublisher publisher;

    @Autowired
    protected TransactionTemplate tx;

    @Autowired
    protected DataSource dataSource;

    @Autowired
    protected Ledger ledger;

    @Autowired
    protected LedgerQueries queries;

    @Autowired
    protected DriftChecker driftChecker;

    @Autowired
    protected BalanceStore balances;

    @Autowired
    protected LedgerProjector projector;

    protected MerchantId newMerchantId() {
        return merchants.create("Ledger merchant " + UUID.randomUUID()).id();
    }

    protected UUID newId() {
        return TimeOrderedIds.next(clock);
    }

    protected MoneyMovement movement(
            MoneyMovement.Kind kind,
            MerchantId merchant,
            UUID payment,
            UUID source,
            long amountMinor,
            String currency) {
        return new MoneyMovement(source, kind, merchant, payment, Money.of(amountMinor, currency), clock.instant());
    }

    /** Posts the movements in one business transaction, each the way Kopek posts it ({@link #postIn}). */
    protected void publish(MoneyMovement... movements) {
        tx.executeWithoutResult(status -> postIn(movements));
    }

    /**
     * Posts the movements in the transaction open now, each the way the business modules post it: a capture and
     * the release written with it as one part of a statement ({@link Ledger#computedPart}), after the payment is
     * locked; a refund's outcome against its reservation ({@link Ledger#outcomePart}); an authorization hold as a
     * part ({@link Ledger#openingPart}); a refund's reservation and a chargeback's movements published to the
     * ledger's listener. These tests have no payment rows, so an advisory lock on the payment's id stands in for the
     * row lock every writer of a capture or a release takes in an earlier statement of its transaction.
     */
    protected void postIn(MoneyMovement... movements) {
        for (int i = 0; i < movements.length; i++) {
            MoneyMovement movement = movements[i];
            switch (movement.kind()) {
                case CAPTURED, AUTHORIZATION_RELEASED -> {
                    List<MoneyMovement> computed = new ArrayList<>(List.of(movement));
                    while (i + 1 < movements.length
                            && movements[i + 1].kind() == MoneyMovement.Kind.AUTHORIZATION_RELEASED
                            && movements[i + 1].paymentId().equals(movement.paymentId())) {
                        computed.add(movements[++i]);
                    }
                    jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(CAST(:payment AS text), 0))")
                            .param("payment", movement.paymentId())
                            .query((rs, n) -> 1)
                            .single();
                    run(ledger.computedPart(computed, SOURCE), "SELECT 1");
                }
                case REFUND_SUCCEEDED, REFUND_RELEASED -> {
                    Ledger.Required outcome = ledger.outcomePart(movement, SOURCE);
                    // A replay finds its posting already there, as a stored answer's replay would.
                    boolean postedOrReplayed =
                            run(outcome.part(), """
                            SELECT (SELECT count(*) FROM %s) = 1
                                OR EXISTS (SELECT 1 FROM ledger_transactions WHERE source_id = '%s' AND kind = '%s')
                            """.formatted(outcome.written(), movement.sourceId(), movement.kind()));
                    if (!postedOrReplayed) {
                        throw new IllegalStateException(movement.kind() + " of " + movement.sourceId()
                                + " does not match a REFUND_RESERVED of the same source");
                    }
                }
                case AUTHORIZATION_HELD -> run(ledger.openingPart(movement, SOURCE), "SELECT 1");
                case REFUND_RESERVED, CHARGEBACK_WITHDRAWN, CHARGEBACK_REVERSED -> publisher.publishEvent(movement);
            }
        }
    }

    /** Runs {@code part} after the CTE {@link #SOURCE} (one row) and answers {@code select}'s boolean. */
    private boolean run(SqlPart part, String select) {
        return Boolean.TRUE.equals(jdbc.sql("WITH " + SOURCE + " AS (SELECT 1),\n" + part.sql() + "\n" + select)
                .params(part.params())
                .query((rs, n) -> rs.getObject(1) instanceof Boolean b ? b : Boolean.TRUE)
                .single());
    }

    /**
     * An account's balance in its own direction as the API reads it (projected totals plus what the projector has not
     * reached yet); 0 when it does not exist.
     */
    protected long balance(MerchantId merchant, AccountType type, String currency) {
        List<BalanceStore.AccountTotals> accounts = (merchant == null
                        ? balances.platformAccounts(UNBOUNDED)
                        : balances.merchantAccounts(merchant, UNBOUNDED))
                .orElseThrow();
        return accounts.stream()
                .filter(a -> a.type() == type && a.currency().equals(currency))
                .mapToLong(BalanceStore.AccountTotals::balanceMinor)
                .sum();
    }

    /** The same balance from the projection's rows alone (all shards). */
    protected long projectedBalance(MerchantId merchant, AccountType type, String currency) {
        return jdbc.sql("""
                SELECT COALESCE(sum(b.debit_minor), 0)::bigint AS d, COALESCE(sum(b.credit_minor), 0)::bigint AS c
                  FROM ledger_accounts a JOIN ledger_balances b ON b.account_id = a.id
                 WHERE a.merchant_id IS NOT DISTINCT FROM CAST(:merchant AS uuid) AND a.type = :type
                   AND a.currency = :currency
                """)
                .param("merchant", merchant == null ? null : merchant.value().toString())
                .param("type", type.name())
                .param("currency", currency)
                .query((rs, n) -> type.balance(rs.getLong("d"), rs.getLong("c")))
                .single();
    }

    /**
     * Runs projector passes until one has taken in everything committed before this call: a pass the scheduled
     * projector was running at the same time may have started before the last commit.
     */
    protected void projectAll() {
        LedgerProjection.projectAll(jdbc, projector);
    }

    /** The same balance computed from the entries alone. */
    protected long entryBalance(MerchantId merchant, AccountType type, String currency) {
        return jdbc.sql("""
                SELECT COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'debit'), 0)::bigint AS d,
                       COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'credit'), 0)::bigint AS c
                  FROM ledger_accounts a JOIN ledger_entries e ON e.account_id = a.id
                 WHERE a.merchant_id IS NOT DISTINCT FROM CAST(:merchant AS uuid) AND a.type = :type
                   AND a.currency = :currency
                """)
                .param("merchant", merchant == null ? null : merchant.value().toString())
                .param("type", type.name())
                .param("currency", currency)
                .query((rs, n) -> type.balance(rs.getLong("d"), rs.getLong("c")))
                .single();
    }

    protected List<LedgerTransaction> journalOf(MerchantId merchant, UUID payment) {
        return queries.transactions(merchant, payment, null, LedgerQueries.MAX_PAGE)
                .transactions();
    }

    /** Journal transactions of the merchant that do not sum to zero per currency, or have fewer than two entries. */
    protected long unbalancedTransactions(MerchantId merchant) {
        return jdbc.sql("""
                SELECT count(*) FROM (
                    SELECT t.id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
                     WHERE t.merchant_id = :merchant
                     GROUP BY t.id, e.currency
                    HAVING count(e.id) < 2
                        OR sum(CASE e.side WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) <> 0) bad
                """)
                .param("merchant", merchant.value())
                .query(Long.class)
                .single();
    }
}
