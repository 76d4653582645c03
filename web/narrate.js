// Events in words, as the table's log tells them and the admin replay retells them: one
// sentence an event, the people named as the reader knows them — "You" for the reader's own
// seat, with the verb to match ("You knock!", never "Layla knocks!" beside seats that say You).

import { t, has } from './i18n.js';
import { cardsText } from './cards.js';
import basra from './games/basra.js';
import thirtyOne from './games/thirty_one.js';
import rummy from './games/rummy.js';
import tarneeb from './games/tarneeb.js';

/** @typedef {import('./games/renderer.js').GameKind} GameKind */
/** @typedef {import('./games/renderer.js').Describing<GameKind>} Describing */
/** A game's drawing as the table and the log call it: for whichever kind the view is of.
 * @typedef {import('./games/renderer.js').Renderer<GameKind, Record<string, unknown>>} AnyRenderer */

// Each game's drawing is typed for its own kind (Renderer<'basra', BasraUi>...). The one cast:
// the kind chooses the drawing, so the view, table and events it is handed (by the table and
// here, looked up by the view's kind) are always of its own kind, and the screen state is the
// one its own `reset` made. TypeScript cannot follow a lookup by kind, hence every kind here.
export const RENDERERS = /** @type {Record<GameKind, AnyRenderer>} */ (/** @type {unknown} */ (
  { basra, thirty_one: thirtyOne, rummy, tarneeb }));

/**
 * `event` of a game of `kind` in a sentence, or null for an event nobody reads (a deadline).
 * `name(seat)` names a seat as the reader knows it; `me` is the reader's seat (none for a
 * spectator or an admin). `outcome(event)` words a game's end; `tournament` is the tournament
 * the game is a round of, if any.
 * @param {GameKind} kind
 * @param {Api<'GameEvent'>} event
 * @param {object} options
 * @param {(seat: number) => string} options.name
 * @param {number | null} [options.me]
 * @param {(event: Api<'TableEventGameOver'>) => string} [options.outcome]
 * @param {Describing['table']} [options.table] The game's picture of the table, for its drawing.
 * @param {Api<'GameTournament'> | null} [options.tournament]
 * @returns {string | null}
 */
export function narrate(kind, event, { name, me, outcome, table, tournament = null }) {
  /** @param {number} seat */
  const who = (seat) => (seat === me && me !== null && me !== undefined ? t('you') : name(seat));
  // A sentence whose subject is `seat`: its "you" form for the reader's own seat.
  /** @param {string} key @param {number} seat @param {Record<string, unknown>} [vars] */
  const say = (key, seat, vars = {}) => (seat === me && me !== null && me !== undefined && has(`${key}_you`)
    ? t(`${key}_you`, vars)
    : t(key, { ...vars, who: who(seat) }));
  switch (event.type) {
    case 'created':
      if (event.rematch_of) return t('ev_created_rematch', { id: event.rematch_of });
      // (A tournament's table is the tournament's doing, not its first player's.)
      if (tournament) return t('ev_created_tournament', { round: tournament.round });
      return t('ev_created', { name: event.by });
    case 'joined':
      return event.seat === me ? t('ev_joined_you', { seat: event.seat + 1 }) : t('ev_joined', { name: event.name, seat: event.seat + 1 });
    case 'hand_started':
      return event.dealer === me && me !== null && me !== undefined
        ? t('ev_hand_started_you', { n: event.hand })
        : t('ev_hand_started', { n: event.hand, dealer: who(event.dealer) });
    case 'hand_scored':
      return t('ev_hand_scored', { n: event.hand, totals: event.totals.join(' – ') });
    case 'resigned':
      return say('ev_resigned', event.seat);
    case 'seat_to_computer':
      return event.reason === 'timeouts'
        ? say('ev_seat_away', event.seat)
        : t('ev_seat_to_computer', { seat: event.seat + 1 });
    case 'timed_out':
      return event.seat === null || event.seat === undefined
        ? t('ev_timed_out_deal')
        : say('ev_timed_out', event.seat);
    case 'seat_reclaimed':
      return say('ev_seat_reclaimed', event.seat);
    case 'deadline':
      return null;
    case 'abandoned':
      return t('ev_abandoned', { name: event.by });
    case 'rematch_offered':
      return t('ev_rematch_offered', { who: event.name });
    case 'rematch_accepted':
      return t('ev_rematch_accepted', { who: event.name });
    case 'rematch_declined':
      return t('ev_rematch_declined', { who: event.name });
    case 'rematch_started':
      return t('ev_rematch_started');
    case 'game_over':
      return outcome ? outcome(event) : null;
    default: {
      const renderer = RENDERERS[kind];
      return renderer && renderer.describe ? renderer.describe(event, { who, say, cards: cardsText, table }) : null;
    }
  }
}
