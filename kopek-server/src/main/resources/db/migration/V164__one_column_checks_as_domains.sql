-- The one-column CHECK constraints of the two tables every payment writes twice (idempotency_keys: the claim and
-- the completion; outbox: two events) become domains, with the same conditions and the same constraint names.
--
-- Why: PostgreSQL re-reads a table's CHECK constraints from their stored text and compiles them again for every
-- INSERT and UPDATE statement (V160 says more); these four were eight of the eleven a payment re-compiled, about
-- 0.2 million (195 thousand) of the 3.26 million instructions it cost the database backend (Script K under callgrind,
-- benchmarks/README.md, issue 11). A domain's constraints are read once per connection (the type cache) and only
-- evaluated per row.
--
-- What they enforce is unchanged: a value that breaks one is refused at once, in the statement that writes it, with
-- SQLSTATE 23514 (check_violation) naming the same constraint; NULL still passes the check and the column's NOT NULL
-- refuses it. What stays a table constraint: ck_idempotency_keys_response (two columns).
--
-- Changing a column to a domain with constraints rewrites the table under an exclusive lock (every value is checked):
-- both tables are bounded by retention (keys and events expire), but on a large installation run it in a quiet hour.
CREATE DOMAIN idempotency_key_status AS TEXT
    CONSTRAINT idempotency_keys_status_check CHECK (VALUE IN ('IN_PROGRESS', 'AWAITING_RESULT', 'COMPLETED'));
CREATE DOMAIN idempotency_key_attempt AS INT
    CONSTRAINT ck_idempotency_keys_attempt CHECK (VALUE >= 0);
ALTER TABLE idempotency_keys
    DROP CONSTRAINT idempotency_keys_status_check,
    DROP CONSTRAINT ck_idempotency_keys_attempt,
    ALTER COLUMN status TYPE idempotency_key_status,
    ALTER COLUMN attempt TYPE idempotency_key_attempt;

CREATE DOMAIN outbox_event_type AS VARCHAR(64)
    CONSTRAINT outbox_event_type_check CHECK (VALUE ~ '^[a-z_]+(\.[a-z_]+)+$');
CREATE DOMAIN outbox_sequence AS BIGINT
    CONSTRAINT outbox_sequence_check CHECK (VALUE >= 0);
ALTER TABLE outbox
    DROP CONSTRAINT outbox_event_type_check,
    DROP CONSTRAINT outbox_sequence_check,
    ALTER COLUMN event_type TYPE outbox_event_type,
    ALTER COLUMN sequence TYPE outbox_sequence;
