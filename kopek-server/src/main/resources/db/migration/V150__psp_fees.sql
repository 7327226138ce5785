-- PSP fees from the settlement file are journaled (issue 10, defect 7; docs/ledger.md "PSP fees").
--
-- The PSP takes its fee out of what it pays Kopek: the fee rows of its daily settlement file are money that moved.
-- A PSP fee is Kopek's cost, not the merchant's (the merchant pays Kopek's own fee, PLATFORM_REVENUE), so it is
-- posted between two platform accounts and belongs to no merchant:
--     PSP_FEE_CHARGED   debit PSP_FEES (platform expense)    credit PSP_RECEIVABLE (the PSP nets it)
--     PSP_FEE_RETURNED  the mirror image, when a later version of a file lowers or drops a fee already posted.

ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_type_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ck_ledger_accounts_type
    CHECK (type IN ('PSP_RECEIVABLE', 'PLATFORM_REVENUE', 'PSP_FEES', 'MERCHANT_PAYABLE', 'HOLDS_RECEIVABLE',
                    'HOLDS_PAYABLE', 'REFUNDS_PENDING', 'CHARGEBACKS'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ck_ledger_accounts_owner;
ALTER TABLE ledger_accounts ADD CONSTRAINT ck_ledger_accounts_owner
    CHECK ((merchant_id IS NULL) = (type IN ('PSP_RECEIVABLE', 'PLATFORM_REVENUE', 'PSP_FEES')));

ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_kind_check;
ALTER TABLE ledger_transactions ADD CONSTRAINT ck_ledger_transactions_kind
    CHECK (kind IN ('AUTHORIZATION_HELD', 'CAPTURED', 'AUTHORIZATION_RELEASED', 'REFUND_RESERVED',
                    'REFUND_SUCCEEDED', 'REFUND_RELEASED', 'CHARGEBACK_WITHDRAWN', 'CHARGEBACK_REVERSED',
                    'PSP_FEE_CHARGED', 'PSP_FEE_RETURNED', 'REVERSAL'));
-- A PSP fee has no merchant: a merchant's ledger (merchant_id = the caller) never shows Kopek's cost. Only a PSP fee,
-- or the reversal of one, may go without; every movement of a merchant's money keeps its merchant.
ALTER TABLE ledger_transactions ALTER COLUMN merchant_id DROP NOT NULL;
ALTER TABLE ledger_transactions ADD CONSTRAINT ck_ledger_transactions_owner
    CHECK (merchant_id IS NOT NULL OR kind IN ('PSP_FEE_CHARGED', 'PSP_FEE_RETURNED', 'REVERSAL'));

-- What has been posted for each fee the PSP reported, per (provider, reference, currency): the fee as the latest
-- file that lists it says. A pass of a date posts only the difference between the current file and this row, so
-- re-runs and re-loads of the same bytes post nothing, and a corrected version posts the correction once.
CREATE TABLE psp_fees (
    provider         VARCHAR(64)  NOT NULL,
    psp_reference    VARCHAR(128) NOT NULL,          -- the charge or capture the fee was taken on
    currency         CHAR(3)      NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    amount_minor     BIGINT       NOT NULL CHECK (amount_minor >= 0),  -- posted so far (net of returns)
    -- Postings that changed amount_minor; posting number n has the source id derived from (provider, reference,
    -- currency, n), so the ledger's unique (source_id, kind) refuses the same correction twice as well.
    revision         INT          NOT NULL CHECK (revision >= 0),
    settlement_date  DATE         NOT NULL,          -- the date whose file last set it
    file_id          UUID         NOT NULL REFERENCES settlement_files (id),
    payment_id       UUID,                           -- Kopek's payment of that reference, when Kopek knows it
    updated_at       TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (provider, psp_reference, currency)
);
-- A pass finds the fees its date's file set before (to return those a new version no longer lists).
CREATE INDEX ix_psp_fees_date ON psp_fees (provider, settlement_date);
