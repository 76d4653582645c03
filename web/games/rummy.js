// Rummy: select cards, then Meld; or select cards and click a meld on the table to lay them
// off. The buttons and melds light up only when the selection makes a legal move, so a wrong
// submission cannot be made; the line under the hand says why a selection is not (yet) a meld.
// Standard: draw (stock or face-up card) → meld → discard. Classic: meld; the compulsory
// exchange (take the face-up card giving one up, or turn the face-down card and keep it or pass
// it on); meld again; end the turn.

import { t } from '../i18n.js';
import { h } from '../ui.js';
import { cardEl, backs, handRow, sortCards, cardText, cardsText } from '../cards.js';

/**
 * The screen state: the cards selected, the face-up card being taken (a card to give up is
 * chosen next), and the hand's order, which outlives a hand.
 * @typedef {object} RummyUi
 * @property {string[]} [order] The cards in the order the player moved them to (the rest follow,
 *   sorted).
 * @property {boolean} [byRank] Sorted by rank rather than by suit.
 * @property {string[]} [selected] The cards selected for a meld, a lay-off or a discard.
 * @property {boolean} [taking] Taking the face-up card: the hand offers the cards to give up.
 */
/**
 * What the page adds to the view's table while it shows events.
 * @typedef {object} RummyShown
 * @property {string} [arrived] The card just discarded, drawn arriving on the pile.
 */
/** The page's picture of the table.
 * @typedef {import('./renderer.js').TableOf<'rummy'> & RummyShown} RummyTable */
/** @typedef {Api<'RummyMove'>} RummyMove */

/** @param {string[]} a @param {string[]} b */
const sameSet = (a, b) => a.length === b.length && a.every((c) => b.includes(c));
const RANKS = 'A23456789TJQK';

/** @param {RummyUi} ui @param {string[]} hand @param {boolean} bySuit */
function ordered(ui, hand, bySuit) {
  const order = (ui.order || []).filter((c) => hand.includes(c));
  const rest = hand.filter((c) => !order.includes(c));
  const sorted = bySuit
    ? sortCards(rest)
    : [...rest].sort((a, b) => RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]) || 'CDHS'.indexOf(a[1]) - 'CDHS'.indexOf(b[1]));
  return [...order, ...sorted];
}

/** @type {import('./renderer.js').Renderer<'rummy', RummyUi, RummyTable>} */
export default {
  reset(ui) {
    return { order: ui.order, byRank: ui.byRank };
  },

  applyEvent(table, event, view) {
    // (An event without a seat is nobody's: not mine, and no player; the cases below that use
    // them are all events with a seat.)
    const seat = 'seat' in event && typeof event.seat === 'number' ? event.seat : null;
    const mine = seat !== null && seat === view.your_seat;
    /** @type {Api<'RummyPlayerInfo'> | undefined} */
    const player = seat === null ? undefined : table.players[seat];
    /** @param {string[]} cards */
    const removeMine = (cards) => {
      if (mine) table.hand = table.hand.filter((c) => !cards.includes(c));
      if (player) player.cards = Math.max(0, player.cards - cards.length);
    };
    /** @param {string} card */
    const pushDiscard = (card) => {
      table.discards = [...table.discards, card];
      table.discard_top = card;
      table.arrived = card;
    };
    switch (event.type) {
      case 'drew':
        table.stock = Math.max(0, table.stock - 1);
        if (player) player.cards += 1;
        break;
      case 'drew_card':
        if (mine) {
          table.hand = [...table.hand, event.card];
          table.taken = event.card;
        }
        break;
      case 'took_discard':
        table.discards = table.discards.slice(0, -1);
        table.discard_top = table.discards[table.discards.length - 1] || null;
        if (mine) table.hand = [...table.hand, event.card];
        if (player) player.cards += 1;
        if (event.dropped) {
          removeMine([event.dropped]);
          pushDiscard(event.dropped);
        }
        break;
      case 'turned_over':
        table.stock = Math.max(0, table.stock - 1);
        table.turned = event.card;
        break;
      case 'kept':
        if (mine) table.hand = [...table.hand, event.card];
        if (player) player.cards += 1;
        removeMine([event.dropped]);
        pushDiscard(event.dropped);
        table.turned = null;
        break;
      case 'passed':
        pushDiscard(event.card);
        table.turned = null;
        break;
      case 'melded':
        table.melds = [...table.melds, event.meld];
        removeMine(event.meld.cards);
        if (player) player.melded = true;
        break;
      case 'laid_off': {
        const meld = table.melds.find((m) => m.id === event.meld);
        if (meld) meld.cards = [...meld.cards, ...event.cards];
        removeMine(event.cards);
        break;
      }
      case 'discarded':
        removeMine([event.card]);
        pushDiscard(event.card);
        break;
      case 'hands_shown':
        table.shown = event.hands;
        break;
      default:
    }
  },

  describe(event, { who, cards, say }) {
    switch (event.type) {
      case 'dealt':
        return t('rummy_dealt', { cards: cards(event.cards) });
      case 'hand_dealt':
        return t('rummy_hand_dealt', { card: cards([event.face_up]) });
      case 'drew':
        return say('rummy_drew', event.seat);
      case 'drew_card':
        return t('rummy_you_drew', { card: cards([event.card]) });
      case 'took_discard':
        return event.dropped
          ? say('rummy_took_gave', event.seat, { card: cards([event.card]), dropped: cards([event.dropped]) })
          : say('rummy_took', event.seat, { card: cards([event.card]) });
      case 'turned_over':
        return say('rummy_turned', event.seat, { card: cards([event.card]) });
      case 'kept':
        return say('rummy_kept', event.seat, { card: cards([event.card]), dropped: cards([event.dropped]) });
      case 'passed':
        return say('rummy_passed', event.seat, { card: cards([event.card]) });
      case 'melded':
        return say('rummy_melded', event.seat, { cards: cards(event.meld.cards) });
      case 'laid_off':
        return say('rummy_laid_off', event.seat, { cards: cards(event.cards), meld: event.meld + 1 });
      case 'discarded':
        return say('rummy_discarded', event.seat, { card: cards([event.card]) });
      case 'went_out':
        return say(event.rummy ? 'rummy_went_out_rummy' : 'rummy_went_out', event.seat);
      case 'stock_turned_over':
        return t('rummy_stock_turned', { n: event.stock });
      case 'stock_exhausted':
        return t('stock_exhausted');
      case 'hands_shown':
        return t('rummy_hands_shown', { hands: event.hands.map((s) => `${who(s.seat)}: ${cards(s.cards) || '—'}`).join(t('list_semicolon')) });
      default:
        return null;
    }
  },

  // (The table draws the seats, the middle, the hand and the buttons only once dealt:
  // `ctx.table` is there.)
  seat(ctx, seat) {
    const table = /** @type {RummyTable} */ (ctx.table);
    const player = table.players[seat];
    const shown = (table.shown || []).find((s) => s.seat === seat);
    return h('div', { class: 'seat-info' },
      shown ? h('div', { class: 'shown' }, shown.cards.map((c) => cardEl(c, { small: true }))) : backs(player.cards),
      h('span', { class: 'total' }, t('points_n', { n: player.total })),
      player.melded ? h('span', { class: 'tag' }, t('has_melded')) : null,
      player.known.length && !shown ? h('span', { class: 'known' }, t('known_cards', { cards: cardsText(player.known) })) : null);
  },

  mySeat(ctx, seat) {
    const player = /** @type {RummyTable} */ (ctx.table).players[seat];
    return h('div', { class: 'seat-info' }, h('span', { class: 'total' }, t('points_n', { n: player.total })));
  },

  center(ctx) {
    const table = /** @type {RummyTable} */ (ctx.table);
    const legal = ctx.legal;
    const selected = ctx.ui.selected || [];
    const stockMove = legal.find((m) => m.type === 'draw_stock');
    const takeMoves = legal.filter((m) => m.type === 'take_discard');
    const stockLabel = table.config.variant === 'classic' ? t('turn_over_stock') : t('draw_stock');
    const stock = stockMove
      ? cardEl(null, { onPlay: () => ctx.act(stockMove), label: stockLabel, marks: ['legal', 'pile'] })
      : cardEl(null, { label: t('stock_n', { n: table.stock }), marks: ['pile'] });
    stock.dataset.pile = 'stock';
    stock.dataset.focus = 'stock';
    let discard;
    if (table.discard_top) {
      if (takeMoves.length) {
        const take = () => {
          if (takeMoves.length === 1 && !takeMoves[0].drop) ctx.act(takeMoves[0]);
          else ctx.update({ taking: !ctx.ui.taking, selected: [] });
        };
        discard = cardEl(table.discard_top, {
          onPlay: take,
          label: t('take_face_up', { card: cardText(table.discard_top) }),
          marks: ['legal', 'pile', ctx.ui.taking ? 'selected' : ''],
        });
      } else {
        discard = cardEl(table.discard_top, { marks: ['pile', table.arrived === table.discard_top ? 'arrive' : ''] });
      }
      discard.dataset.pile = 'discard';
      discard.dataset.focus = 'discard';
    } else {
      discard = h('span', { class: 'card empty-pile' }, t('empty'));
    }
    const piles = h('div', { class: 'piles' },
      h('figure', {}, stock, h('figcaption', {}, t('stock_n', { n: table.stock }))),
      h('figure', {}, discard, h('figcaption', {}, t('discard_pile'))));
    if (table.turned) {
      piles.append(h('figure', { class: 'turned' }, cardEl(table.turned, { marks: ['pile', 'selected'] }), h('figcaption', {}, t('turned_card'))));
    }
    const melds = h('div', { class: 'melds', 'aria-label': t('melds') });
    for (const meld of table.melds) {
      const layOff = legal.find((m) => m.type === 'lay_off' && m.meld === meld.id && sameSet(m.cards, selected));
      const cards = h('span', { class: 'meld-cards' }, meld.cards.map((c) => cardEl(c, { small: true })));
      const label = t('meld_n', { n: meld.id + 1, cards: cardsText(meld.cards) });
      let node;
      if (layOff) {
        node = h('button', { type: 'button', class: 'meld legal', 'data-meld': String(meld.id), 'data-focus': `meld-${meld.id}`, 'aria-label': t('lay_off_onto', { meld: label }) }, cards);
        node.addEventListener('click', () => ctx.act(layOff));
      } else {
        node = h('div', { class: 'meld', 'data-meld': String(meld.id), role: 'img', 'aria-label': label }, cards);
      }
      melds.append(node);
    }
    if (!table.melds.length) melds.append(h('p', { class: 'empty' }, t('no_melds')));
    return h('div', { class: 'rummy-center' }, piles, melds);
  },

  hand(ctx) {
    const table = /** @type {RummyTable} */ (ctx.table);
    const legal = ctx.legal;
    const ui = ctx.ui;
    const selected = ui.selected || [];
    const hand = ordered(ui, table.hand, !ui.byRank);
    const meldable = new Set(legal.filter((m) => m.type === 'meld' || m.type === 'lay_off').flatMap((m) => m.cards));
    const keepMoves = legal.filter((m) => m.type === 'keep');
    const cards = hand.map((card) => {
      const marks = [];
      if (selected.includes(card)) marks.push('selected');
      if (card === table.taken) marks.push('taken');
      if (meldable.has(card)) marks.push('meldable');
      let action = null;
      if (keepMoves.length) {
        const mv = keepMoves.find((m) => m.drop === card);
        if (mv) action = () => ctx.act(mv);
      } else if (ui.taking) {
        const mv = legal.find((m) => m.type === 'take_discard' && m.drop === card);
        if (mv) action = () => ctx.act(mv);
      } else if (legal.some((m) => (m.type === 'discard' && m.card === card) || ((m.type === 'meld' || m.type === 'lay_off') && m.cards.includes(card)))) {
        action = () => {
          const next = selected.includes(card) ? selected.filter((c) => c !== card) : [...selected, card];
          ctx.update({ selected: next });
        };
      }
      if (!action) {
        marks.push('inert');
        return cardEl(card, { marks, label: card === table.taken ? t('just_taken', { card: cardText(card) }) : undefined });
      }
      marks.push('legal');
      const node = cardEl(card, { onPlay: action, marks });
      node.setAttribute('aria-pressed', selected.includes(card) ? 'true' : 'false');
      node.dataset.focus = `hand-${card}`;
      return node;
    });
    return handRow(cards, t('your_hand'));
  },

  actions(ctx) {
    const legal = ctx.legal;
    const ui = ctx.ui;
    const selected = ui.selected || [];
    const box = h('div', { class: 'rummy-actions' });
    /**
     * A button that makes a move or does something on the page; enabled only with its move.
     * @param {string} label @param {string} action
     * @param {RummyMove | (() => void) | false | undefined} mv @param {boolean} [enabled]
     */
    const button = (label, action, mv, enabled = true) => {
      const node = h('button', { type: 'button', class: `button${enabled ? ' legal' : ''}`, 'data-action': action, 'data-focus': action, disabled: !enabled }, label);
      if (enabled) node.addEventListener('click', () => (typeof mv === 'function' ? mv()
        : ctx.act(/** @type {RummyMove} */ (mv))));
      return node;
    };
    const meld = legal.find((m) => m.type === 'meld' && sameSet(m.cards, selected));
    const anyMeld = legal.some((m) => m.type === 'meld' || m.type === 'lay_off');
    if (anyMeld) {
      box.append(button(t('meld'), 'meld', meld, Boolean(meld)));
      const suggestion = legal.find((m) => m.type === 'meld') || legal.find((m) => m.type === 'lay_off');
      // (`anyMeld`: there is a meld or a lay-off to suggest.)
      box.append(button(t('suggest'), 'suggest', () => ctx.update({
        selected: /** @type {NonNullable<typeof suggestion>} */ (suggestion).cards, taking: false })));
    }
    const discard = selected.length === 1 && legal.find((m) => m.type === 'discard' && m.card === selected[0]);
    if (legal.some((m) => m.type === 'discard')) box.append(button(t('discard'), 'discard', discard, Boolean(discard)));
    const pass = legal.find((m) => m.type === 'pass_drawn');
    if (pass) box.append(button(t('pass_it_on'), 'pass', pass));
    const end = legal.find((m) => m.type === 'end_turn');
    if (end) box.append(button(t('end_turn'), 'end-turn', end));
    if (selected.length) box.append(button(t('clear_selection'), 'clear', () => ctx.update({ selected: [] })));
    // Reordering: by suit, by rank, or move the one selected card along the hand.
    const sort = h('button', { type: 'button', class: 'button ghost', 'data-action': 'sort' }, ui.byRank ? t('sort_by_suit') : t('sort_by_rank'));
    sort.addEventListener('click', () => ctx.update({ byRank: !ui.byRank, order: [] }));
    box.append(sort);
    if (selected.length === 1) {
      const hand = ordered(ui, /** @type {RummyTable} */ (ctx.table).hand, !ui.byRank);
      /** @param {number} by */
      const shift = (by) => {
        const i = hand.indexOf(selected[0]);
        const j = Math.max(0, Math.min(hand.length - 1, i + by));
        const next = [...hand];
        next.splice(i, 1);
        next.splice(j, 0, selected[0]);
        ctx.update({ order: next });
      };
      const left = h('button', { type: 'button', class: 'button ghost', 'aria-label': t('move_earlier') }, '◀');
      const right = h('button', { type: 'button', class: 'button ghost', 'aria-label': t('move_later') }, '▶');
      left.addEventListener('click', () => shift(-1));
      right.addEventListener('click', () => shift(1));
      box.append(left, right);
    }
    return box;
  },

  prompt(ctx) {
    const legal = ctx.legal;
    const selected = ctx.ui.selected || [];
    if (legal.some((m) => m.type === 'keep')) return t('rummy_prompt_keep');
    if (ctx.ui.taking) return t('rummy_prompt_give_up');
    if (selected.length && !legal.some((m) => (m.type === 'meld' || m.type === 'lay_off') && sameSet(m.cards, selected))) {
      if (!(selected.length === 1 && legal.some((m) => m.type === 'discard' && m.card === selected[0]))) {
        return t('rummy_not_a_meld', { cards: cardsText(selected) });
      }
    }
    if (legal.some((m) => m.type === 'draw_stock') && legal.some((m) => m.type === 'take_discard' && !m.drop)) return t('rummy_prompt_draw');
    if (legal.some((m) => m.type === 'discard')) return t('rummy_prompt_play');
    if (legal.some((m) => m.type === 'end_turn')) return t('rummy_prompt_after');
    return t('rummy_prompt_exchange');
  },
};
