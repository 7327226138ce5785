-- Webhook signing secrets sealed at rest (issue 9, section 5). Kopek must read a signing secret back to sign with
-- it, so it cannot be a digest; it is sealed with AES-256-GCM under KOPEK_SECRETS_KEY (dev.kopek.platform.SecretBox).
-- The key is not in the database, so rows stored in clear by earlier versions are sealed by the application at
-- start-up (EndpointSecretSealing), which also re-seals rows of a retired key under the current one.
ALTER TABLE webhook_endpoints
    ADD COLUMN secret_key_id  VARCHAR(16),  -- which key sealed it: the first 8 bytes of the key's SHA-256, hex
    ADD COLUMN secret_sealed  BYTEA,        -- 12-byte nonce, ciphertext, 16-byte tag; bound to the row's id
    ALTER COLUMN secret DROP NOT NULL;

COMMENT ON COLUMN webhook_endpoints.secret IS
    'Legacy clear secret: NULL once sealed. Only rows written before V45 and not yet sealed carry it.';

-- Exactly one form at a time, and a sealed value always names its key.
ALTER TABLE webhook_endpoints
    ADD CONSTRAINT ck_webhook_endpoints_secret_one_form CHECK ((secret IS NULL) <> (secret_sealed IS NULL)),
    ADD CONSTRAINT ck_webhook_endpoints_secret_key CHECK ((secret_sealed IS NULL) = (secret_key_id IS NULL));

-- The stored answers of earlier create requests held the secret in clear: replace it with the marker a replay
-- now answers (README, "Webhook signing secrets").
UPDATE idempotency_keys
   SET response_body = regexp_replace(response_body, '"secret":"[^"]*"', '"secret":null,"secret_shown_once":true')
 WHERE operation = 'webhook_endpoint.create' AND response_body LIKE '%"secret":"%';
