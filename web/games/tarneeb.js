// Tarneeb: four seats, partners opposite; the auction as it goes; the contract and trump always
// shown; the trick in the middle with each card in front of who played it; tricks per team.

import { t, tn, num } from '../i18n.js';
import { h } from '../ui.js';
import { cardEl, backs, handRow, sortCards, cardText, SUITS } from '../cards.js';

/**
 * The screen state: Tarneeb keeps none (every choice is a single click).
 * @typedef {Record<string, never>} TarneebUi
 */
/**
 * What the page adds to the view's table while it shows events.
 * @typedef {object} TarneebShown
 * @property {string} [arrived] The card just played, drawn arriving on the trick.
 * @property {Api<'TrickInfo'>} [shownTrick] The trick just won, kept in view until the next card.
 */
/** The page's picture of the table.
 * @typedef {import('./renderer.js').TableOf<'tarneeb'> & TarneebShown} TarneebTable */
/** @typedef {import('./renderer.js').DrawContext<'tarneeb', TarneebUi, TarneebTable>} Context */

/** @type {Api<'Denomination'>[]} */
const DENOMINATIONS = ['C', 'D', 'H', 'S', 'NT'];

/** @param {Api<'Denomination'>} suit */
function suitName(suit) {
  return suit === 'NT' ? t('no_trump') : `${SUITS[suit]} ${t(`suit_${suit}`)}`;
}

/** @param {Api<'Denomination'>} suit */
function suitMark(suit) {
  return suit === 'NT' ? t('nt_short') : SUITS[suit];
}

/** @param {Api<'Bid'>} bid */
function bidText(bid) {
  return bid.suit ? `${num(bid.tricks)} ${suitMark(bid.suit)}` : num(bid.tricks);
}

/** @param {Api<'CallRecord'>} record */
function callText(record) {
  return record.call === 'pass' ? t('pass') : bidText(record);
}

/** Where a seat sits as seen from `me`: me, left, across, right.
 * @param {number} seat @param {number} me */
function placeOf(seat, me) {
  return ['me', 'left', 'across', 'right'][(seat - me + 4) % 4];
}

/**
 * @type {import('./renderer.js').Renderer<'tarneeb', TarneebUi, TarneebTable>
 *   & { auction: (ctx: Context) => HTMLOListElement }}
 */
export default {
  applyEvent(table, event, view) {
    switch (event.type) {
      case 'dealt':
        if (event.seat === view.your_seat) table.hand = event.cards;
        table.hand_sizes = [13, 13, 13, 13];
        table.auction = [];
        table.trick = [];
        table.contract = null;
        table.trump = null;
        table.tricks_won = [0, 0];
        table.phase = 'bidding';
        break;
      case 'called':
        table.auction = [...table.auction, event];
        break;
      case 'all_passed':
        table.auction = [];
        break;
      case 'contracted':
        table.contract = event.contract;
        if (event.contract.bid.suit && event.contract.bid.suit !== 'NT') table.trump = event.contract.bid.suit;
        break;
      case 'trump_named':
        table.trump = event.suit;
        break;
      case 'played':
        if (event.seat === view.your_seat) table.hand = table.hand.filter((c) => c !== event.card);
        table.hand_sizes[event.seat] = Math.max(0, table.hand_sizes[event.seat] - 1);
        table.trick = [...(table.trick || []), { seat: event.seat, card: event.card }];
        table.arrived = event.card;
        table.phase = 'play';
        break;
      case 'trick_won':
        table.last_trick = { cards: event.cards, winner: event.winner };
        table.tricks_won[event.winner % 2] += 1;
        table.trick = [];
        table.shownTrick = { cards: event.cards, winner: event.winner };
        break;
      default:
    }
  },

  describe(event, { who, cards, say }) {
    switch (event.type) {
      case 'dealt':
        return t('tarneeb_dealt', { cards: cards(event.cards) });
      case 'called':
        return event.call === 'pass'
          ? say('tarneeb_passed', event.seat)
          : say('tarneeb_bid', event.seat, { bid: bidText(event) });
      case 'all_passed':
        return t('tarneeb_all_passed');
      case 'contracted':
        return say('tarneeb_contract', event.contract.declarer, { bid: bidText(event.contract.bid) });
      case 'trump_named':
        return say('tarneeb_trump', event.seat, { suit: suitName(event.suit) });
      case 'played':
        return say('tarneeb_played', event.seat, { card: cards([event.card]) });
      case 'trick_won':
        return say('tarneeb_trick', event.winner);
      default:
        return null;
    }
  },

  // (The table draws the seats, the middle, the hand and the score note only once dealt:
  // `ctx.table` is there.)
  seat(ctx, seat) {
    const table = /** @type {TarneebTable} */ (ctx.table);
    const calls = table.auction.filter((c) => c.seat === seat);
    const last = calls[calls.length - 1];
    return h('div', { class: 'seat-info' },
      backs(table.hand_sizes[seat], { max: 5 }),
      h('span', { class: 'team' }, t('team_n', { n: (seat % 2) + 1 })),
      table.phase === 'bidding' && last ? h('span', { class: 'call' }, callText(last)) : null,
      table.contract && table.phase !== 'bidding' && table.contract.declarer === seat ? h('span', { class: 'tag' }, t('declarer')) : null);
  },

  mySeat(ctx, seat) {
    const table = /** @type {TarneebTable} */ (ctx.table);
    return h('div', { class: 'seat-info' },
      h('span', { class: 'team' }, t('team_n', { n: (seat % 2) + 1 })),
      table.contract && table.phase !== 'bidding' && table.contract.declarer === seat ? h('span', { class: 'tag' }, t('declarer')) : null);
  },

  center(ctx) {
    const table = /** @type {TarneebTable} */ (ctx.table);
    const me = ctx.me ?? 0;
    const contract = table.contract
      ? h('div', { class: 'contract' },
        h('strong', {}, table.phase === 'bidding' ? t('highest_bid') : t('contract')), ' ',
        `${bidText(table.contract.bid)} · ${ctx.seatName(table.contract.declarer)}`,
        table.phase !== 'bidding'
          ? h('span', { class: 'trump' }, ' · ', t('trump'), ': ', table.trump ? suitName(table.trump) : (table.contract.bid.suit === 'NT' ? t('no_trump') : '…'))
          : null)
      : null;
    const tricks = h('div', { class: 'tricks' },
      [0, 1].map((team) => h('span', { 'data-team': String(team) }, tn('team_tricks', table.tricks_won[team], { team: team + 1 }))));
    // The trick in play; when it has just been won, that trick stays in view until the next card.
    const showing = table.trick.length ? { cards: table.trick, winner: null } : table.shownTrick || (table.phase === 'play' ? table.last_trick : null);
    const trick = h('div', { class: 'trick', 'aria-label': t('trick') });
    if (showing) {
      for (const played of showing.cards) {
        const place = placeOf(played.seat, me);
        const winner = showing.winner === played.seat;
        trick.append(h('div', { class: `played place-${place}${winner ? ' winner' : ''}` },
          cardEl(played.card, {
            label: `${ctx.seatName(played.seat)}: ${cardText(played.card)}`,
            marks: [table.arrived === played.card ? 'arrive' : ''],
          }),
          winner ? h('span', { class: 'won-mark' }, t('won_trick')) : null));
      }
    }
    const box = h('div', { class: 'tarneeb-center' }, contract, table.phase === 'bidding' ? null : tricks, trick);
    if (table.phase === 'bidding' || !table.contract) box.append(this.auction(ctx));
    return box;
  },

  // (`center` calls it: dealt.)
  auction(ctx) {
    const table = /** @type {TarneebTable} */ (ctx.table);
    const list = h('ol', { class: 'auction', 'aria-label': t('auction'), tabindex: '0' });
    for (const record of table.auction) list.append(h('li', {}, `${ctx.seatName(record.seat)}: ${callText(record)}`));
    if (!table.auction.length) list.append(h('li', { class: 'empty' }, t('no_bid_yet')));
    return list;
  },

  hand(ctx) {
    const table = /** @type {TarneebTable} */ (ctx.table);
    const plays = ctx.legal.filter((m) => m.type === 'play');
    /** @param {string[]} cards */
    const trumpFirst = (cards) => sortCards(cards, true);
    return handRow(trumpFirst(table.hand).map((card) => {
      const mv = plays.find((m) => m.card === card);
      if (!mv) return cardEl(card, { marks: ['inert', table.trump === card[1] ? 'trump' : ''] });
      const node = cardEl(card, { onPlay: () => ctx.act(mv), marks: ['legal', table.trump === card[1] ? 'trump' : ''] });
      node.dataset.focus = `hand-${card}`;
      return node;
    }), t('your_hand'));
  },

  actions(ctx) {
    const legal = ctx.legal;
    const bids = legal.filter((m) => m.type === 'bid');
    const pass = legal.find((m) => m.type === 'pass');
    const trumps = legal.filter((m) => m.type === 'trump');
    const box = h('div', { class: 'bidding' });
    if (bids.length) {
      const grid = h('div', { class: 'bid-grid', role: 'group', 'aria-label': t('your_bid') });
      const levels = [...new Set(bids.map((b) => b.tricks))];
      const denominated = bids.some((b) => b.suit);
      for (const level of levels) {
        if (!denominated) {
          const mv = bids.find((b) => b.tricks === level);
          // (`level` is a bid's own: there is one.)
          grid.append(bidButton(ctx, /** @type {Api<'TarneebMoveBid'>} */ (mv), num(level), t('bid_n', { n: level })));
          continue;
        }
        const row = h('div', { class: 'bid-row' }, h('span', { class: 'level' }, num(level)));
        for (const suit of DENOMINATIONS) {
          const mv = bids.find((b) => b.tricks === level && b.suit === suit);
          // (The label says what the button shows first: "NT", then what it means.)
          const spoken = suit === 'NT' ? `${t('nt_short')} (${t('no_trump')})` : suitName(suit);
          row.append(mv ? bidButton(ctx, mv, suitMark(suit), t('bid_n_suit', { n: level, suit: spoken })) : h('span', { class: 'bid-gap' }));
        }
        grid.append(row);
      }
      box.append(grid);
    }
    if (pass) {
      const button = h('button', { type: 'button', class: 'button legal', 'data-action': 'pass', 'data-focus': 'pass' }, t('pass'));
      button.addEventListener('click', () => ctx.act(pass));
      box.append(button);
    }
    if (trumps.length) {
      box.append(h('p', {}, t('name_trump')));
      for (const mv of trumps) {
        const button = h('button', { type: 'button', class: `button legal suit-${mv.suit}`, 'data-action': `trump-${mv.suit}`, 'data-focus': `trump-${mv.suit}` }, suitName(mv.suit));
        button.addEventListener('click', () => ctx.act(mv));
        box.append(button);
      }
    }
    return box;
  },

  prompt(ctx) {
    const legal = ctx.legal;
    if (legal.some((m) => m.type === 'bid' || m.type === 'pass')) return t('tarneeb_prompt_bid');
    if (legal.some((m) => m.type === 'trump')) return t('name_trump');
    return t('tarneeb_prompt_play');
  },

  scoreNote(ctx) {
    const target = /** @type {TarneebTable} */ (ctx.table).config.target;
    return target ? t('target_is', { n: target }) : null;
  },
};

/** @param {Context} ctx @param {Api<'TarneebMoveBid'>} mv @param {string} text @param {string} label */
function bidButton(ctx, mv, text, label) {
  const button = h('button', {
    type: 'button', class: 'button bid legal', 'aria-label': label,
    'data-action': `bid-${mv.tricks}${mv.suit ? `-${mv.suit}` : ''}`, 'data-focus': `bid-${mv.tricks}-${mv.suit || ''}`,
  }, text);
  button.addEventListener('click', () => ctx.act(mv));
  return button;
}
