-- Issue 24, defect 6: a PSP's dispute id is unique within one PSP account, not across accounts, as an event id is
-- (V140). Disputes and inquiries were unique by psp_dispute_id alone (V3, V167), and recorded with ON CONFLICT on it:
-- a merchant on its own account, holding its own webhook secret, could sign a dispute with any id against its own
-- payment, and the genuine dispute with that id from another account was then ignored, its chargeback never recorded.
--
-- Each row now says which account it was reported by: psp_account as on its payment (null: Kopek's configured
-- account; a provider name: the merchant's own account there), and account_merchant_id, the merchant whose own account
-- it is (null for Kopek's configured account, which many merchants share). The key is the three together.
ALTER TABLE disputes ADD COLUMN psp_account VARCHAR(32);
UPDATE disputes d SET psp_account = p.psp_account FROM payments p WHERE p.id = d.payment_id AND p.psp_account IS NOT NULL;
ALTER TABLE disputes ADD COLUMN account_merchant_id UUID
    GENERATED ALWAYS AS (CASE WHEN psp_account IS NULL THEN NULL ELSE merchant_id END) STORED;
ALTER TABLE disputes DROP CONSTRAINT disputes_psp_dispute_id_key;
ALTER TABLE disputes ADD CONSTRAINT uq_disputes_account_dispute
    UNIQUE NULLS NOT DISTINCT (psp_account, account_merchant_id, psp_dispute_id);

ALTER TABLE dispute_inquiries ADD COLUMN psp_account VARCHAR(32);
UPDATE dispute_inquiries q SET psp_account = p.psp_account
  FROM payments p WHERE p.id = q.payment_id AND p.psp_account IS NOT NULL;
ALTER TABLE dispute_inquiries ADD COLUMN account_merchant_id UUID
    GENERATED ALWAYS AS (CASE WHEN psp_account IS NULL THEN NULL ELSE merchant_id END) STORED;
ALTER TABLE dispute_inquiries DROP CONSTRAINT uq_dispute_inquiries_psp;
ALTER TABLE dispute_inquiries ADD CONSTRAINT uq_dispute_inquiries_account_dispute
    UNIQUE NULLS NOT DISTINCT (psp_account, account_merchant_id, psp_dispute_id);

COMMENT ON COLUMN disputes.psp_account IS
    'The PSP account that reported the dispute, as payments.psp_account: null for Kopek''s configured account.';
COMMENT ON COLUMN disputes.account_merchant_id IS
    'The merchant whose own PSP account reported the dispute; null for Kopek''s configured account.';
COMMENT ON COLUMN dispute_inquiries.psp_account IS
    'The PSP account that reported the inquiry, as payments.psp_account: null for Kopek''s configured account.';
COMMENT ON COLUMN dispute_inquiries.account_merchant_id IS
    'The merchant whose own PSP account reported the inquiry; null for Kopek''s configured account.';
