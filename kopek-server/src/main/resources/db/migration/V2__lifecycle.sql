-- Payment lifecycle: manual capture (authorize, partial captures, void, expiry) and refunds that can never
-- exceed what was captured (L7). The amounts live on the payment row so that one conditional UPDATE can
-- reserve against them; CHECK constraints hold the arithmetic even against a buggy caller.

ALTER TABLE payments DROP CONSTRAINT ck_payments_captured_le_amount;
ALTER TABLE payments DROP CONSTRAINT ck_payments_captured_status;
ALTER TABLE payments DROP CONSTRAINT payments_status_check;

ALTER TABLE payments
    ADD COLUMN amount_authorized     BIGINT      NOT NULL DEFAULT 0,
    ADD COLUMN amount_capture_pending BIGINT     NOT NULL DEFAULT 0,  -- reserved by captures in flight
    ADD COLUMN amount_released       BIGINT      NOT NULL DEFAULT 0,  -- authorized but given back (void, final, expiry)
    ADD COLUMN amount_refunded       BIGINT      NOT NULL DEFAULT 0,  -- refunds the PSP confirmed
    ADD COLUMN amount_refund_pending BIGINT      NOT NULL DEFAULT 0,  -- refunds reserved, not yet confirmed
    ADD COLUMN capture_before        TIMESTAMPTZ,                     -- the authorization's expiry at the PSP
    ADD COLUMN capture_finalized     BOOLEAN     NOT NULL DEFAULT FALSE;

-- Payments captured automatically before this migration were authorized for their whole amount.
UPDATE payments SET amount_authorized = amount_captured WHERE amount_captured > 0;

ALTER TABLE payments
    ADD CONSTRAINT payments_status_check CHECK (status IN ('PENDING', 'UNKNOWN', 'AUTHORIZED', 'CAPTURED',
        'PARTIALLY_REFUNDED', 'REFUNDED', 'DECLINED', 'FAILED', 'VOIDED', 'EXPIRED')),
    ADD CONSTRAINT ck_payments_amounts_not_negative CHECK (amount_authorized >= 0 AND amount_captured >= 0
        AND amount_capture_pending >= 0 AND amount_released >= 0 AND amount_refunded >= 0
        AND amount_refund_pending >= 0),
    ADD CONSTRAINT ck_payments_authorized_le_amount CHECK (amount_authorized <= amount),
    -- L7: captured ≤ authorized, counting what is reserved and what was released.
    ADD CONSTRAINT ck_payments_captured_le_authorized
        CHECK (amount_captured + amount_capture_pending + amount_released <= amount_authorized),
    -- L7: refunded ≤ captured, counting refunds still in flight.
    ADD CONSTRAINT ck_payments_refunded_le_captured
        CHECK (amount_refunded + amount_refund_pending <= amount_captured),
    ADD CONSTRAINT ck_payments_paid_states_have_money
        CHECK (status NOT IN ('CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED') OR amount_captured > 0),
    ADD CONSTRAINT ck_payments_refunded_means_all
        CHECK (status <> 'REFUNDED' OR (amount_refunded = amount_captured AND amount_refund_pending = 0));

DROP INDEX ux_payments_intent_single_live_attempt;
CREATE UNIQUE INDEX ux_payments_intent_single_live_attempt ON payments (merchant_id, reference)
    WHERE status NOT IN ('DECLINED', 'FAILED', 'VOIDED', 'EXPIRED');
CREATE INDEX ix_payments_expiring ON payments (capture_before)
    WHERE status IN ('AUTHORIZED', 'CAPTURED', 'PARTIALLY_REFUNDED') AND capture_before IS NOT NULL;

-- Captures and voids: PSP-calling operations on a payment, each driven by its own idempotency key.
CREATE TABLE payment_operations (
    id               UUID         PRIMARY KEY,
    payment_id       UUID         NOT NULL REFERENCES payments (id),
    merchant_id      UUID         NOT NULL REFERENCES merchants (id),
    kind             TEXT         NOT NULL CHECK (kind IN ('capture', 'void')),
    amount           BIGINT       NOT NULL CHECK (amount > 0),
    final            BOOLEAN      NOT NULL,
    status           TEXT         NOT NULL CHECK (status IN ('PENDING', 'UNKNOWN', 'SUCCEEDED', 'FAILED')),
    version          INT          NOT NULL DEFAULT 0,
    provider_key     VARCHAR(128) NOT NULL UNIQUE,
    psp_reference    VARCHAR(128),
    failure_reason   VARCHAR(500),
    created_at       TIMESTAMPTZ  NOT NULL,
    updated_at       TIMESTAMPTZ  NOT NULL
);
CREATE INDEX ix_payment_operations_payment ON payment_operations (payment_id, created_at);

-- Refunds. Accepted with a reservation on the payment, executed against the PSP by a worker that owns the
-- refund through attempt/lease_until, the same fencing as idempotency keys.
CREATE TABLE refunds (
    id               UUID         PRIMARY KEY,
    payment_id       UUID         NOT NULL REFERENCES payments (id),
    merchant_id      UUID         NOT NULL REFERENCES merchants (id),
    amount           BIGINT       NOT NULL CHECK (amount > 0),
    currency         CHAR(3)      NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    reason           VARCHAR(500),
    status           TEXT         NOT NULL CHECK (status IN ('PENDING', 'UNKNOWN', 'SUCCEEDED', 'FAILED')),
    version          INT          NOT NULL DEFAULT 0,
    attempt          INT          NOT NULL DEFAULT 0 CHECK (attempt >= 0),  -- fencing token of the executor
    lease_until      TIMESTAMPTZ  NOT NULL,
    provider_key     VARCHAR(128) NOT NULL UNIQUE,
    psp_reference    VARCHAR(128),
    failure_reason   VARCHAR(500),
    created_at       TIMESTAMPTZ  NOT NULL,
    updated_at       TIMESTAMPTZ  NOT NULL
);
CREATE INDEX ix_refunds_payment ON refunds (payment_id, created_at);
CREATE INDEX ix_refunds_open ON refunds (lease_until) WHERE status IN ('PENDING', 'UNKNOWN');

-- Manual review now covers every PSP-calling operation, not only the payment itself.
ALTER TABLE manual_reviews ADD COLUMN subject TEXT NOT NULL DEFAULT 'payment'
    CHECK (subject IN ('payment', 'capture', 'void', 'refund'));
ALTER TABLE manual_reviews ADD COLUMN subject_id UUID;
UPDATE manual_reviews SET subject_id = payment_id;
ALTER TABLE manual_reviews ALTER COLUMN subject_id SET NOT NULL;
DROP INDEX ux_manual_reviews_open_payment;
CREATE UNIQUE INDEX ux_manual_reviews_open_subject ON manual_reviews (subject, subject_id) WHERE status = 'OPEN';
