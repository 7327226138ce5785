-- The PSP account a merchant's new payments go to, on the merchant's row: the provider of its merchant_psp row when
-- that row has credentials, else NULL (Kopek's configured account). Phase 1 of a payment is one statement in
-- autocommit (PaymentStore.claimAndInsertPending) and reads this column from the row it locks FOR KEY SHARE; a
-- change of the merchant's PSP locks the same row FOR UPDATE and writes this column (MerchantPspStore.save), so in
-- READ COMMITTED the payment either waits for the change and records the new account, or the change waits for the
-- payment and sees it (a merchant with payments keeps its PSP). merchant_psp stays the setting itself.
ALTER TABLE merchants ADD COLUMN psp_account TEXT;
UPDATE merchants m
   SET psp_account = p.provider
  FROM merchant_psp p
 WHERE p.merchant_id = m.id AND p.credentials_sealed IS NOT NULL;
