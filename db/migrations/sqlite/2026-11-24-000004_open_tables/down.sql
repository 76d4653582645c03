DROP INDEX games_lobby;
ALTER TABLE games DROP COLUMN visibility;
