-- Personal API tokens for programs: a registered account makes as many as it wants, each with
-- a description and scopes (`play`, `challenge`, `read`, `admin` for admins). The token is shown
-- once; only its SHA-256 is kept, found by its public id (the characters after `cdr_`).
CREATE TABLE api_tokens (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id),
    public_id    TEXT NOT NULL UNIQUE,
    secret_hash  TEXT NOT NULL,
    description  TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP,
    revoked_at   TIMESTAMP
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, id);

-- A bot account: a registered account that plays only through tokens (irreversible).
ALTER TABLE users ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;

-- Quick match keeps programs and people apart unless a person asks for bots: a seek says
-- whether its seeker is a bot account, and whether it will be paired with bot accounts.
ALTER TABLE seeks ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seeks ADD COLUMN with_bots BOOLEAN NOT NULL DEFAULT FALSE;

-- Bot accounts are rated in a pool of their own (with people's games against them).
-- rolling: the new check only widens the old one (a third pool); every release before writes
-- only the first two.
ALTER TABLE ratings DROP CONSTRAINT ratings_pool_check;
ALTER TABLE ratings ADD CONSTRAINT ratings_pool_check CHECK (pool IN ('people', 'computers', 'bots'));
