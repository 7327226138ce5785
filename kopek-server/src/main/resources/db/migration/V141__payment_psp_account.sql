-- Which PSP account a payment was sent through (issue 15): it is sent to, looked up at, recovered through and
-- settled against that account alone, whatever its merchant's setting says later. Null: Kopek's configured PSP
-- (KOPEK_PSP_PROVIDER). A provider name: the merchant's own account there (merchant_psp with credentials), read in
-- the payment's first transaction after the key claim has locked the merchant's row (FOR KEY SHARE, through the key's
-- foreign key), so an admin's change of the merchant's PSP (which locks that row FOR UPDATE) is either wholly before
-- it or sees the payment and is refused.
ALTER TABLE payments ADD COLUMN psp_account VARCHAR(32);

UPDATE payments p SET psp_account = m.provider
  FROM merchant_psp m
 WHERE m.merchant_id = p.merchant_id AND m.credentials_sealed IS NOT NULL;

COMMENT ON COLUMN payments.psp_account IS
    'The PSP of the merchant''s own account this payment went through; null for Kopek''s configured PSP.';
