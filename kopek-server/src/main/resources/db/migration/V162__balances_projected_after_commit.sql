-- Balances are projected after commit, in batches, instead of by a row trigger inside every posting.
--
-- Why: the trigger updated one balance row per entry while the posting's transaction held it until commit. Every
-- payment touches the PSP receivable, so concurrent payments queued on its few shard rows (SKIP LOCKED hunting,
-- row locks, a PL/pgSQL call and two statements per entry): the journal insert took 0.55 ms of a payment's 1.5 ms
-- of statements under load, and the trigger was a tenth of the database's instructions per payment even alone
-- (benchmarks/README.md, issue 11). Nothing decides on a balance inside a posting; balances are read by the API,
-- the console and the drift check, and those reads stay exact (below).
--
-- How: every journal transaction records the transaction that wrote it (tx_xid). ledger_projection.projected_below
-- says that every journal transaction with tx_xid below it is in ledger_balances, and none above. A projector pass
-- (LedgerProjector) takes xmin of its own snapshot as the new mark: every transaction older than it has ended, so
-- the journal transactions with tx_xid in [projected_below, xmin) that committed are all visible to it, and no
-- later pass can see another one in that range. It adds their entries to the balances and moves the mark in one
-- transaction, so a reader sees balances and mark together: a balance is the projected total plus the entries of
-- journal transactions at or above the mark that the reader's snapshot sees (BalanceStore). The drift check compares
-- the projection with the entries below the mark.
--
-- The journal stays append-only and balanced at commit (V10, L8); ledger_balances still only grows
-- (ledger_balances_guard). Hot platform accounts no longer need shards: only a projector writes balances, one pass
-- at a time; rows already in other shards keep counting, since a balance is the sum over its account's rows.

-- Writers of the journal finish before the mark is taken: everything written before this migration was projected
-- by the trigger it drops, and everything after it has tx_xid above the mark.
LOCK TABLE ledger_transactions, ledger_entries, ledger_balances IN ACCESS EXCLUSIVE MODE;

DROP TRIGGER ledger_entries_project_balances ON ledger_entries;
DROP FUNCTION ledger_project_entry();
DROP TABLE ledger_settings;

-- The writing transaction's id (xid8 as a number, so it never wraps); 0 for journal transactions written before this
-- migration, all of them already projected.
ALTER TABLE ledger_transactions ADD COLUMN tx_xid BIGINT NOT NULL DEFAULT 0;
ALTER TABLE ledger_transactions ALTER COLUMN tx_xid SET DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX ix_ledger_transactions_xid ON ledger_transactions (tx_xid);

CREATE TABLE ledger_projection (
    singleton       BOOLEAN     PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    projected_below BIGINT      NOT NULL,  -- every journal transaction with a lower tx_xid is in ledger_balances
    projected_at    TIMESTAMPTZ NOT NULL   -- when a pass last moved the mark
);
INSERT INTO ledger_projection (projected_below, projected_at)
VALUES (pg_current_xact_id()::text::bigint + 1, now());

CREATE TRIGGER ledger_projection_no_truncate BEFORE TRUNCATE ON ledger_projection
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
