-- Issue 24, defect 2: a PSP notification, a person's decision and the settlement's unknown-charge resolver find the
-- key of a payment, capture, void or refund by its resource (IdempotencyKeys.findUnfinishedByResource), and no index
-- covered resource_id: each of them scanned every key of the retention window (millions of rows in seven days).
-- Only an unfinished key can be taken over, so only those are indexed: the index stays as small as the work in
-- flight, and the completion of a key (the one UPDATE every operation makes) adds no entry to it.
--
-- CONCURRENTLY, so a database under traffic keeps writing keys while the index is built; Flyway runs this statement
-- outside a transaction (it must be alone in its file). Should the build fail half way, PostgreSQL leaves an invalid
-- index of this name: drop it and start Kopek again.
CREATE INDEX CONCURRENTLY IF NOT EXISTS ix_idempotency_keys_unfinished_resource ON idempotency_keys (resource_id)
    WHERE status IN ('IN_PROGRESS', 'AWAITING_RESULT');
