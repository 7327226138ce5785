-- The journal's row invariants join the commit-time check (L8): a journal transaction's header (kind, owner,
-- reversal, reason, amount, currency, entry count) and its entries (side, amount, currency) are checked once, by the
-- deferred trigger that already reads them at COMMIT, instead of by ten CHECK constraints that PostgreSQL re-read and
-- re-compiled from their stored text for every INSERT (V160 says why that is dear): 0.3 of 3.5 million instructions
-- per payment in the database backend (Script K under callgrind, benchmarks/README.md, issue 11). Nothing invalid
-- can commit, as before; a violation is refused at COMMIT with SQLSTATE 23514 naming the constraint it replaces.
--
-- What still refuses at once, because it protects committed history rather than the transaction being written: an
-- entry can only be added under its header's (id, entry_count) (foreign key), with a line within 1..entry_count
-- (ck_ledger_entries_line) that no entry has taken (ux_ledger_entries_line). So every entry is written in its
-- header's transaction, and this check sees all of them.
ALTER TABLE ledger_transactions
    DROP CONSTRAINT ck_ledger_transactions_kind,
    DROP CONSTRAINT ck_ledger_transactions_owner,
    DROP CONSTRAINT ck_ledger_transactions_reason,
    DROP CONSTRAINT ck_ledger_transactions_reversal,
    DROP CONSTRAINT ledger_transactions_amount_minor_check,
    DROP CONSTRAINT ledger_transactions_currency_check,
    DROP CONSTRAINT ledger_transactions_entry_count_check;
ALTER TABLE ledger_entries
    DROP CONSTRAINT ledger_entries_amount_minor_check,
    DROP CONSTRAINT ledger_entries_currency_check,
    DROP CONSTRAINT ledger_entries_side_check;

CREATE OR REPLACE FUNCTION ledger_check_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_lines      BIGINT;
    v_last_line  INT;
    v_unbalanced TEXT;
    v_orphans    BIGINT;
    v_bad_entry  TEXT;
    v_broken     TEXT;
BEGIN
    -- The header, in one expression for the common case (IS NOT FALSE: a NULL is NOT NULL's to refuse).
    IF (NEW.kind IN ('AUTHORIZATION_HELD', 'CAPTURED', 'AUTHORIZATION_RELEASED', 'REFUND_RESERVED', 'REFUND_SUCCEEDED',
                     'REFUND_RELEASED', 'CHARGEBACK_WITHDRAWN', 'CHARGEBACK_REVERSED', 'PSP_FEE_CHARGED',
                     'PSP_FEE_RETURNED', 'REVERSAL')
        -- Every movement belongs to a merchant but the platform's own: PSP fees, and reversals of them.
        AND (NEW.merchant_id IS NOT NULL OR NEW.kind IN ('PSP_FEE_CHARGED', 'PSP_FEE_RETURNED', 'REVERSAL'))
        AND (NEW.kind = 'REVERSAL') = (NEW.reverses IS NOT NULL)
        AND (NEW.kind = 'REVERSAL' OR NEW.reason IS NULL)
        AND NEW.amount_minor > 0
        AND NEW.currency ~ '^[A-Z]{3}$'
        AND NEW.entry_count BETWEEN 2 AND 64) IS FALSE THEN
        v_broken := CASE
            WHEN (NEW.kind IN ('AUTHORIZATION_HELD', 'CAPTURED', 'AUTHORIZATION_RELEASED', 'REFUND_RESERVED',
                               'REFUND_SUCCEEDED', 'REFUND_RELEASED', 'CHARGEBACK_WITHDRAWN', 'CHARGEBACK_REVERSED',
                               'PSP_FEE_CHARGED', 'PSP_FEE_RETURNED', 'REVERSAL')) IS FALSE
                THEN 'ck_ledger_transactions_kind'
            WHEN (NEW.merchant_id IS NOT NULL OR NEW.kind IN ('PSP_FEE_CHARGED', 'PSP_FEE_RETURNED', 'REVERSAL')) IS FALSE
                THEN 'ck_ledger_transactions_owner'
            WHEN ((NEW.kind = 'REVERSAL') = (NEW.reverses IS NOT NULL)) IS FALSE THEN 'ck_ledger_transactions_reversal'
            WHEN (NEW.kind = 'REVERSAL' OR NEW.reason IS NULL) IS FALSE THEN 'ck_ledger_transactions_reason'
            WHEN (NEW.amount_minor > 0) IS FALSE THEN 'ledger_transactions_amount_minor_check'
            WHEN (NEW.currency ~ '^[A-Z]{3}$') IS FALSE THEN 'ledger_transactions_currency_check'
            ELSE 'ledger_transactions_entry_count_check'
        END;
        RAISE EXCEPTION 'journal transaction % violates check constraint "%"', NEW.id, v_broken
            USING ERRCODE = 'check_violation', CONSTRAINT = v_broken, TABLE = 'ledger_transactions';
    END IF;
    SELECT sum(g.lines), max(g.last_line), string_agg(g.currency || ' ' || g.net, ', ') FILTER (WHERE g.net <> 0),
           sum(g.orphans), min(g.bad_entry)
      INTO v_lines, v_last_line, v_unbalanced, v_orphans, v_bad_entry
      FROM (SELECT e.currency, count(*) AS lines, max(e.line) AS last_line,
                   sum(CASE e.side WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) AS net,
                   count(*) FILTER (WHERE a.id IS NULL) AS orphans,
                   min(CASE WHEN e.side NOT IN ('debit', 'credit') THEN 'ledger_entries_side_check'
                            WHEN e.amount_minor <= 0 THEN 'ledger_entries_amount_minor_check'
                            WHEN e.currency !~ '^[A-Z]{3}$' THEN 'ledger_entries_currency_check' END) AS bad_entry
              FROM ledger_entries e
              LEFT JOIN ledger_accounts a ON a.id = e.account_id AND a.currency = e.currency
             WHERE e.transaction_id = NEW.id
             GROUP BY e.currency) g;
    IF v_bad_entry IS NOT NULL THEN
        RAISE EXCEPTION 'an entry of journal transaction % violates check constraint "%"', NEW.id, v_bad_entry
            USING ERRCODE = 'check_violation', CONSTRAINT = v_bad_entry, TABLE = 'ledger_entries';
    END IF;
    v_lines := coalesce(v_lines, 0);
    IF v_lines < 2 OR v_lines <> NEW.entry_count OR v_last_line <> NEW.entry_count THEN
        RAISE EXCEPTION 'journal transaction % has % entries but declares %; it needs at least two', NEW.id, v_lines,
            NEW.entry_count USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
    END IF;
    IF v_unbalanced IS NOT NULL THEN
        RAISE EXCEPTION 'journal transaction % does not sum to zero (debits minus credits: %)', NEW.id, v_unbalanced
            USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
    END IF;
    IF v_orphans > 0 THEN
        RAISE EXCEPTION 'journal transaction % posts to an account that does not exist in the entry''s currency',
            NEW.id USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_transaction_balanced';
    END IF;
    IF NEW.reverses IS NULL THEN
        RETURN NULL;
    END IF;
    IF EXISTS (
            (SELECT account_id, side, amount_minor, currency FROM ledger_entries WHERE transaction_id = NEW.reverses
             EXCEPT ALL
             SELECT account_id, CASE side WHEN 'debit' THEN 'credit' ELSE 'debit' END, amount_minor, currency
               FROM ledger_entries WHERE transaction_id = NEW.id)
            UNION ALL
            (SELECT account_id, CASE side WHEN 'debit' THEN 'credit' ELSE 'debit' END, amount_minor, currency
               FROM ledger_entries WHERE transaction_id = NEW.id
             EXCEPT ALL
             SELECT account_id, side, amount_minor, currency FROM ledger_entries WHERE transaction_id = NEW.reverses))
    THEN
        RAISE EXCEPTION 'journal transaction % does not mirror the transaction % it reverses', NEW.id, NEW.reverses
            USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
    END IF;
    RETURN NULL;
END
$$;
