-- What the admin dashboard aggregates, kept as the games are played so the statistics are
-- sums and counts in the database: notable events per game, and each seat's result once a
-- game is finished.
ALTER TABLE games ADD COLUMN basras INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN knocks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN thirty_ones INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN contracts_made INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN contracts_set INTEGER NOT NULL DEFAULT 0;

CREATE TABLE results (
    game_id  BIGINT NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL,
    user_id  BIGINT REFERENCES users (id),
    bot      TEXT,
    side     INTEGER NOT NULL,
    won      BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_user ON results (user_id);

-- Who made a move in a real game of which kind on which day (UTC, YYYY-MM-DD), one row per
-- person, kind and day: the dashboard's active players, without scanning the move log.
CREATE TABLE player_days (
    day      TEXT NOT NULL,
    kind     TEXT NOT NULL,
    user_id  BIGINT NOT NULL REFERENCES users (id),
    PRIMARY KEY (day, kind, user_id)
);

-- Daily roll-ups of real (non-practice) games, added to as games start and finish, so the
-- dashboard reads a few rows per day whatever the size of the history. `day` is UTC
-- YYYY-MM-DD: of the start for `started`, of the end for the rest.
CREATE TABLE daily_kind (
    day            TEXT NOT NULL,
    kind           TEXT NOT NULL,
    started        BIGINT NOT NULL DEFAULT 0,
    finished       BIGINT NOT NULL DEFAULT 0,
    moves          BIGINT NOT NULL DEFAULT 0,
    hands          BIGINT NOT NULL DEFAULT 0,
    seconds        BIGINT NOT NULL DEFAULT 0,
    basras         BIGINT NOT NULL DEFAULT 0,
    knocks         BIGINT NOT NULL DEFAULT 0,
    thirty_ones    BIGINT NOT NULL DEFAULT 0,
    contracts_made BIGINT NOT NULL DEFAULT 0,
    contracts_set  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (day, kind)
);
-- Finished real games with a person against a computer level (on opposing sides), by the
-- day they ended: did the people or the computer win?
CREATE TABLE daily_level (
    day            TEXT NOT NULL,
    kind           TEXT NOT NULL,
    level          TEXT NOT NULL,
    games          BIGINT NOT NULL DEFAULT 0,
    human_wins     BIGINT NOT NULL DEFAULT 0,
    computer_wins  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (day, kind, level)
);

-- The history's filters and the dashboard's date ranges.
CREATE INDEX games_created ON games (created_at);
CREATE INDEX games_finished ON games (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX games_kind_created ON games (kind, created_at);

-- The games played before this migration: their starts and ends (their notable events and
-- per-seat results were not kept, so those start from here).
INSERT INTO daily_kind (day, kind, started)
SELECT to_char(created_at, 'YYYY-MM-DD'), kind, COUNT(*) FROM games WHERE NOT practice GROUP BY 1, 2;
INSERT INTO daily_kind (day, kind, finished, moves, hands, seconds)
SELECT to_char(finished_at, 'YYYY-MM-DD'), kind, COUNT(*), SUM(moves), SUM(hands), CAST(SUM(EXTRACT(EPOCH FROM (finished_at - created_at))) AS BIGINT)
FROM games WHERE NOT practice AND status = 'finished' AND finished_at IS NOT NULL GROUP BY 1, 2
ON CONFLICT (day, kind) DO UPDATE SET finished = excluded.finished, moves = excluded.moves,
    hands = excluded.hands, seconds = excluded.seconds;
