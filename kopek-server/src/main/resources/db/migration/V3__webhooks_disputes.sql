-- PSP notifications (stored raw before anything is applied; the provider's event id is unique, so a duplicate
-- delivery changes nothing) and disputes, which move a paid payment to DISPUTED and then back or to
-- CHARGED_BACK.

CREATE TABLE psp_notifications (
    id            UUID         PRIMARY KEY,
    provider      VARCHAR(40)  NOT NULL,
    event_id      VARCHAR(128) NOT NULL,
    type          VARCHAR(64)  NOT NULL,
    psp_reference VARCHAR(128),
    provider_key  VARCHAR(128),                  -- the operation's key at the PSP: how Kopek finds its object
    payload       TEXT         NOT NULL,         -- the raw body, exactly as signed
    received_at   TIMESTAMPTZ  NOT NULL,
    processed_at  TIMESTAMPTZ,                   -- null while it waits to be applied or matched
    outcome       VARCHAR(32)  CHECK (outcome IN ('applied', 'ignored', 'conflict', 'unmatched')),
    note          VARCHAR(500),
    CONSTRAINT uq_psp_notifications_event UNIQUE (provider, event_id)
);
CREATE INDEX ix_psp_notifications_waiting ON psp_notifications (received_at)
    WHERE processed_at IS NULL OR outcome = 'unmatched';

ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('PENDING', 'UNKNOWN', 'AUTHORIZED',
    'CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'DISPUTED', 'CHARGED_BACK', 'DECLINED', 'FAILED', 'VOIDED',
    'EXPIRED'));
ALTER TABLE payments ADD COLUMN amount_disputed BIGINT NOT NULL DEFAULT 0;  -- withdrawn by an open or lost dispute
ALTER TABLE payments DROP CONSTRAINT ck_payments_paid_states_have_money;
ALTER TABLE payments ADD CONSTRAINT ck_payments_paid_states_have_money CHECK (
    status NOT IN ('CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'DISPUTED', 'CHARGED_BACK') OR amount_captured > 0);
ALTER TABLE payments ADD CONSTRAINT ck_payments_disputed_le_captured CHECK (
    amount_disputed >= 0 AND amount_disputed + amount_refunded <= amount_captured);

CREATE TABLE disputes (
    id              UUID         PRIMARY KEY,
    payment_id      UUID         NOT NULL REFERENCES payments (id),
    merchant_id     UUID         NOT NULL REFERENCES merchants (id),
    psp_dispute_id  VARCHAR(128) NOT NULL UNIQUE,
    amount          BIGINT       NOT NULL CHECK (amount > 0),
    currency        CHAR(3)      NOT NULL,
    reason          VARCHAR(200),
    status          TEXT         NOT NULL CHECK (status IN ('OPEN', 'WON', 'LOST')),
    version         INT          NOT NULL DEFAULT 0,
    created_at      TIMESTAMPTZ  NOT NULL,
    updated_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX ix_disputes_payment ON disputes (payment_id);
