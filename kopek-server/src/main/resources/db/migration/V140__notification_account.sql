-- Tenant isolation of PSP notifications (issue 15). A notification that arrives on a merchant's own webhook route
-- (/v1/psp/{provider}/webhooks/{merchant}) was verified with that merchant's own secrets, so it speaks only for that
-- merchant's account at the PSP: merchant_id records whose. Null: Kopek's configured PSP account (the global route),
-- which speaks only for payments sent through that account. A notification naming an object outside its account
-- changes nothing and is recorded as 'foreign' (never retried, never dead-lettered).
ALTER TABLE psp_notifications ADD COLUMN merchant_id UUID REFERENCES merchants (id);

-- Event ids are unique per account, not across accounts: one merchant's events must not be able to pre-empt
-- (deduplicate away) another's, nor Kopek's own.
ALTER TABLE psp_notifications DROP CONSTRAINT uq_psp_notifications_event;
ALTER TABLE psp_notifications ADD CONSTRAINT uq_psp_notifications_account_event
    UNIQUE NULLS NOT DISTINCT (provider, merchant_id, event_id);

ALTER TABLE psp_notifications DROP CONSTRAINT psp_notifications_outcome_check;
ALTER TABLE psp_notifications ADD CONSTRAINT psp_notifications_outcome_check
    CHECK (outcome IN ('applied', 'ignored', 'conflict', 'unmatched', 'dead', 'foreign'));

COMMENT ON COLUMN psp_notifications.merchant_id IS
    'The merchant whose own PSP account signed it (its per-merchant route); null for Kopek''s configured account.';
