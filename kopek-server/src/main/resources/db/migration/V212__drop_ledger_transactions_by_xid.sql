-- ix_ledger_transactions_xid_id (V211) serves every reader of ix_ledger_transactions_xid (V162); one index fewer for
-- every posting to maintain. CONCURRENTLY, alone in its file, as V211.
DROP INDEX CONCURRENTLY IF EXISTS ix_ledger_transactions_xid;
