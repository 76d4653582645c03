DELETE FROM ratings WHERE pool = 'bots';
ALTER TABLE ratings DROP CONSTRAINT ratings_pool_check;
ALTER TABLE ratings ADD CONSTRAINT ratings_pool_check CHECK (pool IN ('people', 'computers'));
ALTER TABLE seeks DROP COLUMN with_bots;
ALTER TABLE seeks DROP COLUMN bot;
ALTER TABLE users DROP COLUMN bot;
DROP TABLE api_tokens;
