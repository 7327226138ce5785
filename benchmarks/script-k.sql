-- Script K: Kopek's own statements for one payment (POST /v1/payments, automatic capture, PSP succeeds), as
-- Kopek sends them, for pgbench (-M prepared, one client). run-script-k.sh runs it in one backend under
-- valgrind's callgrind and counts the backend's instructions per payment. Parameters come from the one SELECT
-- below (its cost is the same for every schema; the JSON is spelt with '=' there, as pgbench reads ':x' in any
-- literal as a variable); :mid (the merchant), :debit and :credit (its
-- EUR accounts) are given with pgbench -D.
SELECT u AS pid, 'pay_' || replace(u::text, '-', '') AS pubid, gen_random_uuid() AS e1, gen_random_uuid() AS e2, gen_random_uuid() AS lt,
       'idem-k-' || gen_random_uuid() AS key, 'kpk_' || md5(random()::text) || md5(random()::text) AS pkey,
       'ch_' || substr(md5(random()::text), 1, 24) AS pspref,
       'ref-k-' || gen_random_uuid() AS ref, now()::text AS ts, (now() + interval '30 s')::text AS lease,
       (now() + interval '7 days')::text AS expires,
       replace('{"id"="evt_01a2482ce66a7d9ca0a40d150b770a31","object"="event","type"="payment.created","created_at"="2026-12-05T21=47=11.849886858Z","merchant"="mer_01a2482cd70d7a71943c3083dc7f5f52","resource"={"type"="payment","id"="pay_01a2482ce6647d4cb2d21665648231b7","sequence"=0},"data"={"id"="pay_01a2482ce6647d4cb2d21665648231b7","object"="payment","reference"="ref-4","status"="processing","amount"=1000,"currency"="EUR","amount_authorized"=0,"amount_captured"=0,"amount_refunded"=0,"amount_capturable"=0,"amount_refund_pending"=0,"amount_disputed"=0,"capture_method"="automatic","capture_before"=null,"payment_method"="pm_ok","description"=null,"metadata"={},"psp_reference"=null,"decline_code"=null,"failure_reason"=null,"next_action"=null,"created_at"="2026-12-05T21=47=11.846380Z","updated_at"="2026-12-05T21=47=11.846380Z"}}', '=', ':') AS env1,
       replace('{"id"="pay_01a2482ce6647d4cb2d21665648231b7","object"="payment","reference"="ref-4","status"="captured","amount"=1000,"currency"="EUR","amount_authorized"=1000,"amount_captured"=1000,"amount_refunded"=0,"amount_capturable"=0,"amount_refund_pending"=0,"amount_disputed"=0,"capture_method"="automatic","capture_before"=null,"payment_method"="pm_ok","description"=null,"metadata"={},"psp_reference"="ch_7hcLPfFYXW7glHDhZRBqmiBT","decline_code"=null,"failure_reason"=null,"next_action"=null,"created_at"="2026-12-05T21=47=11.846380Z","updated_at"="2026-12-05T21=47=11.860667Z"}', '=', ':') AS resp,
       replace('{"id"="evt_01a2482ce68572a2a5824d3770e425d5","object"="event","type"="payment.captured","created_at"="2026-12-05T21=47=11.876945304Z","merchant"="mer_01a2482cd70d7a71943c3083dc7f5f52","resource"={"type"="payment","id"="pay_01a2482ce6647d4cb2d21665648231b7","sequence"=1},"data"={"id"="pay_01a2482ce6647d4cb2d21665648231b7","object"="payment","reference"="ref-4","status"="captured","amount"=1000,"currency"="EUR","amount_authorized"=1000,"amount_captured"=1000,"amount_refunded"=0,"amount_capturable"=0,"amount_refund_pending"=0,"amount_disputed"=0,"capture_method"="automatic","capture_before"=null,"payment_method"="pm_ok","description"=null,"metadata"={},"psp_reference"="ch_7hcLPfFYXW7glHDhZRBqmiBT","decline_code"=null,"failure_reason"=null,"next_action"=null,"created_at"="2026-12-05T21=47=11.846380Z","updated_at"="2026-12-05T21=47=11.860667Z"}}', '=', ':') AS env2
  FROM gen_random_uuid() AS u
\gset
-- transaction 1: one statement in autocommit (PaymentStore.claimAndInsertPending): the claim, the account from the
-- merchant's row locked FOR KEY SHARE, the pending insert, its event
WITH claim AS (
INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status, attempt,
                              lease_until, expires_at, resource_id, created_at, updated_at)
VALUES (CAST(:mid AS uuid), 'payment.create', CAST(:key AS varchar), 'bb0d66feea521469086bc24a30f41a1268c41abc35a426f52f7972c392a78dc2',
        'IN_PROGRESS', 1, CAST(:lease AS timestamptz), CAST(:expires AS timestamptz), CAST(:pid AS uuid), CAST(:ts AS timestamptz), CAST(:ts AS timestamptz))
ON CONFLICT (merchant_id, operation, idempotency_key) DO NOTHING RETURNING 1
), account AS MATERIALIZED (SELECT psp_account FROM merchants WHERE id = CAST(:mid AS uuid) FOR KEY SHARE
), pay AS (
INSERT INTO payments (id, merchant_id, reference, idempotency_key, provider_key, amount, currency,
                      payment_method, capture_method, description, metadata, status,
                      created_at, updated_at, psp_account)
SELECT CAST(:pid AS uuid), CAST(:mid AS uuid), CAST(:ref AS varchar), CAST(:key AS varchar), CAST(:pkey AS varchar), 1000, 'EUR', 'pm_ok', 'automatic',
        NULL, CAST(NULL AS JSONB), 'PENDING', CAST(:ts AS timestamptz), CAST(:ts AS timestamptz),
        (SELECT psp_account FROM account)
  FROM claim
RETURNING *
), event AS (
    INSERT INTO outbox (id, event_type, resource_type, resource_id, public_id, sequence, merchant_id,
                        envelope, created_at)
    SELECT CAST(:e1 AS uuid), 'payment.created', 'payment', CAST(:pid AS uuid), CAST(:pubid AS varchar), 0, CAST(:mid AS uuid),
            CAST(:env1 AS text),
            CAST(:ts AS timestamptz) FROM pay
    RETURNING id
), deliveries AS (
INSERT INTO webhook_deliveries (id, endpoint_id, merchant_id, event_id, status, next_attempt_at,
                                created_at, updated_at)
SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                  PLACING substring(int8send((extract(epoch FROM CAST(:ts AS timestamptz)) * 1000)::bigint)
                                    FROM 3)
                  FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
       e.id, e.merchant_id, event.id, 'PENDING', CAST(:ts AS timestamptz), CAST(:ts AS timestamptz),
       CAST(:ts AS timestamptz)
  FROM webhook_endpoints e, event
 WHERE e.merchant_id = CAST(:mid AS uuid) AND e.status = 'ENABLED'
   AND ('payment.created' = ANY (e.event_types) OR '*' = ANY (e.event_types))
)
SELECT * FROM pay;
BEGIN;
-- transaction 2: the fenced update, the key's completion with its event (one statement), fee and holds, the journal
-- posting
WITH fence AS MATERIALIZED (
    SELECT lease_until FROM idempotency_keys
     WHERE merchant_id = CAST(:mid AS uuid) AND operation = 'payment.create'
       AND idempotency_key = CAST(:key AS varchar) AND attempt = 1 AND status <> 'COMPLETED'
       FOR UPDATE
)
UPDATE payments
   SET status = 'CAPTURED', version = version + CASE WHEN status <> 'CAPTURED' THEN 1 ELSE 0 END,
       updated_at = CAST(:ts AS timestamptz), amount_authorized = CASE WHEN true THEN amount ELSE amount_authorized END,
       amount_captured = CASE WHEN 'CAPTURED' = 'CAPTURED' THEN amount ELSE amount_captured END,
       capture_finalized = capture_finalized OR 'CAPTURED' = 'CAPTURED',
       capture_before = COALESCE(CAST(NULL AS timestamptz), capture_before),
       psp_reference = COALESCE(CAST(:pspref AS varchar), psp_reference),
       decline_code = NULL, failure_reason = NULL
 WHERE id = CAST(:pid AS uuid) AND status IN ('PENDING', 'UNKNOWN', 'AUTHORIZED', 'DISPUTED') AND EXISTS (SELECT 1 FROM fence)
RETURNING *, (SELECT lease_until FROM fence) AS fence_lease_until;
WITH completed AS (
UPDATE idempotency_keys
   SET status = 'COMPLETED', response_code = 201, response_body = CAST(:resp AS text),
       expires_at = CAST(:expires AS timestamptz), updated_at = CAST(:ts AS timestamptz)
 WHERE merchant_id = CAST(:mid AS uuid) AND operation = 'payment.create' AND idempotency_key = CAST(:key AS varchar)
   AND attempt = 1 AND status <> 'COMPLETED'
RETURNING 1
), event AS (
    INSERT INTO outbox (id, event_type, resource_type, resource_id, public_id, sequence, merchant_id,
                        envelope, created_at)
    SELECT CAST(:e2 AS uuid), 'payment.captured', 'payment', CAST(:pid AS uuid), CAST(:pubid AS varchar), 1, CAST(:mid AS uuid),
            CAST(:env2 AS text),
            CAST(:ts AS timestamptz) FROM completed
    RETURNING id
), event_deliveries AS (
INSERT INTO webhook_deliveries (id, endpoint_id, merchant_id, event_id, status, next_attempt_at,
                                created_at, updated_at)
SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                  PLACING substring(int8send((extract(epoch FROM CAST(:ts AS timestamptz)) * 1000)::bigint)
                                    FROM 3)
                  FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
       e.id, e.merchant_id, event.id, 'PENDING', CAST(:ts AS timestamptz), CAST(:ts AS timestamptz),
       CAST(:ts AS timestamptz)
  FROM webhook_endpoints e, event
 WHERE e.merchant_id = CAST(:mid AS uuid) AND e.status = 'ENABLED'
   AND ('payment.captured' = ANY (e.event_types) OR '*' = ANY (e.event_types))
)
SELECT count(*) FROM completed;
SELECT f.bps, f.fixed_minor, h.currencies
  FROM (SELECT 1) AS one
  LEFT JOIN ledger_merchant_fees f ON f.merchant_id = CAST(:mid AS uuid) AND f.currency = 'EUR'
 CROSS JOIN (SELECT array_agg(held.currency ORDER BY held.id) AS currencies
               FROM (SELECT id, currency FROM ledger_transactions
                      WHERE payment_id = CAST(:pid AS uuid) AND merchant_id = CAST(:mid AS uuid)
                        AND kind = 'AUTHORIZATION_HELD'
                      ORDER BY id
                        FOR NO KEY UPDATE) AS held) AS h;
WITH header AS (
    INSERT INTO ledger_transactions (id, merchant_id, payment_id, source_id, kind, amount_minor,
                                     currency, reverses, reason, entry_count, occurred_at,
                                     recorded_at)
    VALUES (CAST(:lt AS uuid), CAST(:mid AS uuid), CAST(:pid AS uuid), CAST(:pid AS uuid), 'CAPTURED', 1000, 'EUR', NULL, NULL, 2, CAST(:ts AS timestamptz), CAST(:ts AS timestamptz))
    ON CONFLICT (source_id, kind) DO NOTHING
    RETURNING id
), lines (line, account_id, side, amount_minor) AS (
    VALUES (1, CAST(:debit AS bigint), CAST('debit' AS text), CAST(1000 AS bigint)),
        (2, CAST(:credit AS bigint), CAST('credit' AS text), CAST(1000 AS bigint))
)
INSERT INTO ledger_entries (transaction_id, entry_count, line, account_id, side, amount_minor, currency)
SELECT header.id, 2, lines.line, lines.account_id, lines.side, lines.amount_minor, 'EUR'
  FROM header, lines;
COMMIT;
