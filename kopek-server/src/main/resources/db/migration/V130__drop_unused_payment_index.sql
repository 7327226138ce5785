-- Issue 11 (benchmarks/README.md): ix_payments_merchant_key (merchant_id, idempotency_key) serves no query. Kopek
-- finds a payment's key through idempotency_keys (its primary key) and the payment through the key's resource_id,
-- never payments by idempotency key; pg_stat_user_indexes showed 0 scans after 60,000 payments. Every payment
-- inserts its row and updates it once with a new status, and neither update can be HOT (status is in partial-index
-- predicates, psp_reference is indexed), so each unused index costs two index insertions and their WAL per payment.
DROP INDEX IF EXISTS ix_payments_merchant_key;
