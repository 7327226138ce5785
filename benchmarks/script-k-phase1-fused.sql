-- Phase 1 of Script K fused (the next step of issue 11, not what Kopek sends today): the key claim, the pending insert
-- and its event as ONE statement in autocommit, instead of BEGIN, three statements and COMMIT. run-script-k.sh puts
-- it in place of script-k.sql's transaction 1 (same parameters, phase 2 unchanged):
--   CLIENTS=10 SCRIPT_K_PHASE1=benchmarks/script-k-phase1-fused.sql benchmarks/run-script-k.sh
-- transaction 1 as one statement, autocommit
WITH claim AS (
INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status, attempt,
                              lease_until, expires_at, resource_id, created_at, updated_at)
VALUES (CAST(:mid AS uuid), 'payment.create', CAST(:key AS varchar), 'bb0d66feea521469086bc24a30f41a1268c41abc35a426f52f7972c392a78dc2',
        'IN_PROGRESS', 1, CAST(:lease AS timestamptz), CAST(:expires AS timestamptz), CAST(:pid AS uuid), CAST(:ts AS timestamptz), CAST(:ts AS timestamptz))
ON CONFLICT (merchant_id, operation, idempotency_key) DO NOTHING RETURNING 1
), pay AS (
INSERT INTO payments (id, merchant_id, reference, idempotency_key, provider_key, amount, currency,
                      payment_method, capture_method, description, metadata, status,
                      created_at, updated_at, psp_account)
SELECT CAST(:pid AS uuid), CAST(:mid AS uuid), CAST(:ref AS varchar), CAST(:key AS varchar), CAST(:pkey AS varchar), 1000, 'EUR', 'pm_ok', 'automatic',
        NULL, CAST(NULL AS JSONB), 'PENDING', CAST(:ts AS timestamptz), CAST(:ts AS timestamptz),
        (SELECT provider FROM merchant_psp
          WHERE merchant_id = CAST(:mid AS uuid) AND credentials_sealed IS NOT NULL)
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
