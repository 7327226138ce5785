package dev.kopek.ledger.jdbc;

import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * L8 in production: every journal transaction has the entries it declares and sums to zero per currency. The
 * deferred trigger refuses anything else at commit, so a finding means the trigger was bypassed (switched off by a
 * superuser, a restore, a hand edit). Walks the journal in id order (UUIDv7, so roughly the order of posting), a
 * slice of transactions with their entries in one statement.
 */
@Component
class LedgerBalancedCheck implements InvariantCheck {

    private final JdbcClient jdbc;

    LedgerBalancedCheck(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String name() {
        return "ledger_balanced";
    }

    @Override
    public String law() {
        return "L8: every journal transaction has its declared entries and sums to zero per currency";
    }

    @Override
    public long total() {
        return InvariantCheck.rowsOf(jdbc, "ledger_transactions");
    }

    @Override
    public Slice check(String after, int limit) {
        record Row(UUID id, UUID merchant, UUID payment, String kind, int declared, int entries, String off) {}
        List<Row> rows = jdbc.sql("""
                WITH slice AS (
                    SELECT id, merchant_id, payment_id, kind, entry_count FROM ledger_transactions
                     WHERE id > CAST(:after AS uuid) ORDER BY id LIMIT :limit
                )
                SELECT s.id, s.merchant_id, s.payment_id, s.kind, s.entry_count,
                       (SELECT count(*) FROM ledger_entries e WHERE e.transaction_id = s.id) AS entries,
                       (SELECT string_agg(n.currency || ' ' || n.net, ', ' ORDER BY n.currency)
                          FROM (SELECT e.currency,
                                       sum(CASE e.side WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) AS net
                                  FROM ledger_entries e WHERE e.transaction_id = s.id
                                 GROUP BY e.currency) n
                         WHERE n.net <> 0) AS off
                  FROM slice s ORDER BY s.id
                """)
                .param("after", after == null ? "00000000-0000-0000-0000-000000000000" : after)
                .param("limit", limit)
                .query((rs, n) -> new Row(
                        rs.getObject("id", UUID.class),
                        rs.getObject("merchant_id", UUID.class),
                        rs.getObject("payment_id", UUID.class),
                        rs.getString("kind"),
                        rs.getInt("entry_count"),
                        rs.getInt("entries"),
                        rs.getString("off")))
                .list();
        List<Finding> findings = new ArrayList<>();
        for (Row r : rows) {
            if (r.off() != null || r.entries() != r.declared()) {
                findings.add(new Finding(
                        "journal transaction " + r.id(),
                        r.id(),
                        r.merchant(),
                        r.payment(),
                        r.kind() + " transaction " + r.id() + " has " + r.entries() + " of " + r.declared() + " entries"
                                + (r.off() == null ? "" : " and is off by " + r.off()),
                        Excuse.NONE));
            }
        }
        return new Slice(
                rows.size(), rows.isEmpty() ? null : rows.getLast().id().toString(), findings);
    }
}
