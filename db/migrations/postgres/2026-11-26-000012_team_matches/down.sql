ALTER TABLE tournament_entrants DROP COLUMN team_position, DROP COLUMN team;
ALTER TABLE tournaments DROP COLUMN teams;
