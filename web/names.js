// Small things named in words wherever the page shows them: a computer player's level, a turn
// timer's length, and how the seats of a table form sides (who is whose partner).

import { t } from './i18n.js';

/** A computer player's level in words: a numbered level, or a named one when the strings have it.
 * @param {string} level @returns {string} */
export function levelName(level) {
  if (/^\d+$/.test(String(level))) return t('level_n', { n: Number(level) });
  const key = `level_${level}`;
  const text = t(key);
  return text === key ? level : text;
}

/** A turn timer's length in words: "2 min", "30 s", "1 h".
 * @param {number} seconds @returns {string} */
export function timerText(seconds) {
  if (seconds >= 3600 && seconds % 3600 === 0) return t('timer_hours', { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t('timer_minutes', { n: seconds / 60 });
  return t('timer_seconds', { n: seconds });
}

/** The sides of a table of `seats` of game `kind` with `options`, each its seats: partners
 * opposite (Tarneeb; Basra at four in partnerships), or everyone for themselves.
 * @param {Api<'GameKind'>} kind @param {number} seats @param {Record<string, Api<'OptionValue'>>} [options]
 * @returns {number[][]} */
export function sidesOf(kind, seats, options = {}) {
  const partnerships = seats === 4 && (kind === 'tarneeb' || (kind === 'basra' && options.partnerships !== false));
  if (partnerships) return [[0, 2], [1, 3]];
  return Array.from({ length: seats }, (_, seat) => [seat]);
}

/** What `seat` is to `me` at a table with `sides`: `partner`, `opponent`, or (everyone for
 * themselves) `player`. `me` may be no seat (a watcher's): every seat is a `player` to them.
 * @param {number[][]} sides @param {number | null | undefined} me @param {number} seat
 * @returns {'partner' | 'opponent' | 'player'} */
export function relation(sides, me, seat) {
  // (A watcher's missing seat is on no side: a side holds only seat numbers.)
  const side = sides.find((s) => /** @type {(number | null | undefined)[]} */ (s).includes(me));
  if (!side || side.length < 2) return 'player';
  return side.includes(seat) ? 'partner' : 'opponent';
}
