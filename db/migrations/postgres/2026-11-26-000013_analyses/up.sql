-- Game analyses: one row a finished game, made in the background after it ends. `running`
-- while a replica works on it (`done` of `total` moves so far, `updated_at` its last sign of
-- life: a claim older than a few minutes is taken over), then `done` with the analysis as JSON
-- in `body`, or `failed` with the reason. `format` is the analysis's version: a row of an older
-- one is made again.
CREATE TABLE game_analyses (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    format     INTEGER NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
    done       INTEGER NOT NULL,
    total      INTEGER NOT NULL,
    body       TEXT,
    error      TEXT,
    started_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX game_analyses_status ON game_analyses (status, updated_at);
