package dev.kopek.ledger.jdbc;

import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A journal written straight in SQL, for the tests that need a long one fast: one merchant, the platform's PSP
 * receivable and the merchant's payable in EUR, and captures of 100 between them, each balanced as the journal's
 * deferred check requires.
 */
final class JournalRows {

    private JournalRows() {}

    /** A merchant named {@code name} with its payable account, and the platform's receivable. */
    static void merchantWithAccounts(JdbcClient jdbc, UUID merchant, String name) {
        jdbc.sql("INSERT INTO merchants (id, name, created_at) VALUES (:id, :name, now())")
                .param("id", merchant)
                .param("name", name)
                .update();
        jdbc.sql("""
                INSERT INTO ledger_accounts (merchant_id, type, currency, created_at)
                VALUES (NULL, 'PSP_RECEIVABLE', 'EUR', now()), (:merchant, 'MERCHANT_PAYABLE', 'EUR', now())
                """).param("merchant", merchant).update();
    }

    /** {@code count} captures of 100 EUR in one database transaction (so with one tx_xid, as a batch of postings). */
    static void captures(JdbcClient jdbc, UUID merchant, int count) {
        jdbc.sql("""
                WITH headers AS (
                    INSERT INTO ledger_transactions (id, merchant_id, payment_id, source_id, kind, amount_minor, currency,
                                                     entry_count, occurred_at, recorded_at)
                    SELECT id, :merchant, id, id, 'CAPTURED', 100, 'EUR', 2, now(), now()
                      FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, :count)) g
                    RETURNING id
                )
                INSERT INTO ledger_entries (transaction_id, entry_count, line, account_id, side, amount_minor, currency)
                SELECT h.id, 2, v.line, a.id, v.side, 100, 'EUR'
                  FROM headers h
                 CROSS JOIN (VALUES (1, 'PSP_RECEIVABLE', 'debit'), (2, 'MERCHANT_PAYABLE', 'credit')) v (line, type, side)
                  JOIN ledger_accounts a ON a.type = v.type AND a.currency = 'EUR'
                """).param("merchant", merchant).param("count", count).update();
    }
}
