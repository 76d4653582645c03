// 31: the stock and the discard pile in the middle, three cards in hand, lives (tokens) per
// player with the bus (the last-chance token) drawn differently, and the knocker marked.

import { t } from '../i18n.js';
import { h } from '../ui.js';
import { cardEl, backs, handRow, sortCards, cardText, cardsText } from '../cards.js';

/**
 * The screen state: 31 keeps none (every choice is a single click).
 * @typedef {Record<string, never>} ThirtyOneUi
 */
/**
 * What the page adds to the view's table while it shows events.
 * @typedef {object} ThirtyOneShown
 * @property {{ seat: number, drew?: Api<'Pile'>, discarded?: string }} [just] The last draw or
 *   discard and its seat (nothing reads it yet).
 * @property {string} [arrived] The card just discarded, drawn arriving on the pile.
 */
/** The page's picture of the table.
 * @typedef {import('./renderer.js').TableOf<'thirty_one'> & ThirtyOneShown} ThirtyOneTable */

/** A hand's value in half points (30½ is 61), as shown; a dash when unknown.
 * @param {Api<'HandValue'> | null | undefined} value */
const points = (value) => (value === null || value === undefined ? '—' : String(value / 2).replace('.5', '½'));

/** @param {Api<'ThirtyOnePlayerInfo'>} player @param {Api<'ThirtyOneConfig'>} config */
function lives(player, config) {
  const box = h('span', { class: 'lives', 'aria-label': t('lives_n', { n: player.lives }) });
  for (let i = 0; i < player.lives; i++) box.append(h('span', { class: 'token', 'aria-hidden': 'true' }, '●'));
  if (player.on_the_bus) box.append(h('span', { class: 'token bus', title: t('on_the_bus') }, t('bus')));
  box.append(h('span', { class: 'count' }, player.out ? t('out') : String(player.lives)));
  return box;
}

/** @type {import('./renderer.js').Renderer<'thirty_one', ThirtyOneUi, ThirtyOneTable>} */
export default {
  applyEvent(table, event, view) {
    // (An event without a seat is nobody's: not mine, and no player; the cases below that use
    // them are all events with a seat.)
    const seat = 'seat' in event && typeof event.seat === 'number' ? event.seat : null;
    const mine = seat !== null && seat === view.your_seat;
    /** @type {Api<'ThirtyOnePlayerInfo'> | undefined} */
    const player = seat === null ? undefined : table.players[seat];
    switch (event.type) {
      case 'knocked':
        table.knocker = event.seat;
        break;
      case 'drew':
        if (event.from === 'discard') {
          table.discards = table.discards.slice(0, -1);
          table.discard_top = table.discards[table.discards.length - 1] || null;
          if (player && event.card) player.known = [...player.known, event.card];
        } else {
          table.stock = Math.max(0, table.stock - 1);
        }
        if (player) player.cards += 1;
        table.just = { seat: event.seat, drew: event.from };
        break;
      case 'drew_card':
        if (mine) {
          table.hand = [...table.hand, event.card];
          table.taken = event.card;
        }
        break;
      case 'discarded':
        table.discards = [...table.discards, event.card];
        table.discard_top = event.card;
        if (mine) table.hand = table.hand.filter((c) => c !== event.card);
        if (player) {
          player.cards = Math.max(0, player.cards - 1);
          player.known = player.known.filter((c) => c !== event.card);
        }
        table.just = { seat: event.seat, discarded: event.card };
        table.arrived = event.card;
        break;
      case 'showdown':
        table.shown = event.hands;
        break;
      default:
    }
  },

  describe(event, { who, cards, say }) {
    switch (event.type) {
      case 'dealt':
        return t('t31_dealt', { cards: cards(event.cards) });
      case 'hand_dealt':
        return t('t31_hand_dealt', { card: cards([event.discard]) });
      case 'knocked':
        return say('t31_knocked', event.seat);
      case 'drew':
        // (A draw from the discard pile names its card: core/src/games/thirty_one/game.rs.)
        return event.from === 'discard'
          ? say('t31_drew_discard', event.seat, { card: cards(event.card ? [event.card] : []) })
          : say('t31_drew_stock', event.seat);
      case 'drew_card':
        return t('t31_you_drew', { card: cards([event.card]) });
      case 'discarded':
        return say('t31_discarded', event.seat, { card: cards([event.card]) });
      case 'reshuffled':
        return t('t31_reshuffled', { n: event.stock });
      case 'stock_exhausted':
        return t('stock_exhausted');
      case 'showdown':
        return t('t31_showdown', {
          hands: event.hands.map((s) => `${who(s.seat)} ${cards(s.cards)} = ${points(s.value)}`).join(t('list_semicolon')),
        });
      case 'player_out':
        return say('t31_out', event.seat);
      default:
        return null;
    }
  },

  // (The table draws the seats, the middle and the hand only once dealt: `ctx.table` is there.)
  seat(ctx, seat) {
    const table = /** @type {ThirtyOneTable} */ (ctx.table);
    const player = table.players[seat];
    const shown = (table.shown || []).find((s) => s.seat === seat);
    return h('div', { class: 'seat-info' },
      shown
        ? h('div', { class: 'shown' }, shown.cards.map((c) => cardEl(c, { small: true })), h('span', { class: 'value' }, points(shown.value)))
        : backs(player.cards),
      lives(player, table.config),
      table.knocker === seat ? h('span', { class: 'knocked', title: t('knocked') }, `⚑ ${t('knocked')}`) : null,
      player.known.length && !shown ? h('span', { class: 'known' }, t('known_cards', { cards: cardsText(player.known) })) : null);
  },

  mySeat(ctx, seat) {
    const table = /** @type {ThirtyOneTable} */ (ctx.table);
    const player = table.players[seat];
    return h('div', { class: 'seat-info' },
      lives(player, table.config),
      table.knocker === seat ? h('span', { class: 'knocked' }, `⚑ ${t('knocked')}`) : null,
      h('span', { class: 'value', 'aria-label': t('hand_value') }, t('value_n', { n: points(table.value) })));
  },

  center(ctx) {
    const table = /** @type {ThirtyOneTable} */ (ctx.table);
    const stockMove = ctx.legal.find((m) => m.type === 'draw' && m.from === 'stock');
    const discardMove = ctx.legal.find((m) => m.type === 'draw' && m.from === 'discard');
    const stock = stockMove
      ? cardEl(null, { onPlay: () => ctx.act(stockMove), label: t('draw_stock'), marks: ['legal', 'pile'] })
      : cardEl(null, { label: t('stock_n', { n: table.stock }), marks: ['pile'] });
    stock.dataset.focus = 'stock';
    stock.dataset.pile = 'stock';
    let discard;
    if (table.discard_top) {
      discard = discardMove
        ? cardEl(table.discard_top, { onPlay: () => ctx.act(discardMove), label: t('draw_discard', { card: cardText(table.discard_top) }), marks: ['legal', 'pile'] })
        : cardEl(table.discard_top, { marks: ['pile', table.arrived === table.discard_top ? 'arrive' : ''] });
      discard.dataset.focus = 'discard';
      discard.dataset.pile = 'discard';
    } else {
      discard = h('span', { class: 'card empty-pile' }, t('empty'));
    }
    return h('div', { class: 'piles' },
      h('figure', {}, stock, h('figcaption', {}, t('stock_n', { n: table.stock }))),
      h('figure', {}, discard, h('figcaption', {}, t('discard_pile'))));
  },

  hand(ctx) {
    const table = /** @type {ThirtyOneTable} */ (ctx.table);
    return handRow(sortCards(table.hand, true).map((card) => {
      const mv = ctx.legal.find((m) => m.type === 'discard' && m.card === card);
      const taken = card === table.taken;
      if (!mv) {
        return cardEl(card, {
          marks: ['inert', taken ? 'taken' : ''],
          label: taken ? t('just_taken', { card: cardText(card) }) : undefined,
        });
      }
      const node = cardEl(card, { onPlay: () => ctx.act(mv), marks: ['legal'], label: t('discard_card', { card: cardText(card) }) });
      node.dataset.focus = `hand-${card}`;
      return node;
    }), t('your_hand'));
  },

  actions(ctx) {
    const knock = ctx.legal.find((m) => m.type === 'knock');
    if (!knock) return null;
    const button = h('button', { type: 'button', class: 'button legal', 'data-action': 'knock', 'data-focus': 'knock' }, `⚑ ${t('knock')}`);
    button.addEventListener('click', () => ctx.act(knock));
    return button;
  },

  prompt(ctx) {
    return ctx.legal.some((m) => m.type === 'discard') ? t('t31_prompt_discard') : t('t31_prompt_draw');
  },
};
