-- Every account's balance spreads over ledger_settings.hot_shards rows, merchant accounts too (V10 sharded only the
-- platform accounts). A merchant with much traffic is a hot account as well: with one balance row, every capture
-- for that merchant waited for the row lock of the one before it, held until its commit — a commit that waits for
-- the WAL flush. Measured with one merchant on 2 cores (benchmarks/README.md): the journal insert waited about 5 ms
-- per payment and capped the payment rate. Readers already sum an account's rows; lock order is unchanged
-- (merchant accounts by ascending id, then platform accounts, one shard per account taken with SKIP LOCKED from a
-- random start, waiting only when every shard is busy); missing shard rows are created on first use.
CREATE OR REPLACE FUNCTION ledger_project_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_debit  BIGINT := CASE NEW.side WHEN 'debit' THEN NEW.amount_minor ELSE 0 END;
    v_credit BIGINT := CASE NEW.side WHEN 'credit' THEN NEW.amount_minor ELSE 0 END;
    v_shards INT;
    v_start  INT;
    v_shard  INT := 0;
BEGIN
    SELECT hot_shards INTO v_shards FROM ledger_settings;
    IF v_shards > 1 THEN
        v_start := floor(random() * v_shards)::int;
        UPDATE ledger_balances b
           SET debit_minor = b.debit_minor + v_debit, credit_minor = b.credit_minor + v_credit
         WHERE b.account_id = NEW.account_id
           AND b.shard = (SELECT f.shard FROM ledger_balances f
                           WHERE f.account_id = NEW.account_id AND f.shard < v_shards
                           ORDER BY (f.shard - v_start + v_shards) % v_shards
                           LIMIT 1 FOR UPDATE SKIP LOCKED);
        IF FOUND THEN
            RETURN NULL;
        END IF;
        v_shard := v_start;
    END IF;
    UPDATE ledger_balances b
       SET debit_minor = b.debit_minor + v_debit, credit_minor = b.credit_minor + v_credit
     WHERE b.account_id = NEW.account_id AND b.shard = v_shard;
    IF NOT FOUND THEN
        INSERT INTO ledger_balances AS b (account_id, shard, debit_minor, credit_minor)
        VALUES (NEW.account_id, v_shard, v_debit, v_credit)
        ON CONFLICT (account_id, shard) DO UPDATE
           SET debit_minor = b.debit_minor + EXCLUDED.debit_minor,
               credit_minor = b.credit_minor + EXCLUDED.credit_minor;
    END IF;
    RETURN NULL;
END
$$;
