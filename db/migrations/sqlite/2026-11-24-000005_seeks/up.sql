-- Quick match: a person waiting to be paired with others who want the same game. A seek is
-- `open` until it is `matched` (with the game it went to), `cancelled`, or `expired` (its
-- client stopped asking after it).
CREATE TABLE seeks (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      BIGINT NOT NULL REFERENCES users (id),
    kind         TEXT NOT NULL,
    variant      TEXT NOT NULL,
    players      INTEGER NOT NULL,
    options      TEXT NOT NULL,
    rated        BOOLEAN NOT NULL,
    rating       REAL NOT NULL,
    rating_range INTEGER,
    fill_after   INTEGER,
    status       TEXT NOT NULL CHECK (status IN ('open', 'matched', 'cancelled', 'expired')),
    game_id      BIGINT REFERENCES games (id),
    created_at   TIMESTAMP NOT NULL,
    seen_at      TIMESTAMP NOT NULL
);
CREATE INDEX seeks_open ON seeks (status, kind, variant, players, created_at);
CREATE INDEX seeks_user ON seeks (user_id, status);
