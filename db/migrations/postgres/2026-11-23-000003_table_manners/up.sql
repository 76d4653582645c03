-- Table manners: turn timers and seat takeover, ratings, and imported games.

-- A table's turn policy (both NULL: no timer), and when the seat to act runs out of time.
ALTER TABLE games ADD COLUMN turn_seconds INTEGER;
ALTER TABLE games ADD COLUMN takeover_after INTEGER;
ALTER TABLE games ADD COLUMN deadline TIMESTAMP;
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;

-- A seat's timeouts in a row (a computer takes the seat at the table's limit; the person
-- stays on the seat, away, until they reclaim it), and the name of a player of an imported
-- game who has no account here.
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN label TEXT;

-- Glicko-2 ratings per person, game kind and pool: against people, or against computer
-- players. One row each, rewritten as rated games finish.
CREATE TABLE ratings (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    kind       TEXT NOT NULL,
    pool       TEXT NOT NULL CHECK (pool IN ('people', 'computers')),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, kind, pool)
);
CREATE INDEX ratings_board ON ratings (kind, pool, rating);

-- Every rated game's change to a rating, for the profile's history.
CREATE TABLE rating_history (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    kind       TEXT NOT NULL,
    pool       TEXT NOT NULL,
    game_id    BIGINT NOT NULL REFERENCES games (id),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    before     DOUBLE PRECISION NOT NULL,
    at         TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, kind, pool, game_id)
);
