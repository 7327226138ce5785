-- Issue 24, defect 7: V162 set the projection's mark to its own transaction id + 1. A transaction that had taken its
-- id before V162 and posted after waiting for V162's lock wrote a journal transaction below the mark, which no
-- projector pass ever reads: its entries were in no balance (the drift check reported it; nothing repaired it).
--
-- ledger_repair_projection() is that repair, and the drift check's documented one (docs/operating-postgresql.md,
-- docs/runbooks/ledger-drift.md; POST /v1/ops/ledger/projection/repair, audited): with the mark's row locked (no
-- projector pass runs meanwhile), it first waits until no transaction of this database that began before the mark is
-- still open (one could still post below the mark), then adds to each account's balance what the entries below the
-- mark hold beyond it. A balance above its entries is not a missed posting but a balance row written outside the
-- projector: it refuses that, and changes nothing.
--
-- Run here once, it repairs a database that ran V162 under traffic, whenever that was, and a database on which V162
-- ran just now, in this same migration run, while a transaction that took its id before V162 is still posting. A
-- database whose balances equal their entries (every new one) gets nothing added.
CREATE FUNCTION ledger_repair_projection(max_wait_seconds INT)
    RETURNS TABLE (account_id BIGINT, added_debit_minor BIGINT, added_credit_minor BIGINT)
    LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_mark     BIGINT;
    v_deadline TIMESTAMPTZ := clock_timestamp() + make_interval(secs => max_wait_seconds);
    v_older    INT;
    v_above    TEXT;
BEGIN
    SELECT projected_below INTO v_mark FROM ledger_projection FOR UPDATE;
    LOOP
        -- In-progress transactions of this database older than the mark (an xid8 and a backend's 32-bit xid agree
        -- modulo 2^32).
        PERFORM pg_stat_clear_snapshot();
        SELECT min(a.pid) INTO v_older
          FROM pg_snapshot_xip(pg_current_snapshot()) x
          JOIN pg_stat_activity a ON a.backend_xid::text::bigint = x::text::bigint % 4294967296
         WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND x::text::bigint < v_mark;
        EXIT WHEN v_older IS NULL;
        IF clock_timestamp() > v_deadline THEN
            RAISE EXCEPTION 'the ledger projection cannot be repaired while session % keeps open a transaction older '
                            'than the projection''s mark; end it and run the repair again', v_older
                USING ERRCODE = 'lock_not_available';
        END IF;
        PERFORM pg_sleep(0.05);
    END LOOP;

    CREATE TEMPORARY TABLE ledger_repair ON COMMIT DROP AS
    SELECT a.id AS account_id,
           COALESCE(e.debits, 0) - COALESCE(b.debits, 0) AS missing_debit,
           COALESCE(e.credits, 0) - COALESCE(b.credits, 0) AS missing_credit
      FROM ledger_accounts a
      LEFT JOIN (SELECT l.account_id, sum(l.debit_minor)::bigint AS debits, sum(l.credit_minor)::bigint AS credits
                   FROM ledger_balances l GROUP BY l.account_id) b ON b.account_id = a.id
      LEFT JOIN (SELECT n.account_id,
                        COALESCE(sum(n.amount_minor) FILTER (WHERE n.side = 'debit'), 0)::bigint AS debits,
                        COALESCE(sum(n.amount_minor) FILTER (WHERE n.side = 'credit'), 0)::bigint AS credits
                   FROM ledger_transactions t JOIN ledger_entries n ON n.transaction_id = t.id
                  WHERE t.tx_xid < v_mark
                  GROUP BY n.account_id) e ON e.account_id = a.id;

    SELECT string_agg(r.account_id::text, ', ') INTO v_above
      FROM ledger_repair r WHERE r.missing_debit < 0 OR r.missing_credit < 0;
    IF v_above IS NOT NULL THEN
        RAISE EXCEPTION 'the balances of accounts % exceed their entries: written outside the projector; not repaired',
                        v_above
            USING ERRCODE = 'data_exception';
    END IF;

    INSERT INTO ledger_balances AS b (account_id, shard, debit_minor, credit_minor)
    SELECT r.account_id, 0, r.missing_debit, r.missing_credit
      FROM ledger_repair r
     WHERE r.missing_debit > 0 OR r.missing_credit > 0
     ORDER BY r.account_id
    ON CONFLICT ON CONSTRAINT ledger_balances_pkey DO UPDATE
       SET debit_minor = b.debit_minor + EXCLUDED.debit_minor,
           credit_minor = b.credit_minor + EXCLUDED.credit_minor;

    RETURN QUERY
    SELECT r.account_id, r.missing_debit, r.missing_credit
      FROM ledger_repair r
     WHERE r.missing_debit > 0 OR r.missing_credit > 0
     ORDER BY r.account_id;
    DROP TABLE ledger_repair;
END;
$$;

COMMENT ON FUNCTION ledger_repair_projection(INT) IS
    'Adds to ledger_balances what the journal below the projection''s mark holds beyond them (docs/ledger.md).';

SELECT count(*) FROM ledger_repair_projection(20);
