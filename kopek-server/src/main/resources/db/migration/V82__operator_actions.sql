-- What operators did through the console: append-only, written in the same transaction as the action itself.
-- (The admin-wide audit trail of issue 12 supersedes this table once it lands; until then this is the trail the
-- console shows.) No secrets: the actor is a name, the target a public id, the note the operator's own words.
CREATE TABLE operator_actions (
    id          BIGINT        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    actor       VARCHAR(200)  NOT NULL,
    action      VARCHAR(64)   NOT NULL,
    target      VARCHAR(128)  NOT NULL,
    detail      VARCHAR(2000),
    request_id  VARCHAR(128),
    client_ip   VARCHAR(64),
    at          TIMESTAMPTZ   NOT NULL
);
CREATE INDEX operator_actions_by_time ON operator_actions (at DESC);

CREATE FUNCTION operator_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'operator_actions is append-only' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER operator_actions_no_update BEFORE UPDATE OR DELETE ON operator_actions
    FOR EACH ROW EXECUTE FUNCTION operator_actions_append_only();
