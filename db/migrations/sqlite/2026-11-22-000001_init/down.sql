DROP TABLE idempotency_keys;
DROP TABLE deals;
DROP TABLE game_log;
DROP TABLE seats;
DROP TABLE games;
DROP TABLE users;
