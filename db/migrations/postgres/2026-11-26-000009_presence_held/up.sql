-- Presence tells a held stream from a request: `held` is true while the writing process holds
-- a stream or long-poll of (user_id, game_id) open, and false once it closed (written at the
-- moment it closed, so that leaving shows at once rather than when the row grows old). Rows
-- of requests without a stream have game_id -1 (0 is the account's own stream).
ALTER TABLE presence ADD COLUMN held BOOLEAN NOT NULL DEFAULT FALSE;
