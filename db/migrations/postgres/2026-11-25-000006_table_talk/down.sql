DROP TABLE presence;
ALTER TABLE users DROP COLUMN muted_until;
DROP TABLE mutes;
DROP TABLE chat;
