// Small things named in words wherever the page shows them: a computer player's level, a turn
// timer's length, and how the seats of a table form sides (who is whose partner).

import { t } from './i18n.js';

export function levelName(level) {
  if (/^\d+$/.test(String(level))) return t('level_n', { n: Number(level) });
  const key = `level_${level}`;
  const text = t(key);
  return text === key ? level : text;
}

/** A turn timer's length in words: "2 min", "30 s", "1 h". */
export function timerText(seconds) {
  if (seconds >= 3600 && seconds % 3600 === 0) return t('timer_hours', { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t('timer_minutes', { n: seconds / 60 });
  return t('timer_seconds', { n: seconds });
}

/** The sides of a table of `seats` of game `kind` with `options`, each its seats: partners
 * opposite (Tarneeb; Basra at four in partnerships), or everyone for themselves. */
export function sidesOf(kind, seats, options = {}) {
  const partnerships = seats === 4 && (kind === 'tarneeb' || (kind === 'basra' && options.partnerships !== false));
  if (partnerships) return [[0, 2], [1, 3]];
  return Array.from({ length: seats }, (_, seat) => [seat]);
}

/** What `seat` is to `me` at a table with `sides`: `partner`, `opponent`, or (everyone for
 * themselves) `player`. */
export function relation(sides, me, seat) {
  const side = sides.find((s) => s.includes(me));
  if (!side || side.length < 2) return 'player';
  return side.includes(seat) ? 'partner' : 'opponent';
}
