-- Tournaments: arena (a fixed time; whoever is free is seated at once), Swiss (a fixed number
-- of rounds, equal scores together) and duplicate (every table of a round plays the same deals,
-- each result scored against the others from the same seat). `upcoming` until its start,
-- `running`, then `finished` (or `cancelled`: too few entrants at the start). `round` counts
-- the rounds paired (an arena's pairings, one after another); `version` is bumped by every
-- pairing, which happens in one transaction with the tournament's row held.
CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    name           TEXT NOT NULL,
    format         TEXT NOT NULL CHECK (format IN ('arena', 'swiss', 'duplicate')),
    kind           TEXT NOT NULL,
    variant        TEXT NOT NULL,
    options        TEXT NOT NULL,
    table_seats    INTEGER NOT NULL,
    rounds         INTEGER,
    minutes        INTEGER,
    fill           TEXT,
    turn_seconds   INTEGER NOT NULL,
    takeover_after INTEGER NOT NULL,
    rated          BOOLEAN NOT NULL,
    code           TEXT,
    seed           TEXT NOT NULL,
    created_by     BIGINT NOT NULL REFERENCES users (id),
    status         TEXT NOT NULL CHECK (status IN ('upcoming', 'running', 'finished', 'cancelled')),
    round          INTEGER NOT NULL,
    version        BIGINT NOT NULL,
    starts_at      TIMESTAMP NOT NULL,
    ends_at        TIMESTAMP,
    created_at     TIMESTAMP NOT NULL,
    finished_at    TIMESTAMP
);
CREATE INDEX tournaments_status ON tournaments (status, starts_at);

-- Who entered: people, guests and bot accounts. Withdrawing keeps the row (and its games).
CREATE TABLE tournament_entrants (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    user_id       BIGINT NOT NULL REFERENCES users (id),
    joined_at     TIMESTAMP NOT NULL,
    withdrawn_at  TIMESTAMP,
    UNIQUE (tournament_id, user_id)
);
CREATE INDEX tournament_entrants_user ON tournament_entrants (user_id);

-- Where each entrant sits in each round (a bye: no game): one row an entrant a round, so
-- nobody is seated twice in a round whatever races. Once the game is over the pairing step
-- records the entrant's place (0 = first, by side), the points it is worth (doubled), its
-- result for duplicate comparison (the side's total, higher better) and whether it was a win
-- (2 alone, 1 shared, 0 not).
CREATE TABLE tournament_seats (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    entrant_id    BIGINT NOT NULL REFERENCES tournament_entrants (id),
    game_id       BIGINT REFERENCES games (id),
    seat          INTEGER,
    place         INTEGER,
    points        INTEGER,
    result        BIGINT,
    first         INTEGER,
    PRIMARY KEY (tournament_id, round, entrant_id)
);
CREATE INDEX tournament_seats_game ON tournament_seats (game_id);
CREATE INDEX tournament_seats_entrant ON tournament_seats (entrant_id);
