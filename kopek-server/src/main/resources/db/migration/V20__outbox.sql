-- Events (DESIGN.md L9, docs/events.md): the transactional outbox, merchant webhook endpoints, their deliveries
-- and attempts, and the inbox of Kopek's own consumers. Times come from the application's Clock.

-- One row per committed state change, written by the transaction that makes the change.
CREATE TABLE outbox (
    id             UUID         PRIMARY KEY,          -- the event id (UUIDv7); every consumer dedupes by it
    log_position   BIGINT       GENERATED ALWAYS AS IDENTITY UNIQUE,
                                                      -- insert order; for one resource it is the order of its
                                                      -- changes, because they serialize on the resource's row
    tx_id          BIGINT       NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
                                                      -- the writing transaction: the feed orders by (tx_id,
                                                      -- log_position) and shows only transactions older than
                                                      -- every running one, so a page never skips a late commit
    event_type     VARCHAR(64)  NOT NULL CHECK (event_type ~ '^[a-z_]+(\.[a-z_]+)+$'),
    resource_type  VARCHAR(32)  NOT NULL,
    resource_id    UUID         NOT NULL,
    public_id      VARCHAR(64)  NOT NULL,             -- pay_…, re_…: the Kafka key, so one resource is one partition
    sequence       BIGINT       NOT NULL CHECK (sequence >= 0),  -- the resource's row version after the change
    merchant_id    UUID         NOT NULL REFERENCES merchants (id),
    envelope       TEXT         NOT NULL,             -- the exact bytes published, served and signed; TEXT, not
                                                      -- JSONB, so every copy of an event is byte for byte the same
    created_at     TIMESTAMPTZ  NOT NULL,
    published_at   TIMESTAMPTZ,                       -- broker acknowledged (polling or CDC); NULL without Kafka
    -- A receiver refuses a regression by sequence; two events with one sequence would make it drop one.
    CONSTRAINT ux_outbox_resource_sequence UNIQUE (resource_type, resource_id, sequence)
);
-- The relay scans unpublished rows in order and asks "is there an earlier unpublished row of this resource?".
CREATE INDEX ix_outbox_unpublished ON outbox (log_position) WHERE published_at IS NULL;
CREATE INDEX ix_outbox_unpublished_resource ON outbox (resource_id, log_position) WHERE published_at IS NULL;
-- The merchant feed pages by (tx_id, log_position) inside one merchant.
CREATE INDEX ix_outbox_merchant_feed ON outbox (merchant_id, tx_id, log_position);

-- Where a merchant wants events posted. The secret must be kept in clear to sign with it; it is shown once,
-- never logged and never listed.
CREATE TABLE webhook_endpoints (
    id               UUID          PRIMARY KEY,
    merchant_id      UUID          NOT NULL REFERENCES merchants (id),
    url              VARCHAR(2048) NOT NULL CHECK (url ~ '^https?://'),
    event_types      TEXT[]        NOT NULL CHECK (cardinality(event_types) BETWEEN 1 AND 64),
    secret           TEXT          NOT NULL,
    status           TEXT          NOT NULL CHECK (status IN ('ENABLED', 'DISABLED', 'DELETED')),
    version          INT           NOT NULL DEFAULT 0,   -- the sequence of webhook_endpoint.* events
    failing_since    TIMESTAMPTZ,                        -- first failed attempt since the last success; an
                                                         -- endpoint failing for the whole retry window is disabled
    disabled_reason  VARCHAR(500),
    created_at       TIMESTAMPTZ   NOT NULL,
    updated_at       TIMESTAMPTZ   NOT NULL
);
CREATE INDEX ix_webhook_endpoints_merchant ON webhook_endpoints (merchant_id, created_at);

-- One event for one endpoint. Its state lives here, apart from the event: a retry or a manual redelivery
-- never needs a new event.
CREATE TABLE webhook_deliveries (
    id                  UUID        PRIMARY KEY,
    endpoint_id         UUID        NOT NULL REFERENCES webhook_endpoints (id),
    merchant_id         UUID        NOT NULL REFERENCES merchants (id),
    event_id            UUID        NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,  -- retention cleanup
    status              TEXT        NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
    attempts            INT         NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                                                    -- attempts started; also the fencing token of the worker
                                                    -- whose attempt is running
    next_attempt_at     TIMESTAMPTZ NOT NULL,       -- when due; while an attempt runs, the end of its lease
    next_trigger        TEXT        NOT NULL DEFAULT 'scheduled' CHECK (next_trigger IN ('scheduled', 'manual')),
    last_response_code  INT,
    created_at          TIMESTAMPTZ NOT NULL,       -- the retry window runs from here
    updated_at          TIMESTAMPTZ NOT NULL,
    CONSTRAINT ux_webhook_deliveries_endpoint_event UNIQUE (endpoint_id, event_id)
);
CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX ix_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at);
CREATE INDEX ix_webhook_deliveries_event ON webhook_deliveries (event_id);

-- Every HTTP attempt, kept apart from the delivery's current state.
CREATE TABLE webhook_attempts (
    delivery_id    UUID         NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt        INT          NOT NULL CHECK (attempt >= 1),
    trigger        TEXT         NOT NULL CHECK (trigger IN ('scheduled', 'manual')),
    started_at     TIMESTAMPTZ  NOT NULL,
    latency_ms     INT          NOT NULL CHECK (latency_ms >= 0),
    response_code  INT,                              -- NULL when no HTTP answer came (timeout, refused)
    outcome        TEXT         NOT NULL CHECK (outcome IN ('SUCCEEDED', 'FAILED')),
    error          VARCHAR(500),
    PRIMARY KEY (delivery_id, attempt)
);

-- Kopek's own consumers: an event id is processed at most once per consumer (Inbox.processOnce).
CREATE TABLE inbox (
    consumer      VARCHAR(100) NOT NULL,
    event_id      UUID         NOT NULL,
    processed_at  TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (consumer, event_id)
);
CREATE INDEX ix_inbox_processed_at ON inbox (processed_at);
