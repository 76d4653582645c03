-- Game analyses: one row a finished game, made in the background after it ends. `queued` from
-- the transaction that finishes the game (the games finished before are queued by the first
-- process that starts), `running` while a replica works on it (`done` of `total` moves so far,
-- `updated_at` its last sign of life: a claim older than a few minutes is taken over), then
-- `done` with the analysis as JSON in `body`, or `failed` with the reason. `format` is the
-- analysis's version (0 while queued): a row of an older one is queued again.
CREATE TABLE game_analyses (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    format     INTEGER NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    done       INTEGER NOT NULL,
    total      INTEGER NOT NULL,
    body       TEXT,
    error      TEXT,
    started_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX game_analyses_status ON game_analyses (status, updated_at);
