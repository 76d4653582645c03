-- Cardroom's schema on SQLite: the same shape as ../postgres.
-- Times are UTC without zone (diesel's MultiConnection supports Timestamp, not Timestamptz);
-- JSON is stored as text.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    role          TEXT NOT NULL DEFAULT 'player' CHECK (role IN ('player', 'admin')),
    guest         BOOLEAN NOT NULL,
    created_at    TIMESTAMP NOT NULL
);
-- Names are unique regardless of case, so "Amira" cannot pose as "amira".
CREATE UNIQUE INDEX users_name_lower ON users (lower(name));

CREATE TABLE games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT NOT NULL,
    variant       TEXT NOT NULL,
    options       TEXT NOT NULL,
    seat_count    INTEGER NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('waiting', 'active', 'hand_over', 'finished', 'abandoned')),
    seed          TEXT NOT NULL,
    deck          TEXT,
    state         TEXT,
    state_format  INTEGER NOT NULL,
    version       BIGINT NOT NULL,
    practice      BOOLEAN NOT NULL,
    invite_code   TEXT NOT NULL UNIQUE,
    created_by    BIGINT NOT NULL REFERENCES users (id),
    created_at    TIMESTAMP NOT NULL,
    updated_at    TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP,
    hands         INTEGER NOT NULL DEFAULT 0,
    moves         INTEGER NOT NULL DEFAULT 0,
    winners       TEXT,
    end_reason    TEXT,
    to_act        INTEGER,
    bot_pending   BOOLEAN NOT NULL DEFAULT 0
);
CREATE INDEX games_status_created ON games (status, created_at);
CREATE INDEX games_bot_pending ON games (id) WHERE bot_pending = 1;

CREATE TABLE seats (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    seat       INTEGER NOT NULL,
    user_id    BIGINT REFERENCES users (id),
    bot        TEXT,
    joined_at  TIMESTAMP,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats (user_id, game_id);

-- The append-only move log: one row per change, `seq` is the game's version after it.
CREATE TABLE game_log (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    seq        BIGINT NOT NULL,
    seat       INTEGER,
    action     TEXT NOT NULL,
    payload    TEXT,
    events     TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Each deal's seed commitment, published when dealt; the seed, revealed when its hand ends.
CREATE TABLE deals (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    deal        INTEGER NOT NULL,
    hand        INTEGER NOT NULL,
    commitment  TEXT NOT NULL,
    seed        TEXT,
    dealt_at    TIMESTAMP NOT NULL,
    revealed_at TIMESTAMP,
    PRIMARY KEY (game_id, deal)
);

CREATE TABLE idempotency_keys (
    user_id      BIGINT NOT NULL REFERENCES users (id),
    key          TEXT NOT NULL,
    game_id      BIGINT NOT NULL REFERENCES games (id),
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    body         TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, key)
);
