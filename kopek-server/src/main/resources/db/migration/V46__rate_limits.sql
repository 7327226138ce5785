-- Per-merchant rate limits (issue 9, section 6; dev.kopek.ratelimits). Checked before the idempotency layer, so
-- these tables are the only thing a refused request touches.

-- Token buckets: '<kind>:m:<merchant id>' per merchant and kind, '<kind>:g:<shard>' for the global bucket split
-- into shards. A row holds the tokens left at refilled_at; the take statement adds what the clock has refilled
-- since, caps it at the bucket's burst and takes one, in one conditional UPDATE.
-- UNLOGGED: no WAL, so taking a token does not wait for a disk flush on the payment path. After a crash the table is
-- empty and every bucket starts full again, which is the right failure for a limiter.
CREATE UNLOGGED TABLE rate_limit_buckets (
    bucket       VARCHAR(100)      PRIMARY KEY,
    tokens       DOUBLE PRECISION  NOT NULL CHECK (tokens >= 0),  -- a fraction refills continuously
    refilled_at  TIMESTAMPTZ       NOT NULL
);

-- A merchant's limits where an admin changed them; without a row the KOPEK_RATE_LIMIT_* defaults apply.
CREATE TABLE merchant_rate_limits (
    merchant_id  UUID              NOT NULL REFERENCES merchants (id),
    kind         TEXT              NOT NULL CHECK (kind IN ('write', 'read')),
    per_second   DOUBLE PRECISION  NOT NULL CHECK (per_second > 0 AND per_second <= 1000000),
    burst        INT               NOT NULL CHECK (burst BETWEEN 1 AND 10000000),
    updated_at   TIMESTAMPTZ       NOT NULL,
    updated_by   VARCHAR(200)      NOT NULL,   -- the admin identity that set it
    PRIMARY KEY (merchant_id, kind)
);
