package dev.kopek.ledger;

import dev.kopek.events.MoneyMovement;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.jdbc.BalanceStore;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.LedgerProjection;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The shared Kopek of {@link IntegrationTest}, plus what ledger tests need: publishing movements the way the
 * business modules do (synchronously, inside their transaction) and reading accounts straight from SQL.
 */
abstract class LedgerTestSupport extends IntegrationTest {

    /** A read that sums whatever the projector has not reached: the tests hold it back on purpose. */
    private static final long UNBOUNDED = Long.MAX_VALUE / 2;

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

    /** Publishes the movements in one business transaction, as a module recording them would. */
    protected void publish(MoneyMovement... movements) {
        tx.executeWithoutResult(status -> {
            for (MoneyMovement movement : movements) {
                publisher.publishEvent(movement);
            }
        });
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
