-- Team matches: a duplicate tournament of a partnership game whose entrants are drawn into
-- teams of four at the start (`teams`). Each entrant's team (from 1) and position in it (0 and
-- 1 the first pair, 2 and 3 the second) are kept from the draw on.
ALTER TABLE tournaments ADD COLUMN teams BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tournament_entrants
    ADD COLUMN team INTEGER,
    ADD COLUMN team_position INTEGER;
