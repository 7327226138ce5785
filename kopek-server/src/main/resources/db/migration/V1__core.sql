-- Kopek core schema. Every invariant the laws need lives here, not only in Java (DESIGN.md, L1–L4, L7, L11).
-- Times are written by the application's Clock (so tests move time instead of sleeping), never by now().

CREATE TABLE merchants (
    id          UUID        PRIMARY KEY,
    name        TEXT        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    created_at  TIMESTAMPTZ NOT NULL
);

-- Secret API keys are stored only as SHA-256 digests. A key is 256 random bits, so a fast hash is
-- enough: there is nothing to brute-force that a slow hash would protect.
CREATE TABLE api_keys (
    id           UUID        PRIMARY KEY,
    merchant_id  UUID        NOT NULL REFERENCES merchants (id),
    key_hash     CHAR(64)    NOT NULL UNIQUE,
    key_prefix   TEXT        NOT NULL,              -- first characters, to recognise a key in a list
    created_at   TIMESTAMPTZ NOT NULL,
    revoked_at   TIMESTAMPTZ
);
CREATE INDEX ix_api_keys_merchant ON api_keys (merchant_id);

-- One row per (merchant, operation, client key): L1. The operation is the key space; a key used for a
-- payment and the same string used for a refund are two operations.
CREATE TABLE idempotency_keys (
    merchant_id      UUID         NOT NULL REFERENCES merchants (id),
    operation        TEXT         NOT NULL,
    idempotency_key  VARCHAR(255) NOT NULL,
    request_hash     CHAR(64)     NOT NULL,         -- fingerprint of the canonical business fields
    status           TEXT         NOT NULL CHECK (status IN ('IN_PROGRESS', 'AWAITING_RESULT', 'COMPLETED')),
    attempt          INT          NOT NULL DEFAULT 1 CHECK (attempt >= 1),  -- fencing token of the owner (L4)
    lease_until      TIMESTAMPTZ  NOT NULL,         -- owner's lease, or the grace before reconciling an unknown
    expires_at       TIMESTAMPTZ  NOT NULL,         -- retention; only COMPLETED keys are ever deleted
    resource_id      UUID         NOT NULL,         -- the payment (or later: capture, refund) this key drives
    response_code    INT,
    response_body    TEXT,                          -- TEXT, not JSONB: a replay must be byte for byte
    created_at       TIMESTAMPTZ  NOT NULL,
    updated_at       TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (merchant_id, operation, idempotency_key),
    CONSTRAINT ck_idempotency_keys_response
        CHECK ((status = 'COMPLETED') = (response_code IS NOT NULL AND response_body IS NOT NULL))
);

-- Recovery scans unfinished keys whose lease has run out.
CREATE INDEX ix_idempotency_keys_recovery ON idempotency_keys (lease_until)
    WHERE status IN ('IN_PROGRESS', 'AWAITING_RESULT');
-- Cleanup scans completed keys past retention without touching the rest of the table.
CREATE INDEX ix_idempotency_keys_expiration ON idempotency_keys (expires_at)
    WHERE status = 'COMPLETED';

-- A payment attempt. The intent is (merchant_id, reference); an intent may have many attempts over time,
-- but at most one that is live or paid (L2).
CREATE TABLE payments (
    id               UUID         PRIMARY KEY,
    merchant_id      UUID         NOT NULL REFERENCES merchants (id),
    reference        VARCHAR(64)  NOT NULL CHECK (length(reference) >= 1),
    idempotency_key  VARCHAR(255) NOT NULL,
    provider_key     VARCHAR(128) NOT NULL UNIQUE,  -- the key sent to the PSP: derived from the client key and this id
    amount           BIGINT       NOT NULL CHECK (amount > 0),
    currency         CHAR(3)      NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    amount_captured  BIGINT       NOT NULL DEFAULT 0,
    payment_method   VARCHAR(128) NOT NULL,
    capture_method   TEXT         NOT NULL CHECK (capture_method IN ('automatic', 'manual')),
    description      VARCHAR(1000),
    metadata         JSONB,
    status           TEXT         NOT NULL CHECK (status IN
                         ('PENDING', 'UNKNOWN', 'AUTHORIZED', 'CAPTURED', 'DECLINED', 'FAILED', 'VOIDED')),
    version          INT          NOT NULL DEFAULT 0,
    psp_reference    VARCHAR(128),
    decline_code     VARCHAR(64),
    failure_reason   VARCHAR(500),
    created_at       TIMESTAMPTZ  NOT NULL,
    updated_at       TIMESTAMPTZ  NOT NULL,
    CONSTRAINT ck_payments_captured_le_amount CHECK (amount_captured >= 0 AND amount_captured <= amount),
    CONSTRAINT ck_payments_captured_status CHECK ((status = 'CAPTURED') = (amount_captured > 0))
);
-- Not unique: once a completed key passes retention, the same string is a new operation (DESIGN.md).
CREATE INDEX ix_payments_merchant_key ON payments (merchant_id, idempotency_key);

-- L2: one live-or-paid attempt per intent. Listed negatively so that every state added later counts as
-- live unless it is explicitly a dead end after which a new attempt is allowed.
CREATE UNIQUE INDEX ux_payments_intent_single_live_attempt ON payments (merchant_id, reference)
    WHERE status NOT IN ('DECLINED', 'FAILED', 'VOIDED');
CREATE INDEX ix_payments_merchant_reference ON payments (merchant_id, reference, created_at);

-- Unknown outcomes past the PSP's key window: nobody may charge again or fail them automatically (L6).
CREATE TABLE manual_reviews (
    id            UUID         PRIMARY KEY,
    merchant_id   UUID         NOT NULL REFERENCES merchants (id),
    payment_id    UUID         NOT NULL REFERENCES payments (id),
    reason        VARCHAR(500) NOT NULL,
    status        TEXT         NOT NULL CHECK (status IN ('OPEN', 'RESOLVED')),
    created_at    TIMESTAMPTZ  NOT NULL,
    resolution    TEXT         CHECK (resolution IN ('captured', 'failed')),
    psp_reference VARCHAR(128),
    resolved_by   VARCHAR(200),
    resolved_note VARCHAR(2000),
    resolved_at   TIMESTAMPTZ,
    CONSTRAINT ck_manual_reviews_resolution
        CHECK ((status = 'RESOLVED') = (resolution IS NOT NULL AND resolved_by IS NOT NULL AND resolved_at IS NOT NULL))
);
-- A payment is in the queue at most once while open.
CREATE UNIQUE INDEX ux_manual_reviews_open_payment ON manual_reviews (payment_id) WHERE status = 'OPEN';
