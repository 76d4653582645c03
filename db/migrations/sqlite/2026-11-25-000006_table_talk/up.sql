-- What people say at a table, apart from the game's own versioned log (a word in the chat must
-- never make a player's move stale). Two rooms: `players` (the people seated) and `spectators`
-- (everyone watching a public game); during a game neither reads the other's. A row is either
-- a `message` (its `text`, or one of the preset phrases by its key) or the note that an admin
-- `hidden` the message `target`: both are delivered in order, by `id`, through the game's events.
CREATE TABLE chat (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    BIGINT NOT NULL REFERENCES games (id),
    room       TEXT NOT NULL CHECK (room IN ('players', 'spectators')),
    user_id    BIGINT NOT NULL REFERENCES users (id),
    kind       TEXT NOT NULL CHECK (kind IN ('message', 'hidden')),
    text       TEXT,
    preset     TEXT,
    target     BIGINT REFERENCES chat (id),
    hidden     BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX chat_game ON chat (game_id, id);
CREATE INDEX chat_user ON chat (user_id, created_at);

-- One person's mute of another, for themselves: the muted person's chat is not delivered to
-- them.
CREATE TABLE mutes (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    muted_id   BIGINT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, muted_id)
);

-- An admin's mute: until then the person may not chat anywhere.
ALTER TABLE users ADD COLUMN muted_until TIMESTAMP;

-- Who is here: each process writes, every few seconds, the people with an open event stream or
-- long-poll on a game (`game_id`) and those who made any request (`game_id` 0). A person is
-- connected while one of their rows is recent; a game's spectators are the recent rows of
-- people not seated at it. Rows are refreshed in place and old ones swept.
CREATE TABLE presence (
    user_id BIGINT NOT NULL,
    game_id BIGINT NOT NULL,
    seen_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX presence_game ON presence (game_id, seen_at);
