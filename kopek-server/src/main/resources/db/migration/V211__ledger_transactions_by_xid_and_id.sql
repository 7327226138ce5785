-- The balances_equal_entries audit walks the journal in the projector's order, a slice at a time (V210): by
-- tx_xid, and by id among the journal transactions of one database transaction (a posting may write several; every
-- journal transaction written before V162 has tx_xid 0). A keyset on (tx_xid, id) needs both in one index; it
-- replaces the index on tx_xid alone (V212), which the projector's range scans and the lag gauge read as well as
-- this one, so postings maintain no more indexes than before.
--
-- CONCURRENTLY, so a database under traffic keeps posting while the index is built; Flyway runs this statement
-- outside a transaction (it must be alone in its file). Should the build fail half way, PostgreSQL leaves an invalid
-- index of this name: drop it and start Kopek again.
CREATE INDEX CONCURRENTLY IF NOT EXISTS ix_ledger_transactions_xid_id ON ledger_transactions (tx_xid, id);
