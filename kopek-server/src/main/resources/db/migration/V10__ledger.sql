-- The double-entry ledger (DESIGN.md L7, L8; docs/ledger.md has the posting table). Everything the law needs is
-- enforced here, so that neither a bug in Java nor plain SQL can break it (only a superuser or the tables' owner
-- can, by switching triggers off):
--   * journal transactions, entries and accounts are append-only (UPDATE, DELETE and TRUNCATE raise);
--   * a DEFERRABLE INITIALLY DEFERRED constraint trigger refuses, at COMMIT, any journal transaction with fewer
--     than two entries or that does not sum to zero per currency, and any reversal that does not mirror what it
--     reverses; entries cannot be added to a committed transaction;
--   * balances are a projection written by a trigger as each entry is inserted, and their totals can only grow.
-- The deferred check runs once the whole DB transaction is complete, so a posting may write its header and
-- entries in any order (Kopek writes both in one statement).

-- Kopek's own accounts (PSP receivable, platform revenue; merchant_id IS NULL) and each merchant's accounts.
-- Platform accounts are touched by every payment, so their balance is spread over sharded rows (hot accounts).
CREATE TABLE ledger_accounts (
    id          BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    merchant_id UUID        REFERENCES merchants (id),          -- NULL: a platform account
    type        TEXT        NOT NULL CHECK (type IN ('PSP_RECEIVABLE', 'PLATFORM_REVENUE', 'MERCHANT_PAYABLE',
                                'HOLDS_RECEIVABLE', 'HOLDS_PAYABLE', 'REFUNDS_PENDING', 'CHARGEBACKS')),
    currency    CHAR(3)     NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    created_at  TIMESTAMPTZ NOT NULL,
    CONSTRAINT ck_ledger_accounts_owner
        CHECK ((merchant_id IS NULL) = (type IN ('PSP_RECEIVABLE', 'PLATFORM_REVENUE')))
);
-- One account per (owner, type, currency). Two partial indexes rather than NULLS NOT DISTINCT (PostgreSQL 15+):
-- Kopek supports PostgreSQL 14.
CREATE UNIQUE INDEX ux_ledger_accounts_merchant ON ledger_accounts (merchant_id, type, currency)
    WHERE merchant_id IS NOT NULL;
CREATE UNIQUE INDEX ux_ledger_accounts_platform ON ledger_accounts (type, currency) WHERE merchant_id IS NULL;

-- A journal transaction: one money movement (or the reversal of one), two or more entries.
CREATE TABLE ledger_transactions (
    id           UUID         PRIMARY KEY,                     -- time-ordered (UUIDv7); the API shows ltx_…
    merchant_id  UUID         NOT NULL REFERENCES merchants (id),
    payment_id   UUID,                                          -- the payment the money belongs to
    source_id    UUID         NOT NULL,                         -- the operation that moved it (payment, capture,
                                                                -- refund, dispute) or, for a reversal, the reversed
    kind         TEXT         NOT NULL CHECK (kind IN ('AUTHORIZATION_HELD', 'CAPTURED', 'AUTHORIZATION_RELEASED',
                                  'REFUND_RESERVED', 'REFUND_SUCCEEDED', 'REFUND_RELEASED', 'CHARGEBACK_WITHDRAWN',
                                  'CHARGEBACK_REVERSED', 'REVERSAL')),
    amount_minor BIGINT       NOT NULL CHECK (amount_minor > 0),  -- the movement as reported; entries may differ
                                                                   -- (a capture also closes part of a hold)
    currency     CHAR(3)      NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    reverses     UUID         REFERENCES ledger_transactions (id),
    reason       VARCHAR(500),                                  -- why a reversal was posted
    entry_count  SMALLINT     NOT NULL CHECK (entry_count BETWEEN 2 AND 64),  -- declared with the header
    occurred_at  TIMESTAMPTZ  NOT NULL,                         -- when the money moved, as the business change says
    recorded_at  TIMESTAMPTZ  NOT NULL,
    -- Idempotency of postings: a replayed or reconciled outcome finds its source here and posts nothing.
    CONSTRAINT ux_ledger_transactions_source UNIQUE (source_id, kind),
    CONSTRAINT ck_ledger_transactions_reversal CHECK ((kind = 'REVERSAL') = (reverses IS NOT NULL)),
    CONSTRAINT ck_ledger_transactions_reason CHECK (kind = 'REVERSAL' OR reason IS NULL),
    CONSTRAINT ux_ledger_transactions_entry_count UNIQUE (id, entry_count)  -- target of the entries' foreign key
);
CREATE INDEX ix_ledger_transactions_merchant ON ledger_transactions (merchant_id, id);
CREATE INDEX ix_ledger_transactions_payment ON ledger_transactions (payment_id, id);
-- A journal transaction is reversed at most once.
CREATE UNIQUE INDEX ux_ledger_transactions_reversed_once ON ledger_transactions (reverses)
    WHERE reverses IS NOT NULL;
-- A refund's reservation is settled once: by the PSP's confirmation or by its refusal, never both.
CREATE UNIQUE INDEX ux_ledger_transactions_refund_settled_once ON ledger_transactions (source_id)
    WHERE kind IN ('REFUND_SUCCEEDED', 'REFUND_RELEASED');

-- Entries: positive amounts with a side. Each repeats its header's entry_count, so that the foreign key and a
-- CHECK bound its line to 1..entry_count: once the deferred check has seen all n lines of a transaction commit,
-- no entry can ever be added to it (every allowed line number is taken). No index by account: balances come from
-- the projection below, and the drift checker reads entries in one pass.
CREATE TABLE ledger_entries (
    id             BIGINT   GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id UUID     NOT NULL,
    entry_count    SMALLINT NOT NULL,
    line           SMALLINT NOT NULL,
    -- No foreign key: a key-share lock per entry on the hot platform accounts would turn into multixact
    -- contention. The deferred check below refuses an entry whose account does not exist in its currency, and
    -- accounts can never be deleted.
    account_id     BIGINT   NOT NULL,
    side           TEXT     NOT NULL CHECK (side IN ('debit', 'credit')),
    amount_minor   BIGINT   NOT NULL CHECK (amount_minor > 0),
    currency       CHAR(3)  NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT fk_ledger_entries_transaction FOREIGN KEY (transaction_id, entry_count)
        REFERENCES ledger_transactions (id, entry_count),
    CONSTRAINT ck_ledger_entries_line CHECK (line BETWEEN 1 AND entry_count),
    CONSTRAINT ux_ledger_entries_line UNIQUE (transaction_id, line)
);

-- The balance projection: per account, one row per shard; the balance is the sum over its rows. Totals only grow.
-- fillfactor leaves room on each page so that the constant updates stay HOT (no index writes).
CREATE TABLE ledger_balances (
    account_id   BIGINT   NOT NULL REFERENCES ledger_accounts (id),
    shard        SMALLINT NOT NULL CHECK (shard BETWEEN 0 AND 63),
    debit_minor  BIGINT   NOT NULL CHECK (debit_minor >= 0),     -- total of debit entries, ever
    credit_minor BIGINT   NOT NULL CHECK (credit_minor >= 0),    -- total of credit entries, ever
    PRIMARY KEY (account_id, shard)
) WITH (fillfactor = 50);

-- How many balance rows a hot (platform) account spreads its postings over; Kopek writes kopek.ledger.hot-shards
-- here at start-up. Lowering it is safe: rows of higher shards keep their totals and are still summed on read.
CREATE TABLE ledger_settings (
    singleton  BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    hot_shards INT     NOT NULL CHECK (hot_shards BETWEEN 1 AND 64)
);
INSERT INTO ledger_settings (hot_shards) VALUES (8);

-- Per-merchant fee on captures, per currency: basis points of the captured amount plus a fixed amount (see
-- docs/ledger.md for the rounding rule). No row: no fee.
CREATE TABLE ledger_merchant_fees (
    merchant_id UUID        NOT NULL REFERENCES merchants (id),
    currency    CHAR(3)     NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    bps         INT         NOT NULL CHECK (bps BETWEEN 0 AND 10000),
    fixed_minor BIGINT      NOT NULL CHECK (fixed_minor BETWEEN 0 AND 1000000000000),
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (merchant_id, currency)
);

-- Append-only: no UPDATE, DELETE or TRUNCATE of history. (A row lock, SELECT … FOR NO KEY UPDATE, is not an
-- update and stays possible: the ledger uses it to serialise postings against one authorization hold.)
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation',
              HINT = 'correct a journal transaction by posting its reversal';
END
$$;

CREATE TRIGGER ledger_accounts_append_only BEFORE UPDATE OR DELETE ON ledger_accounts
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON ledger_transactions
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_balances_no_truncate BEFORE TRUNCATE ON ledger_balances
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

-- Balance rows may only grow their totals; they are never deleted or moved to another account or shard.
CREATE FUNCTION ledger_balances_only_grow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'ledger balances are never deleted' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.account_id <> OLD.account_id OR NEW.shard <> OLD.shard
            OR NEW.debit_minor < OLD.debit_minor OR NEW.credit_minor < OLD.credit_minor THEN
        RAISE EXCEPTION 'ledger balance totals only grow (account %, shard %)', OLD.account_id, OLD.shard
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER ledger_balances_guard BEFORE UPDATE OR DELETE ON ledger_balances
    FOR EACH ROW EXECUTE FUNCTION ledger_balances_only_grow();

-- The balance projection, maintained by the database as each entry is inserted, so no code path can write an
-- entry without its balance. Lock order: Kopek's JournalStore inserts a posting's entries in one global order —
-- merchant accounts by ascending id, then platform accounts by ascending id — and row triggers fire in insertion
-- order, so every posting takes its balance rows in that order and concurrent postings cannot deadlock on them;
-- the hot platform rows come last, to be held for the shortest time. A platform account spreads over hot_shards
-- rows: the entry takes the first shard no other transaction holds (SKIP LOCKED), starting at a random one, and
-- waits only when all are busy; missing shard rows are created on first use.
CREATE FUNCTION ledger_project_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_debit  BIGINT := CASE NEW.side WHEN 'debit' THEN NEW.amount_minor ELSE 0 END;
    v_credit BIGINT := CASE NEW.side WHEN 'credit' THEN NEW.amount_minor ELSE 0 END;
    v_hot    BOOLEAN;
    v_shards INT;
    v_start  INT;
    v_shard  INT := 0;
BEGIN
    SELECT merchant_id IS NULL INTO v_hot FROM ledger_accounts WHERE id = NEW.account_id;
    IF v_hot THEN
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
CREATE TRIGGER ledger_entries_project_balances AFTER INSERT ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_project_entry();

-- L8 at COMMIT, once per journal transaction: it has exactly the entries its header declares (two or more, lines
-- 1..n), sums to zero per currency, posts only to accounts that exist in the entry's currency, and, if it is a
-- reversal, mirrors the reversed transaction. Entries cannot be added to a committed transaction at all (see
-- ledger_entries), so checking when the header is written covers every entry.
CREATE FUNCTION ledger_check_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
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
    IF NEW.reverses IS NOT NULL AND EXISTS (
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
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_transaction();
