-- The laws audited in production (issue 26 §2; docs/invariants.md). Each check walks one table in its own order, a
-- slice per tick; its cursor row says where it is, which pass it is in and what the last run saw. An instance takes
-- a check by leasing its row (a conditional UPDATE), so several instances never run the same check at once, and a
-- lease left by a dead instance simply expires.
CREATE TABLE invariant_cursors (
    check_name            VARCHAR(64)  PRIMARY KEY,
    position              TEXT,                           -- the last row checked in this pass; NULL: at the start
    pass                  BIGINT       NOT NULL DEFAULT 1 CHECK (pass >= 1),
    pass_started_at       TIMESTAMPTZ,
    pass_rows             BIGINT       NOT NULL DEFAULT 0 CHECK (pass_rows >= 0),  -- rows checked in this pass
    total_rows            BIGINT       NOT NULL DEFAULT 0 CHECK (total_rows >= 0), -- rows a pass covers (estimate)
    last_run_at           TIMESTAMPTZ,
    last_run_rows         INT          NOT NULL DEFAULT 0,
    last_run_found        INT          NOT NULL DEFAULT 0,
    last_pass_started_at  TIMESTAMPTZ,                    -- the last complete pass
    last_pass_finished_at TIMESTAMPTZ,
    last_pass_rows        BIGINT,
    leased_until          TIMESTAMPTZ,
    lease_token           UUID
);

-- One row per thing found wrong, per check: found again in a later pass, it is the same row (last_seen_*); not found
-- in a whole later pass, it is cleared (and comes back to life if it is found again). Its review item is the
-- person's handle on it; this row is what the metric and the console count.
CREATE TABLE invariant_violations (
    id              UUID         PRIMARY KEY,
    check_name      VARCHAR(64)  NOT NULL,
    subject         VARCHAR(200) NOT NULL,                -- e.g. 'payment 0190…', stable across passes
    subject_id      UUID,
    merchant_id     UUID,
    payment_id      UUID,
    detail          VARCHAR(1000) NOT NULL,
    first_seen_at   TIMESTAMPTZ  NOT NULL,
    last_seen_at    TIMESTAMPTZ  NOT NULL,
    last_seen_pass  BIGINT       NOT NULL,
    cleared_at      TIMESTAMPTZ,                          -- a whole later pass did not find it
    CONSTRAINT ux_invariant_violations_subject UNIQUE (check_name, subject)
);
CREATE INDEX ix_invariant_violations_current ON invariant_violations (check_name, last_seen_at)
    WHERE cleared_at IS NULL;

-- A violation is a review item a person can see: subject 'invariant', subject_id the violation's id. Like a
-- notification's, it may belong to no merchant or payment (an unbalanced PSP-fee transaction has neither).
ALTER TABLE manual_reviews DROP CONSTRAINT manual_reviews_subject_check;
ALTER TABLE manual_reviews ADD CONSTRAINT manual_reviews_subject_check
    CHECK (subject IN ('payment', 'capture', 'void', 'refund', 'exposure', 'notification', 'invariant'));
ALTER TABLE manual_reviews DROP CONSTRAINT ck_manual_reviews_owner;
ALTER TABLE manual_reviews ADD CONSTRAINT ck_manual_reviews_owner
    CHECK (subject IN ('notification', 'invariant') OR (merchant_id IS NOT NULL AND payment_id IS NOT NULL));
