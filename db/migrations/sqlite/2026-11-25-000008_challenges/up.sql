-- Challenges: one account asks another (or, open, anyone with its link) for a game of two
-- people, any other seats being computer players. `open` until accepted (with the game made),
-- declined (with a reason), cancelled by its challenger, or expired.
CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    challenger_id   BIGINT NOT NULL REFERENCES users (id),
    to_id           BIGINT REFERENCES users (id),
    code            TEXT NOT NULL,
    kind            TEXT NOT NULL,
    variant         TEXT NOT NULL,
    options         TEXT NOT NULL,
    seats           TEXT NOT NULL,
    challenger_seat INTEGER NOT NULL,
    rated           BOOLEAN NOT NULL,
    turn_seconds    INTEGER,
    takeover_after  INTEGER,
    visibility      TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    reason          TEXT,
    game_id         BIGINT REFERENCES games (id),
    created_at      TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL,
    answered_at     TIMESTAMP
);
CREATE INDEX challenges_to ON challenges (to_id, status);
CREATE INDEX challenges_from ON challenges (challenger_id, status);
CREATE INDEX challenges_expiry ON challenges (status, expires_at);

-- What happened that concerns an account, in order, for its event stream: games started,
-- turns to play, games over, challenges, quick matches. Kept a week; a stream resumes after
-- the last id it saw.
CREATE TABLE account_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    type       TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX account_events_user ON account_events (user_id, id);
CREATE INDEX account_events_age ON account_events (created_at);
