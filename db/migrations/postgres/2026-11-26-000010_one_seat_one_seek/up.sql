-- One open seek an account, and one seat a person at a game, held by the database itself:
-- two requests at the same moment (on any replica) cannot both pass a check made before the
-- write. What a race may have left before is settled first: the newest open seek stays open,
-- and a second seat given to the same person goes to a computer player.
UPDATE seeks SET status = 'cancelled'
 WHERE status = 'open'
   AND id NOT IN (SELECT max(id) FROM seeks WHERE status = 'open' GROUP BY user_id);
CREATE UNIQUE INDEX seeks_one_open ON seeks (user_id) WHERE status = 'open';

UPDATE seats SET user_id = NULL, bot = COALESCE(bot, 'greedy')
 WHERE user_id IS NOT NULL
   AND seat > (SELECT min(s.seat) FROM seats s WHERE s.game_id = seats.game_id AND s.user_id = seats.user_id);
CREATE UNIQUE INDEX seats_one_per_person ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
