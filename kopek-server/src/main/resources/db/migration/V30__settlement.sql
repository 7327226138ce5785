-- Settlement reconciliation (docs/settlement.md): the PSP's daily file is loaded idempotently and matched against
-- Kopek's own money movements with a FULL OUTER JOIN by PSP reference; what does not match becomes a break, and a
-- break is reported only after two consecutive passes of its date still show it (DESIGN.md, "Reconciliation").

-- One row per distinct content of a PSP's file for a date. The same bytes loaded again hit the unique hash and
-- change nothing; other bytes for the same date are the next version, and the highest version is the one that counts.
CREATE TABLE settlement_files (
    id               UUID         PRIMARY KEY,
    provider         VARCHAR(64)  NOT NULL,
    settlement_date  DATE         NOT NULL,
    version          INT          NOT NULL CHECK (version >= 1),
    sha256           CHAR(64)     NOT NULL,           -- of the raw bytes as fetched: the identity of a load
    raw              TEXT         NOT NULL,           -- kept for audit: what the PSP said, byte for byte
    row_count        INT          NOT NULL CHECK (row_count >= 0),
    loaded_at        TIMESTAMPTZ  NOT NULL,
    CONSTRAINT ux_settlement_files_content UNIQUE (provider, settlement_date, sha256),
    CONSTRAINT ux_settlement_files_version UNIQUE (provider, settlement_date, version)
);

-- The file's lines as parsed. Fee rows are kept (the ledger's business) but never matched.
CREATE TABLE settlement_rows (
    file_id          UUID         NOT NULL REFERENCES settlement_files (id),
    line_no          INT          NOT NULL CHECK (line_no >= 1),
    psp_reference    VARCHAR(128) NOT NULL,
    -- charge, refund, fee, chargeback, chargeback_reversal, or whatever else a PSP sends: an unknown type is a
    -- break, not a crash
    type             VARCHAR(32)  NOT NULL,
    amount           BIGINT       NOT NULL CHECK (amount >= 0),  -- positive minor units; the type gives the direction
    currency         CHAR(3)      NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    value_date       DATE         NOT NULL,
    PRIMARY KEY (file_id, line_no)
);
-- Matching a neighbouring day's file by reference (the day-boundary rule).
CREATE INDEX ix_settlement_rows_reference ON settlement_rows (psp_reference, file_id);

-- One matching pass of one settlement date. "Two consecutive runs" means two consecutive passes of the same date:
-- every pass touches every open break of its date, so a break missing from a pass is closed by it.
CREATE TABLE settlement_runs (
    id               UUID         PRIMARY KEY,
    provider         VARCHAR(64)  NOT NULL,
    settlement_date  DATE         NOT NULL,
    file_id          UUID         NOT NULL REFERENCES settlement_files (id),
    trigger          TEXT         NOT NULL CHECK (trigger IN ('scheduled', 'admin')),
    started_at       TIMESTAMPTZ  NOT NULL,
    finished_at      TIMESTAMPTZ,
    breaks_seen      INT          NOT NULL DEFAULT 0 CHECK (breaks_seen >= 0),
    new_candidates   INT          NOT NULL DEFAULT 0 CHECK (new_candidates >= 0),
    reported         INT          NOT NULL DEFAULT 0 CHECK (reported >= 0),
    cleared          INT          NOT NULL DEFAULT 0 CHECK (cleared >= 0),
    resolved         INT          NOT NULL DEFAULT 0 CHECK (resolved >= 0)
);
CREATE INDEX ix_settlement_runs_date ON settlement_runs (provider, settlement_date, started_at);

-- The scheduled daily run happens once per day across all instances: the instance that inserts the day runs it.
-- (A run that dies half-way is redone by the next day's re-check, or on demand through the admin API.)
CREATE TABLE settlement_schedule (
    provider         VARCHAR(64)  NOT NULL,
    run_date         DATE         NOT NULL,
    claimed_at       TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (provider, run_date)
);

-- A difference between the PSP's file and Kopek. CANDIDATE on first sighting; REPORTED when the next pass of its
-- date still shows it; CLEARED when a pass no longer shows a candidate (typically: the row was on the next day's
-- file); RESOLVED when a reported break disappears or reconciliation fixed its cause (an unknown attempt settled).
CREATE TABLE recon_breaks (
    id                 UUID         PRIMARY KEY,
    provider           VARCHAR(64)  NOT NULL,
    settlement_date    DATE         NOT NULL,
    type               TEXT         NOT NULL CHECK (type IN
                           ('MISSING_INTERNAL', 'MISSING_AT_PSP', 'AMOUNT_MISMATCH', 'STATUS_MISMATCH')),
    status             TEXT         NOT NULL CHECK (status IN ('CANDIDATE', 'REPORTED', 'CLEARED', 'RESOLVED')),
    psp_reference      VARCHAR(128) NOT NULL,
    movement           VARCHAR(32)  NOT NULL,         -- the PSP row's type, or Kopek's when the PSP has no row
    psp_type           VARCHAR(32),
    psp_amount         BIGINT,
    psp_currency       CHAR(3),
    internal_kind      TEXT         CHECK (internal_kind IN ('payment', 'capture', 'void', 'refund', 'dispute')),
    internal_id        UUID,                          -- the payment, payment_operations row, refund or dispute
    payment_id         UUID,
    merchant_id        UUID,
    internal_type      VARCHAR(32),                   -- what Kopek says moved: charge, authorization, void, refund,
                                                      -- chargeback, chargeback_reversal
    internal_status    TEXT,
    internal_amount    BIGINT,
    internal_currency  CHAR(3),
    file_id            UUID         NOT NULL REFERENCES settlement_files (id),  -- the version last matched
    first_seen_run     UUID         NOT NULL REFERENCES settlement_runs (id),
    last_seen_run      UUID         NOT NULL REFERENCES settlement_runs (id),
    seen_count         INT          NOT NULL CHECK (seen_count >= 1),
    created_at         TIMESTAMPTZ  NOT NULL,
    updated_at         TIMESTAMPTZ  NOT NULL,
    reported_at        TIMESTAMPTZ,
    reported_run       UUID         REFERENCES settlement_runs (id),  -- the pass that promoted it
    closed_at          TIMESTAMPTZ,
    resolution         VARCHAR(500),
    CONSTRAINT ck_recon_breaks_reported
        CHECK ((reported_at IS NULL) = (reported_run IS NULL) AND (reported_at IS NULL OR seen_count >= 2)),
    CONSTRAINT ck_recon_breaks_reported_status CHECK (status <> 'REPORTED' OR reported_at IS NOT NULL),
    CONSTRAINT ck_recon_breaks_closed
        CHECK ((status IN ('CLEARED', 'RESOLVED')) = (closed_at IS NOT NULL AND resolution IS NOT NULL)),
    CONSTRAINT ck_recon_breaks_cleared_never_reported CHECK (status <> 'CLEARED' OR reported_at IS NULL)
);
-- At most one open break per difference: a pass that sees it again counts a sighting instead of adding a row.
CREATE UNIQUE INDEX ux_recon_breaks_open ON recon_breaks (provider, settlement_date, type, psp_reference, movement)
    WHERE status IN ('CANDIDATE', 'REPORTED');
CREATE INDEX ix_recon_breaks_listing ON recon_breaks (settlement_date, status, type);
CREATE INDEX ix_recon_breaks_open_type ON recon_breaks (type, status) WHERE status IN ('CANDIDATE', 'REPORTED');

-- Matching reads Kopek's money by PSP reference (whatever day the file names it) and by the time it moved (what a
-- day's file should contain). These indexes serve exactly those two reads.
CREATE INDEX ix_payments_psp_reference ON payments (psp_reference) WHERE psp_reference IS NOT NULL;
CREATE INDEX ix_payment_operations_psp_reference ON payment_operations (psp_reference) WHERE psp_reference IS NOT NULL;
CREATE INDEX ix_refunds_psp_reference ON refunds (psp_reference) WHERE psp_reference IS NOT NULL;
CREATE INDEX ix_payments_settled_charge ON payments (created_at)
    WHERE capture_method = 'automatic' AND amount_captured > 0 AND psp_reference IS NOT NULL;
CREATE INDEX ix_payment_operations_settled_capture ON payment_operations (updated_at)
    WHERE kind = 'capture' AND status = 'SUCCEEDED' AND psp_reference IS NOT NULL;
CREATE INDEX ix_refunds_settled ON refunds (updated_at) WHERE status = 'SUCCEEDED' AND psp_reference IS NOT NULL;
CREATE INDEX ix_disputes_created ON disputes (created_at);
