DROP TABLE rating_history;
DROP TABLE ratings;
ALTER TABLE seats DROP COLUMN label;
ALTER TABLE seats DROP COLUMN timeouts;
DROP INDEX games_deadline;
ALTER TABLE games DROP COLUMN deadline;
ALTER TABLE games DROP COLUMN takeover_after;
ALTER TABLE games DROP COLUMN turn_seconds;
