package dev.kopek.ledger.jdbc;

import dev.kopek.ledger.domain.AccountType;
import dev.kopek.money.MerchantId;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads the balance projection (a sum over each account's shard rows) and compares it with the journal. */
@Repository
public class BalanceStore {

    private final JdbcClient jdbc;

    BalanceStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** An account's totals: what the projection says, and, for the drift check, what the entries say. */
    public record AccountTotals(long accountId, UUID merchant, AccountType type, String currency, long debitsMinor,
            long creditsMinor) {

        public long balanceMinor() {
            return type.balance(debitsMinor, creditsMinor);
        }
    }

    /** An account whose projection disagrees with its entries. */
    public record Drift(AccountTotals projected, long entryDebitsMinor, long entryCreditsMinor) {
    }

    public List<AccountTotals> merchantAccounts(MerchantId merchant) {
        return jdbc.sql("""
                SELECT a.id, a.merchant_id, a.type, a.currency,
                       COALESCE(sum(b.debit_minor), 0)::bigint AS debits,
                       COALESCE(sum(b.credit_minor), 0)::bigint AS credits
                  FROM ledger_accounts a
                  LEFT JOIN ledger_balances b ON b.account_id = a.id
                 WHERE a.merchant_id = :merchant
                 GROUP BY a.id
                 ORDER BY a.currency, a.type
                """)
                .param("merchant", merchant.value())
                .query((rs, n) -> new AccountTotals(rs.getLong("id"), rs.getObject("merchant_id", UUID.class),
                        AccountType.valueOf(rs.getString("type")), rs.getString("currency"), rs.getLong("debits"),
                        rs.getLong("credits")))
                .list();
    }

    public List<AccountTotals> platformAccounts() {
        return jdbc.sql("""
                SELECT a.id, a.type, a.currency,
                       COALESCE(sum(b.debit_minor), 0)::bigint AS debits,
                       COALESCE(sum(b.credit_minor), 0)::bigint AS credits
                  FROM ledger_accounts a
                  LEFT JOIN ledger_balances b ON b.account_id = a.id
                 WHERE a.merchant_id IS NULL
                 GROUP BY a.id
                 ORDER BY a.currency, a.type
                """)
                .query((rs, n) -> new AccountTotals(rs.getLong("id"), null, AccountType.valueOf(rs.getString("type")),
                        rs.getString("currency"), rs.getLong("debits"), rs.getLong("credits")))
                .list();
    }

    /**
     * Every account whose projected totals differ from the totals of its entries, in one pass over the journal.
     * The caller runs it in one snapshot (REPEATABLE READ): entries and their projection commit together, so
     * any snapshot sees them agree unless something broke the projection.
     */
    public List<Drift> drifted() {
        return jdbc.sql("""
                SELECT a.id, a.merchant_id, a.type, a.currency,
                       COALESCE(b.debits, 0) AS debits, COALESCE(b.credits, 0) AS credits,
                       COALESCE(e.debits, 0) AS entry_debits, COALESCE(e.credits, 0) AS entry_credits
                  FROM ledger_accounts a
                  LEFT JOIN (SELECT account_id, sum(debit_minor)::bigint AS debits,
                                    sum(credit_minor)::bigint AS credits
                               FROM ledger_balances GROUP BY account_id) b ON b.account_id = a.id
                  LEFT JOIN (SELECT account_id,
                                    COALESCE(sum(amount_minor) FILTER (WHERE side = 'debit'), 0)::bigint AS debits,
                                    COALESCE(sum(amount_minor) FILTER (WHERE side = 'credit'), 0)::bigint AS credits
                               FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
                 WHERE COALESCE(b.debits, 0) <> COALESCE(e.debits, 0)
                    OR COALESCE(b.credits, 0) <> COALESCE(e.credits, 0)
                 ORDER BY a.id
                """)
                .query((rs, n) -> new Drift(new AccountTotals(rs.getLong("id"), rs.getObject("merchant_id", UUID.class),
                        AccountType.valueOf(rs.getString("type")), rs.getString("currency"), rs.getLong("debits"),
                        rs.getLong("credits")), rs.getLong("entry_debits"), rs.getLong("entry_credits")))
                .list();
    }

    public long accountCount() {
        return jdbc.sql("SELECT count(*) FROM ledger_accounts").query(Long.class).single();
    }

    /** Written at start-up from kopek.ledger.hot-shards; the projection trigger reads it on every posting. */
    public void setHotShards(int shards) {
        jdbc.sql("UPDATE ledger_settings SET hot_shards = :shards").param("shards", shards).update();
    }
}
