-- Every call Kopek made to a PSP on the payment path, for the operator console's payment story: which operation,
-- with which provider key (that is how a call belongs to a payment, capture, void or refund), what it meant and
-- how long it took. Written after the call, outside any business transaction (L3); losing a row loses a line of
-- the story, never money. No request or response bodies: they could carry what must not be stored (L12).
CREATE TABLE psp_calls (
    id             BIGINT       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider       VARCHAR(40)  NOT NULL,
    operation      VARCHAR(40)  NOT NULL,               -- charge, capture, void, refund, lookup_charge, lookup_refund, ...
    provider_key   VARCHAR(128) NOT NULL,
    outcome        VARCHAR(20)  NOT NULL,               -- succeeded, authorized, declined, failed, unknown, found, ...
    psp_reference  VARCHAR(128),
    detail         VARCHAR(300),                        -- a decline code or why the outcome is unknown
    started_at     TIMESTAMPTZ  NOT NULL,
    duration_ms    BIGINT       NOT NULL CHECK (duration_ms >= 0)
);
CREATE INDEX psp_calls_by_key ON psp_calls (provider_key, started_at);
CREATE INDEX psp_calls_by_time ON psp_calls (started_at);
