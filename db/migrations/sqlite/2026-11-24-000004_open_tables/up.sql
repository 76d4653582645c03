-- Finding a game with others: who may find and watch a table. `public` tables are listed in the
-- lobby, where anyone signed in may take an open seat without an invite code, and may be
-- watched; `unlisted` ones (every table before this) are joined with the invite code only;
-- `private` ones likewise, and never watched.
ALTER TABLE games ADD COLUMN visibility TEXT NOT NULL DEFAULT 'unlisted'
    CHECK (visibility IN ('public', 'unlisted', 'private'));
CREATE INDEX games_lobby ON games (status, visibility, created_at);
