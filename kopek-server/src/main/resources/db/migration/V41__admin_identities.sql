-- Named admin identities (issue 9 §2). A token is shown once, when issued, and stored only as its SHA-256 digest.
-- KOPEK_ADMIN_TOKEN is the bootstrap identity (adm_bootstrap): it lives in the environment, not here.
CREATE TABLE admin_identities (
    id           UUID         PRIMARY KEY,
    name         VARCHAR(100) NOT NULL,
    token_hash   CHAR(64)     NOT NULL UNIQUE,
    token_prefix VARCHAR(16)  NOT NULL,
    created_at   TIMESTAMPTZ  NOT NULL,
    created_by   VARCHAR(100) NOT NULL,
    revoked_at   TIMESTAMPTZ,
    revoked_by   VARCHAR(100),
    CONSTRAINT ck_admin_identities_revoked CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
-- A live name means one person: two live identities with one name would make the trail ambiguous.
CREATE UNIQUE INDEX ux_admin_identities_live_name ON admin_identities (name) WHERE revoked_at IS NULL;
