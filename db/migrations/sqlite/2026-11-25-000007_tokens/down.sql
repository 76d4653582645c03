CREATE TABLE ratings_old (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    kind       TEXT NOT NULL,
    pool       TEXT NOT NULL CHECK (pool IN ('people', 'computers')),
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, kind, pool)
);
INSERT INTO ratings_old SELECT user_id, kind, pool, rating, deviation, volatility, games, updated_at FROM ratings WHERE pool <> 'bots';
DROP TABLE ratings;
ALTER TABLE ratings_old RENAME TO ratings;
CREATE INDEX ratings_board ON ratings (kind, pool, rating);
ALTER TABLE seeks DROP COLUMN with_bots;
ALTER TABLE seeks DROP COLUMN bot;
ALTER TABLE users DROP COLUMN bot;
DROP TABLE api_tokens;
