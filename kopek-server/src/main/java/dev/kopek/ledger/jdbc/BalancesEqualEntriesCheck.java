package dev.kopek.ledger.jdbc;

import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Balances equal their entries, a slice of merchants at a time: each merchant account's projected totals against
 * the sum of the entries of that merchant's journal transactions below the projection's mark, found through the
 * journal's index by merchant (the entries have no index by account, on purpose: V10). The platform accounts are in
 * every transaction, so no slice can sum them cheaply; the pass's last slice checks the trial balance instead (per
 * currency, every account's projected debits equal its credits, which holds while every transaction is balanced
 * and every merchant account equals its entries), and the hourly drift check ({@code DriftChecker}) reads them
 * whole. One statement: the projection and its mark move in one transaction, so one snapshot sees them agree.
 */
@Component
class BalancesEqualEntriesCheck implements InvariantCheck {

    private static final String NO_MERCHANT = "00000000-0000-0000-0000-000000000000";

    private final JdbcClient jdbc;

    BalancesEqualEntriesCheck(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String name() {
        return "balances_equal_entries";
    }

    @Override
    public String law() {
        return "L8: every account's balance is the sum of its entries";
    }

    @Override
    public long total() {
        return jdbc.sql("SELECT count(DISTINCT merchant_id) FROM ledger_accounts")
                .query(Long.class)
                .single();
    }

    private record Account(
            UUID merchant,
            long id,
            String type,
            String currency,
            long debits,
            long credits,
            long entryDebits,
            long entryCredits) {}

    @Override
    public Slice check(String after, int limit) {
        List<Account> accounts = jdbc.sql("""
                WITH slice AS (
                    SELECT DISTINCT merchant_id FROM ledger_accounts
                     WHERE merchant_id > CAST(:after AS uuid) ORDER BY merchant_id LIMIT :limit
                ),
                accounts AS (SELECT a.* FROM ledger_accounts a JOIN slice s ON s.merchant_id = a.merchant_id),
                projected AS (
                    SELECT b.account_id, sum(b.debit_minor)::bigint AS debits, sum(b.credit_minor)::bigint AS credits
                      FROM ledger_balances b JOIN accounts a ON a.id = b.account_id
                     GROUP BY b.account_id
                ),
                entries AS (
                    SELECT e.account_id,
                           COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'debit'), 0)::bigint AS debits,
                           COALESCE(sum(e.amount_minor) FILTER (WHERE e.side = 'credit'), 0)::bigint AS credits
                      FROM ledger_projection m, slice s
                      JOIN ledger_transactions t ON t.merchant_id = s.merchant_id
                      JOIN ledger_entries e ON e.transaction_id = t.id
                      JOIN accounts a ON a.id = e.account_id
                     WHERE t.tx_xid < m.projected_below
                     GROUP BY e.account_id
                )
                SELECT a.merchant_id, a.id, a.type, a.currency,
                       COALESCE(p.debits, 0) AS debits, COALESCE(p.credits, 0) AS credits,
                       COALESCE(e.debits, 0) AS entry_debits, COALESCE(e.credits, 0) AS entry_credits
                  FROM accounts a
                  LEFT JOIN projected p ON p.account_id = a.id
                  LEFT JOIN entries e ON e.account_id = a.id
                 ORDER BY a.merchant_id, a.id
                """)
                .param("after", after == null ? NO_MERCHANT : after)
                .param("limit", limit)
                .query((rs, n) -> new Account(
                        rs.getObject("merchant_id", UUID.class),
                        rs.getLong("id"),
                        rs.getString("type"),
                        rs.getString("currency"),
                        rs.getLong("debits"),
                        rs.getLong("credits"),
                        rs.getLong("entry_debits"),
                        rs.getLong("entry_credits")))
                .list();
        List<Finding> findings = new ArrayList<>();
        for (Account a : accounts) {
            if (a.debits() != a.entryDebits() || a.credits() != a.entryCredits()) {
                findings.add(new Finding(
                        "account " + a.id(),
                        null,
                        a.merchant(),
                        null,
                        a.type() + " account " + a.id() + " in " + a.currency() + " projects debits/credits "
                                + a.debits() + "/" + a.credits() + " but its entries sum to " + a.entryDebits() + "/"
                                + a.entryCredits(),
                        Excuse.NONE));
            }
        }
        int merchants =
                (int) accounts.stream().map(Account::merchant).distinct().count();
        if (merchants < limit) {
            findings.addAll(trialBalance());
        }
        return new Slice(
                merchants,
                accounts.isEmpty() ? null : accounts.getLast().merchant().toString(),
                findings);
    }

    /** Per currency, all accounts' projected debits against their credits. */
    private List<Finding> trialBalance() {
        return jdbc.sql("""
                SELECT a.currency, sum(b.debit_minor)::bigint - sum(b.credit_minor)::bigint AS net
                  FROM ledger_balances b JOIN ledger_accounts a ON a.id = b.account_id
                 GROUP BY a.currency
                HAVING sum(b.debit_minor) <> sum(b.credit_minor)
                 ORDER BY a.currency
                """)
                .query((rs, n) -> new Finding(
                        "trial balance " + rs.getString("currency"),
                        null,
                        null,
                        null,
                        "all accounts' projected debits and credits in " + rs.getString("currency") + " differ by "
                                + rs.getLong("net"),
                        Excuse.NONE))
                .list();
    }
}
