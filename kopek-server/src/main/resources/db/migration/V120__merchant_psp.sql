-- A PSP per merchant (issue 15): which PSP a merchant's payments go to, and its credentials there. A merchant
-- without a row uses Kopek's configured PSP (KOPEK_PSP_PROVIDER). Credentials are read back to call the PSP and to
-- verify its webhooks, so they are sealed like webhook signing secrets (V45, dev.kopek.platform.SecretBox): AES-256-GCM
-- under KOPEK_SECRETS_KEY, bound to the merchant's id. Nothing here is ever in clear.
CREATE TABLE merchant_psp (
    merchant_id         UUID        PRIMARY KEY REFERENCES merchants (id),
    provider            VARCHAR(32) NOT NULL,
    credentials_key_id  VARCHAR(16),  -- which key sealed them: the first 8 bytes of the key's SHA-256, hex
    credentials_sealed  BYTEA,        -- 12-byte nonce, ciphertext of a JSON object, 16-byte tag
    version             INT         NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL,
    CONSTRAINT ck_merchant_psp_provider CHECK (provider IN ('simulator', 'stripe')),
    CONSTRAINT ck_merchant_psp_sealed_names_key CHECK ((credentials_sealed IS NULL) = (credentials_key_id IS NULL)),
    CONSTRAINT ck_merchant_psp_stripe_has_credentials CHECK (provider <> 'stripe' OR credentials_sealed IS NOT NULL),
    CONSTRAINT ck_merchant_psp_version CHECK (version > 0)
);

COMMENT ON COLUMN merchant_psp.version IS
    'Raised on every change, so each instance rebuilds the merchant''s adapter when its credentials rotate.';
