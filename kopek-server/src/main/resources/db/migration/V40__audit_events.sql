-- The audit trail (issue 9 §2): who did what to which object, from where, when, and what changed. Written in the
-- transaction of the action it records (AuditTrail requires one), and append-only like the ledger: PostgreSQL
-- refuses UPDATE, DELETE and TRUNCATE, so not even Kopek's own code can rewrite what happened.
CREATE TABLE audit_events (
    id           UUID         PRIMARY KEY,
    -- Cursor of GET /v1/ops/audit: insertion order, newest first.
    seq          BIGINT       GENERATED ALWAYS AS IDENTITY UNIQUE,
    occurred_at  TIMESTAMPTZ  NOT NULL,
    -- admin: a named admin identity (adm_…); merchant: a merchant acting through its API key (mer_…);
    -- system: Kopek itself (a scheduled job, system:<job>).
    actor_kind   TEXT         NOT NULL CHECK (actor_kind IN ('admin', 'merchant', 'system')),
    actor_id     VARCHAR(100) NOT NULL,
    actor_name   VARCHAR(100) NOT NULL,
    -- A stable dotted verb: merchant.created, api_key.revoked, fee.changed, manual_review.resolved, …
    action       VARCHAR(100) NOT NULL CHECK (action ~ '^[a-z_]+(\.[a-z_]+)+$'),
    -- The public id of the object acted on (mer_…, key_…, mrv_…, ltx_…, we_…) or a natural key (a date).
    target_type  VARCHAR(50)  NOT NULL,
    target_id    VARCHAR(100) NOT NULL,
    request_id   VARCHAR(128),
    client_ip    VARCHAR(64),
    -- Summaries of the object before and after, never secrets (no keys, tokens or signing secrets).
    before       JSONB,
    after        JSONB
);
CREATE INDEX ix_audit_events_actor ON audit_events (actor_id, seq);
CREATE INDEX ix_audit_events_target ON audit_events (target_id, seq);

CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit trail is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
