-- A person's handling of a reported settlement break: acknowledged (seen, being worked on; the break stays open
-- and keeps being matched) and resolved (closed with a note saying what was done). Who did it is kept with it;
-- the audit trail has the rest (request id, address, time).
ALTER TABLE recon_breaks
    ADD COLUMN acknowledged_at   TIMESTAMPTZ,
    ADD COLUMN acknowledged_by   VARCHAR(200),
    ADD COLUMN acknowledged_note VARCHAR(2000),
    ADD COLUMN resolved_by       VARCHAR(200),
    ADD CONSTRAINT ck_recon_breaks_acknowledged
        CHECK ((acknowledged_at IS NULL) = (acknowledged_by IS NULL));
