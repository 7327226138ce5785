-- Grows a Kopek database to :target payments by cloning the payments Kopek itself wrote (in a benchmark run: the
-- warmup and the closed loop), with every row that belongs to them: the idempotency key, the outbox events, the
-- journal transactions and their entries, the PSP call lines. Used by run-side-by-side.sh (GROWTH_PAYMENTS) to
-- measure throughput with a large database without driving a million payments through HTTP first.
--
-- Consistency: every uuid that names a cloned row (payment, key's resource, event, journal transaction, source) is
-- mapped by one function of (old id, copy number), so references between cloned rows stay intact; merchants and
-- ledger accounts are kept. Unique text (reference, idempotency key, provider key) gets a copy suffix. The ledger's
-- triggers are off while cloning (session_replication_role = replica, as a logical replica applies rows): each
-- cloned journal transaction is a copy of one that passed the deferred balance check, so it balances too. Each
-- copy's journal transactions carry the copying transaction's id (tx_xid's default), so the running Kopek's balance
-- projector adds them to the balances like any posting (V162); the script waits for it before its drift check.
--
--   psql -v target=1000000 -f preload-payments.sql kopek
\set ON_ERROR_STOP on

CREATE FUNCTION pg_temp.copy_id(old uuid, copy int) RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT md5(old::text || ':' || copy)::uuid $$;
CREATE FUNCTION pg_temp.hex(id uuid) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT replace(id::text, '-', '') $$;

-- The template: Kopek's own finished payments as they are now.
CREATE TEMP TABLE template AS SELECT id FROM payments WHERE status IN ('CAPTURED', 'DECLINED', 'FAILED', 'AUTHORIZED');
SELECT count(*) AS template_payments, (SELECT count(*) FROM payments) AS stored FROM template \gset
SELECT greatest(0, ceil((:target - :stored)::numeric / :template_payments))::int AS copies \gset
\echo preloading :copies copies of :template_payments payments (stored now: :stored, target: :target)

SET session_replication_role = replica;

SELECT format($sql$
BEGIN;
INSERT INTO payments (id, merchant_id, reference, idempotency_key, provider_key, amount, currency, amount_captured,
        payment_method, capture_method, description, metadata, status, version, psp_reference, decline_code,
        failure_reason, created_at, updated_at, amount_authorized, amount_capture_pending, amount_released,
        amount_refunded, amount_refund_pending, capture_before, capture_finalized, amount_disputed)
SELECT pg_temp.copy_id(p.id, %1$s), p.merchant_id, left(p.reference, 56) || '~' || %1$s, p.idempotency_key || '~' || %1$s,
       p.provider_key || '~' || %1$s, p.amount, p.currency, p.amount_captured, p.payment_method, p.capture_method,
       p.description, p.metadata, p.status, p.version, p.psp_reference || '~' || %1$s, p.decline_code,
       p.failure_reason, p.created_at, p.updated_at, p.amount_authorized, p.amount_capture_pending, p.amount_released,
       p.amount_refunded, p.amount_refund_pending, p.capture_before, p.capture_finalized, p.amount_disputed
  FROM payments p JOIN template t ON t.id = p.id;
INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status, attempt, lease_until,
        expires_at, resource_id, response_code, response_body, created_at, updated_at)
SELECT k.merchant_id, k.operation, k.idempotency_key || '~' || %1$s, k.request_hash, k.status, k.attempt, k.lease_until,
       k.expires_at, pg_temp.copy_id(k.resource_id, %1$s), k.response_code,
       replace(k.response_body, pg_temp.hex(k.resource_id), pg_temp.hex(pg_temp.copy_id(k.resource_id, %1$s))),
       k.created_at, k.updated_at
  FROM idempotency_keys k JOIN template t ON t.id = k.resource_id
 WHERE k.operation = 'payment.create';
INSERT INTO outbox (id, event_type, resource_type, resource_id, public_id, sequence, merchant_id, envelope, created_at,
        published_at)
SELECT pg_temp.copy_id(o.id, %1$s), o.event_type, o.resource_type, pg_temp.copy_id(o.resource_id, %1$s),
       replace(o.public_id, pg_temp.hex(o.resource_id), pg_temp.hex(pg_temp.copy_id(o.resource_id, %1$s))),
       o.sequence, o.merchant_id,
       replace(replace(o.envelope, pg_temp.hex(o.resource_id), pg_temp.hex(pg_temp.copy_id(o.resource_id, %1$s))),
               pg_temp.hex(o.id), pg_temp.hex(pg_temp.copy_id(o.id, %1$s))),
       o.created_at, o.published_at
  FROM outbox o JOIN template t ON t.id = o.resource_id
 ORDER BY o.log_position;
INSERT INTO ledger_transactions (id, merchant_id, payment_id, source_id, kind, amount_minor, currency, reverses, reason,
        entry_count, occurred_at, recorded_at)
SELECT pg_temp.copy_id(l.id, %1$s), l.merchant_id, pg_temp.copy_id(l.payment_id, %1$s), pg_temp.copy_id(l.source_id, %1$s),
       l.kind, l.amount_minor, l.currency, NULL, NULL, l.entry_count, l.occurred_at, l.recorded_at
  FROM ledger_transactions l JOIN template t ON t.id = l.payment_id;
INSERT INTO ledger_entries (transaction_id, entry_count, line, account_id, side, amount_minor, currency)
SELECT pg_temp.copy_id(e.transaction_id, %1$s), e.entry_count, e.line, e.account_id, e.side, e.amount_minor, e.currency
  FROM ledger_entries e JOIN ledger_transactions l ON l.id = e.transaction_id JOIN template t ON t.id = l.payment_id
 ORDER BY e.id;
INSERT INTO psp_calls (provider, operation, provider_key, outcome, psp_reference, detail, started_at, duration_ms)
SELECT c.provider, c.operation, c.provider_key || '~' || %1$s, c.outcome, c.psp_reference || '~' || %1$s, c.detail,
       c.started_at, c.duration_ms
  FROM psp_calls c JOIN payments p ON p.provider_key = c.provider_key JOIN template t ON t.id = p.id;
COMMIT;
$sql$, copy) FROM generate_series(1, :copies) AS copy \gexec
SET session_replication_role = origin;

-- The running Kopek projects the copies' postings into the balances; wait until its mark is past them.
CREATE FUNCTION pg_temp.wait_projected(below bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1 .. 600 LOOP
        EXIT WHEN (SELECT projected_below FROM ledger_projection) > below;
        PERFORM pg_sleep(1);
    END LOOP;
END
$$;
SELECT pg_current_xact_id()::text::bigint AS copied_below \gset
SELECT pg_temp.wait_projected(:copied_below);

-- The drift check's invariant, checked here: every account's balance equals the sum of its entries.
SELECT count(*) AS accounts_drifting FROM (
    SELECT a.id FROM ledger_accounts a
      LEFT JOIN (SELECT account_id, sum(debit_minor) d, sum(credit_minor) c FROM ledger_balances GROUP BY account_id) b
             ON b.account_id = a.id
      LEFT JOIN (SELECT account_id, sum(CASE side WHEN 'debit' THEN amount_minor ELSE 0 END) d,
                        sum(CASE side WHEN 'credit' THEN amount_minor ELSE 0 END) c
                   FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
     WHERE coalesce(b.d, 0) <> coalesce(e.d, 0) OR coalesce(b.c, 0) <> coalesce(e.c, 0)) drift \gset
\echo accounts whose balance differs from their entries: :accounts_drifting
SELECT count(*) AS payments, (SELECT count(*) FROM idempotency_keys) AS keys, (SELECT count(*) FROM outbox) AS events,
       (SELECT count(*) FROM ledger_transactions) AS journal_transactions, (SELECT count(*) FROM ledger_entries) AS entries,
       pg_size_pretty(pg_database_size(current_database())) AS database_size
  FROM payments;
ANALYZE;
