-- Issue 24, defect 4: a PSP may settle a payment in another currency than the customer paid in (a Stripe account
-- settling in USD takes EUR payments). Kopek matches a settlement row on the amount and currency of the payment as
-- presented to the customer, the ones it holds; what the PSP settled, in the account's currency, and the exchange
-- rate it used are kept beside them. Null where nothing was converted (the row's amount is what was settled).
ALTER TABLE settlement_rows
    ADD COLUMN settled_amount   BIGINT CHECK (settled_amount >= 0),
    ADD COLUMN settled_currency CHAR(3) CHECK (settled_currency ~ '^[A-Z]{3}$'),
    ADD COLUMN exchange_rate    NUMERIC CHECK (exchange_rate > 0),
    ADD CONSTRAINT ck_settlement_rows_settled CHECK ((settled_amount IS NULL) = (settled_currency IS NULL));

COMMENT ON COLUMN settlement_rows.settled_amount IS
    'What the PSP settled for this row, in minor units of settled_currency; null when settled as presented.';
COMMENT ON COLUMN settlement_rows.exchange_rate IS
    'The PSP''s rate from the row''s currency to settled_currency (amount × rate = settled amount), as it gave it.';
