// Basra: the floor in the middle, your hand below, captured piles and basras per side.
// Where the variant lets you choose among captures (classic44), choosing a card that has
// several offers the choices, each drawn with its cards.

import { t } from '../i18n.js';
import { h } from '../ui.js';
import { cardEl, backs, handRow, sortCards, cardsText } from '../cards.js';

/**
 * The screen state: the card whose captures are offered (classic44), none when no choice is
 * open.
 * @typedef {object} BasraUi
 * @property {string | null} [choosing] The card chosen, its captures offered as buttons.
 * @property {null} [hover] Cleared when a card is chosen; nothing reads it now.
 */
/**
 * What the page adds to the view's table while it shows events.
 * @typedef {object} BasraShown
 * @property {{ card: string, captured: string[] } | null} [staging] Another player's card on its
 *   way, and what it will take.
 * @property {{ seat: number, card: string, captured: string[], basra?: number | null }} [just]
 *   The card played last, what it took and the basra it made.
 */
/** The page's picture of the table. @typedef {import('./renderer.js').TableOf<'basra'> & BasraShown} BasraTable */
/** @typedef {import('./renderer.js').DrawContext<'basra', BasraUi, BasraTable>} Context */
/**
 * A legal move: the server names the capture of each (core/src/games/basra/game.rs,
 * `legal_moves`), though the document marks `capture` optional, as a move sent may leave it out.
 * @typedef {Api<'BasraMove'> & { capture: Api<'CardSet'> }} LegalPlay
 */

/** @param {BasraTable} table @param {number} seat */
function sideOfSeat(table, seat) {
  const index = table.sides.findIndex((side) => side.seats.includes(seat));
  return index < 0 ? null : table.sides[index];
}

/**
 * @type {import('./renderer.js').Renderer<'basra', BasraUi, BasraTable>
 *   & { sideInfo: (ctx: Context, seat: number) => HTMLDivElement | null }}
 */
export default {
  reset() {
    return {};
  },

  stage(table, event) {
    if (event.type === 'played') table.staging = { card: event.card, captured: event.captured };
  },

  applyEvent(table, event, view) {
    table.staging = null;
    switch (event.type) {
      case 'dealt':
        if (event.seat === view.your_seat) table.hand = event.cards;
        break;
      case 'floor_dealt':
        table.floor = event.cards;
        break;
      case 'round_dealt':
        table.round = event.round;
        table.stock = event.stock;
        table.hand_sizes = table.hand_sizes.map(() => event.cards_each);
        break;
      case 'played': {
        if (event.seat === view.your_seat) table.hand = table.hand.filter((c) => c !== event.card);
        table.hand_sizes[event.seat] = Math.max(0, table.hand_sizes[event.seat] - 1);
        const side = sideOfSeat(table, event.seat);
        if (event.captured.length) {
          table.floor = table.floor.filter((c) => !event.captured.includes(c));
          if (side) side.captured = [...side.captured, event.card, ...event.captured];
          table.last_capture = event.seat;
          if (event.basra && side) side.basras = [...side.basras, { seat: event.seat, card: event.card, points: event.basra }];
        } else {
          table.floor = [...table.floor, event.card];
        }
        table.just = { seat: event.seat, card: event.card, captured: event.captured, basra: event.basra };
        break;
      }
      case 'floor_collected':
        table.floor = table.floor.filter((c) => !event.cards.includes(c));
        break;
      default:
    }
  },

  describe(event, { who, cards, say }) {
    switch (event.type) {
      case 'dealt':
        return t('basra_dealt', { cards: cards(event.cards) });
      case 'floor_dealt':
        return t('basra_floor_dealt', { cards: cards(event.cards) });
      case 'round_dealt':
        return t('basra_round', { n: event.round, each: event.cards_each, stock: event.stock });
      case 'played':
        if (event.basra) return say('basra_played_basra', event.seat, { card: cards([event.card]), captured: cards(event.captured), points: event.basra });
        if (event.captured.length) return say('basra_played_capture', event.seat, { card: cards([event.card]), captured: cards(event.captured) });
        return say('basra_played_floor', event.seat, { card: cards([event.card]) });
      case 'floor_collected':
        return say('basra_floor_collected', event.seat, { cards: cards(event.cards) });
      default:
        return null;
    }
  },

  seat(ctx, seat) {
    const table = ctx.table;
    if (!table) return null;
    return h('div', { class: 'seat-info' }, backs(table.hand_sizes[seat] || 0), this.sideInfo(ctx, seat));
  },

  mySeat(ctx, seat) {
    return ctx.table ? this.sideInfo(ctx, seat) : null;
  },

  // (`seat` and `mySeat` call it once dealt: `ctx.table` is there.)
  sideInfo(ctx, seat) {
    const side = sideOfSeat(/** @type {BasraTable} */ (ctx.table), seat);
    if (!side) return null;
    const marks = side.basras.map((b) => h('span', { class: 'basra-mark', title: t('basra') }, `★ ${cardsText([b.card])} ${b.points}`));
    return h('div', { class: 'side-info' },
      h('span', { class: 'pile' }, t('captured_n', { n: side.captured.length })),
      marks.length ? h('span', { class: 'basras', 'aria-label': t('basras') }, ...marks) : null);
  },

  center(ctx) {
    const table = ctx.table;
    if (!table) return null;
    const choosing = ctx.ui.choosing;
    const staging = table.staging;
    const highlight = new Set(staging ? staging.captured : []);
    const just = table.just;
    const arrived = just && !just.captured.length ? just.card : null;
    const floor = h('div', { class: 'floor', 'aria-label': t('floor') },
      table.floor.length
        ? table.floor.map((c) => cardEl(c, { marks: [highlight.has(c) ? 'target' : '', c === arrived ? 'arrive' : ''] }))
        : h('p', { class: 'empty' }, t('floor_empty')));
    // Another player's card on its way: shown beside the floor, what it takes lit up.
    if (staging) floor.append(cardEl(staging.card, { marks: ['arrive', 'incoming'] }));
    const info = h('div', { class: 'pile-info' },
      h('span', {}, t('stock_n', { n: table.stock })),
      h('span', {}, t('round_of', { n: table.round, of: table.rounds })),
      table.carried ? h('span', {}, t('carried_n', { n: table.carried })) : null);
    const box = h('div', { class: 'basra-center' }, info, floor);
    if (just && just.basra) box.append(h('div', { class: 'announce basra-announce', role: 'status' }, t('basra_announce', { points: just.basra })));
    if (choosing) box.classList.add('choosing');
    return box;
  },

  hand(ctx) {
    const table = ctx.table;
    if (!table) return null;
    const legal = /** @type {LegalPlay[]} */ (ctx.legal);
    const hand = sortCards(table.hand);
    return handRow(hand.map((card) => {
      const moves = legal.filter((m) => m.card === card);
      if (!moves.length) return cardEl(card, { marks: ['inert'] });
      const play = () => {
        if (moves.length === 1) ctx.act(moves[0]);
        else ctx.update({ choosing: card, hover: null });
      };
      const node = cardEl(card, { onPlay: play, marks: ['legal', ctx.ui.choosing === card ? 'selected' : ''] });
      node.dataset.focus = `hand-${card}`;
      const captures = moves.flatMap((m) => m.capture);
      node.addEventListener('mouseenter', () => {
        if (!ctx.ui.choosing) highlightFloor(captures);
      });
      node.addEventListener('mouseleave', () => highlightFloor([]));
      node.addEventListener('focus', () => highlightFloor(captures));
      node.addEventListener('blur', () => highlightFloor([]));
      const title = moves.length === 1 && moves[0].capture.length
        ? t('takes', { cards: cardsText(moves[0].capture) })
        : moves.length > 1 ? t('choose_capture') : t('to_floor');
      node.title = title;
      return node;
    }), t('your_hand'));
  },

  actions(ctx) {
    const card = ctx.ui.choosing;
    if (!card) return null;
    const moves = /** @type {LegalPlay[]} */ (ctx.legal).filter((m) => m.card === card);
    const box = h('div', { class: 'choices' }, h('p', {}, t('capture_with', { card: cardsText([card]) })));
    for (const mv of moves) {
      const button = h('button', { type: 'button', class: 'button choice legal', 'data-focus': `capture-${mv.capture.join('-')}` },
        mv.capture.length ? mv.capture.map((c) => cardEl(c, { small: true })) : t('to_floor'),
        h('span', { class: 'sr' }, mv.capture.length ? t('takes', { cards: cardsText(mv.capture) }) : t('to_floor')));
      button.addEventListener('click', () => ctx.act(mv));
      button.addEventListener('mouseenter', () => highlightFloor(mv.capture));
      box.append(button);
    }
    const cancel = h('button', { type: 'button', class: 'button ghost' }, t('cancel'));
    cancel.addEventListener('click', () => ctx.update({ choosing: null }));
    box.append(cancel);
    return box;
  },

  prompt(ctx) {
    if (ctx.ui.choosing) return t('choose_capture');
    // (No pointer to point with on a touch screen: the card is simply tapped.)
    const touch = typeof matchMedia === 'function' && matchMedia('(hover: none)').matches;
    return t(touch ? 'basra_prompt_touch' : 'basra_prompt');
  },

  scoreNote(ctx) {
    const target = ctx.table && ctx.table.config.target;
    return target ? t('target_is', { n: target }) : null;
  },
};

/** Marks the floor cards a hovered or focused card would take, without redrawing.
 * @param {string[]} cards */
function highlightFloor(cards) {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.floor .card'))) {
    // (Every card on the floor is face up: cardEl gave it its `data-card`.)
    node.classList.toggle('target', cards.includes(/** @type {string} */ (node.dataset.card)));
  }
}

