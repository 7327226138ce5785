-- One operation pipeline (issue 10, section 1): captures, voids and refunds are one kind of row, with one status
-- enum, driven by one runner and fenced the same way as payments — by the attempt of an idempotency key.
--
-- * payment_operations gains the refund's columns (currency for every row, reason for refunds) and the kind
--   'refund'; every refund moves into it with its id, version and provider key unchanged, so public ids
--   (re_...), event sequences and the PSP's keys stay what they were.
-- * A refund answers its client 202 in phase 1, so the client's key is complete at once and cannot fence the
--   PSP call. The call is fenced instead by a key of its own: operation 'refund.execute', key = the refund's id,
--   owned by nobody at first (attempt 0, lease already over, hence attempt >= 0 below): the dispatcher or the
--   reconciler takes it over as attempt 1 and sends the refund; a later attempt asks the PSP by key first, as
--   for every other kind. The refund row's own attempt/lease_until columns go away with the table.
-- * The refunds table is dropped; read refunds as payment_operations WHERE kind = 'refund'.

ALTER TABLE payment_operations DROP CONSTRAINT payment_operations_kind_check;
ALTER TABLE payment_operations ADD CONSTRAINT ck_payment_operations_kind
    CHECK (kind IN ('capture', 'void', 'refund'));
ALTER TABLE payment_operations ADD COLUMN currency CHAR(3) CHECK (currency ~ '^[A-Z]{3}$');
ALTER TABLE payment_operations ADD COLUMN reason VARCHAR(500);  -- a refund's reason as the merchant gave it

UPDATE payment_operations o SET currency = p.currency FROM payments p WHERE p.id = o.payment_id;

INSERT INTO payment_operations (id, payment_id, merchant_id, kind, amount, final, status, version, provider_key,
                                psp_reference, failure_reason, created_at, updated_at, currency, reason)
SELECT id, payment_id, merchant_id, 'refund', amount, FALSE, status, version, provider_key, psp_reference,
       failure_reason, created_at, updated_at, currency, reason
  FROM refunds;

ALTER TABLE payment_operations ALTER COLUMN currency SET NOT NULL;

ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_attempt_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT ck_idempotency_keys_attempt CHECK (attempt >= 0);

-- Unfinished refunds keep their owner's attempt and lease (or their grace, or their parking) on the new key.
INSERT INTO idempotency_keys (merchant_id, operation, idempotency_key, request_hash, status, attempt, lease_until,
                              expires_at, resource_id, created_at, updated_at)
SELECT merchant_id, 'refund.execute', id::text, encode(sha256(convert_to(id::text, 'UTF8')), 'hex'),
       CASE status WHEN 'PENDING' THEN 'IN_PROGRESS' ELSE 'AWAITING_RESULT' END, attempt, lease_until,
       created_at + INTERVAL '30 days', id, created_at, updated_at
  FROM refunds
 WHERE status IN ('PENDING', 'UNKNOWN');

DROP TABLE refunds;

CREATE INDEX ix_payment_operations_settled_refund ON payment_operations (updated_at)
    WHERE kind = 'refund' AND status = 'SUCCEEDED' AND psp_reference IS NOT NULL;
