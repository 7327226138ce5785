-- Two foreign keys to merchants go: the outbox's and the journal's. Each was checked on every event and every
-- posting with SELECT … FOR KEY SHARE on the merchant's row, so concurrent payments of one merchant all locked the
-- same row, each lock a new MultiXact while others held it — 2.2 % of the database's instructions per payment
-- (benchmarks/README.md, issue 11) and a point where every payment of a large merchant meets.
--
-- What they guaranteed still holds: an event's or a posting's merchant_id is always copied from the payment, key or
-- operation row the same transaction wrote or locked, and those keep their foreign key (the key claim's is also what
-- serializes a first payment with a change of the merchant's PSP, see PaymentStore.insertPending); merchants are
-- never deleted. The webhook deliveries' foreign key stays: deliveries exist only for merchants with endpoints.
ALTER TABLE outbox DROP CONSTRAINT outbox_merchant_id_fkey;
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_merchant_id_fkey;

-- The balance check at commit (L8) no longer runs its reversal query for a transaction that reverses nothing: the
-- condition was one SQL query, planned and run through SPI for every posting even when it was false at once.
CREATE OR REPLACE FUNCTION ledger_check_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_lines      BIGINT;
    v_last_line  INT;
    v_unbalanced TEXT;
    v_orphans    BIGINT;
BEGIN
    SELECT sum(g.lines), max(g.last_line), string_agg(g.currency || ' ' || g.net, ', ') FILTER (WHERE g.net <> 0),
           sum(g.orphans)
      INTO v_lines, v_last_line, v_unbalanced, v_orphans
      FROM (SELECT e.currency, count(*) AS lines, max(e.line) AS last_line,
                   sum(CASE e.side WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) AS net,
                   count(*) FILTER (WHERE a.id IS NULL) AS orphans
              FROM ledger_entries e
              LEFT JOIN ledger_accounts a ON a.id = e.account_id AND a.currency = e.currency
             WHERE e.transaction_id = NEW.id
             GROUP BY e.currency) g;
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
