// The table's drawing: small functions, each one part of the table as the controller
// (table.js) holds it — the head, a seat, the middle while players are awaited, the status line
// and what it offers (deal, rematch, export), the score sheet, the log and the chat beside it.
// They read the table and call back into it for what a button does; the game's own parts (the
// cards, the moves) come from its renderer (web/games/).

import { t, tn, num, signedNum } from './i18n.js';
import { cardsText } from './cards.js';
import { h, toast } from './ui.js';
import { playerLink } from './players.js';
import { analysisPanel } from './analysis.js';
import { narrate } from './narrate.js';
import { levelName, timerText, sidesOf, relation } from './names.js';
import { tournamentNextBox } from './tournaments.js';

/** @typedef {import('./table.js').Table} Table */
/** @typedef {import('./table.js').View} View */
/** @typedef {import('./table.js').Context} Context */
/** @typedef {import('./table.js').EventEntry} EventEntry */

/**
 * The whole table as it stands: the head, the felt (the others' seats, the middle, one's own
 * seat with the hand and the moves), the status line, the analysis of a finished game, and the
 * sidebar.
 * @param {Table} table @param {Context} ctx
 */
export function tableNode(table, ctx) {
  const view = table.game;
  const r = table.renderer;
  const root = h('div', {
    class: `table kind-${view.kind} seats-${view.seats.length}`,
    'data-status': view.status,
    'data-version': String(table.shown),
  });

  root.append(header(table));
  const felt = h('section', { class: 'felt', 'aria-label': t('the_table') });
  // Until every seat is taken there are no cards: the table shows who is there and who is
  // awaited (the game's own drawing starts with the first deal).
  const dealt = Boolean(table.table);
  const others = h('div', { class: 'others' });
  const n = view.seats.length;
  const me = view.your_seat ?? 0;
  for (let step = 1; step < n; step++) {
    const seat = (me + step) % n;
    const place = n === 4 ? ['left', 'across', 'right'][step - 1] : 'across';
    others.append(seatPanel(table, ctx, seat, place));
  }
  felt.append(others);
  felt.append(h('div', { class: 'center' }, dealt ? r.center(ctx) : waitingCenter(table)));
  const mine = h('div', { class: 'mine' });
  if (table.watching()) {
    // A spectator: the first seat sits at the bottom like any other, hand face down.
    mine.append(seatPanel(table, ctx, me, 'below'));
    mine.append(h('p', { class: 'note watching' }, t('watching_note')));
  } else {
    mine.append(seatPanel(table, ctx, me, 'me'));
    if (dealt) {
      mine.append(h('div', { class: 'hand-area' }, r.hand(ctx)));
      const actions = r.actions ? r.actions(ctx) : null;
      mine.append(h('div', { class: 'actions', role: 'group', 'aria-label': t('actions') }, actions));
    }
  }
  felt.append(mine);
  root.append(felt);
  root.append(statusLine(table, ctx));
  if (view.status === 'finished') {
    // Made once a table: it polls while the analysis is made, and keeps what it loaded.
    table.analysis ??= analysisPanel(table.id, (/** @type {number} */ s) => table.seatName(s), view.your_seat);
    root.append(table.analysis);
  }
  root.append(sidebar(table, ctx));
  return root;
}

/** @param {Table} table */
function header(table) {
  const view = table.game;
  const title = `${t(`kind_${view.kind}`)} · ${t(`variant_${view.kind}_${view.variant}`)}`;
  const bar = h('div', { class: 'table-head' },
    h('h1', {}, title),
    view.tournament
      ? h('a', { href: `#/tournament/${view.tournament.id}`, class: 'tag tournament-link', 'data-tournament': String(view.tournament.id) },
        view.tournament.name
          ? t('tournament_round', { name: view.tournament.name, n: view.tournament.round })
          : t('a_tournament_round', { n: view.tournament.round }))
      : null,
    view.practice ? h('span', { class: 'tag' }, t('practice')) : null,
    table.watching() ? h('span', { class: 'tag watching' }, t('watching')) : null,
    view.spectators > 0
      ? h('span', { class: 'tag spectators', 'data-spectators': String(view.spectators) }, tn('n_watching', view.spectators))
      : null,
    view.turn ? h('span', { class: 'tag timer' }, t('per_move', { time: timerText(view.turn.seconds) })) : null,
    h('span', { class: 'tag status', 'data-status': view.status }, t(`status_${view.status}`)),
    h('a', { href: `#/help/${view.kind}/${view.variant}`, class: 'button ghost' }, t('rules_here')),
    h('a', { href: '#/', class: 'button ghost' }, t('lobby')),
  );
  if (view.invite_code && view.status === 'waiting' && !table.watching()) bar.append(invites(table));
  return bar;
}

/** The invite links of a table waiting for players: one for each open seat, named by what it
 * makes the friend to you (your partner, an opponent), so each friend sits where you meant.
 * @param {Table} table */
function invites(table) {
  const view = table.game;
  const sides = sidesOf(view.kind, view.seats.length, view.options || {});
  const open = view.seats.filter((s) => s.open).map((s) => s.seat);
  const links = open.map((seat) => {
    const link = `${location.origin}/#/join/${view.id}/${view.invite_code}/${seat}`;
    const label = t(`invite_seat_${relation(sides, view.your_seat, seat)}`, { n: seat + 1 });
    const input = h('input', { value: link, readonly: '', class: 'invite-link', 'aria-label': label, 'data-seat': String(seat) });
    const copy = h('button', { type: 'button', class: 'button', 'data-copy': String(seat) }, t('copy'));
    copy.addEventListener('click', async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
        toast(t('copied'));
      } catch {
        document.execCommand('copy');
      }
    });
    return h('li', {}, h('span', {}, label), input, copy);
  });
  return h('div', { class: 'invite' }, h('p', {}, t('invite_friend')), h('ul', { class: 'invite-links' }, links));
}

/** @param {Table} table @param {Context} ctx @param {number} seat @param {string} place */
function seatPanel(table, ctx, seat, place) {
  const view = table.game;
  const info = view.seats[seat];
  const turn = view.status === 'active' && (table.thinking === seat || (table.thinking === null && view.to_act === seat));
  const panel = h('div', {
    class: `seat place-${place}${turn ? ' turn' : ''}${info && info.open ? ' open' : ''}`,
    'data-seat': String(seat),
  });
  const person = info && info.name && seat !== view.your_seat && !info.open;
  const here = info && info.connected !== undefined
    ? h('span', {
      class: `presence ${info.connected ? 'on' : 'off'}`, role: 'img',
      'aria-label': t(info.connected ? 'connected' : 'not_connected'), title: t(info.connected ? 'connected' : 'not_connected'),
    })
    : null;
  const name = h('div', { class: 'seat-name' },
    turn ? h('span', { class: 'turn-arrow', 'aria-label': t('to_play') }, '▶') : null,
    here,
    // (`person`: the seat has a name.)
    person ? playerLink(/** @type {string} */ (info.name)) : h('span', {}, table.seatName(seat)),
    info && info.bot_account ? h('span', { class: 'tag bot-account', title: t('bot_note') }, t('bot_tag')) : null,
    info && info.away ? h('span', { class: 'tag away', title: t('away_note') }, t('away')) : null,
  );
  panel.append(name);
  if (table.thinking === seat) panel.append(h('div', { class: 'thinking' }, t('thinking')));
  else if (turn && seat !== view.your_seat) panel.append(h('div', { class: 'thinking' }, t('to_play')));
  if (!ctx.table) {
    if (info && info.open) panel.append(h('div', { class: 'seat-info awaited' }, t('seat_awaited')));
    return panel;
  }
  const extra = place === 'me'
    ? table.renderer.mySeat && table.renderer.mySeat(ctx, seat)
    : table.renderer.seat && table.renderer.seat(ctx, seat);
  if (extra) panel.append(extra);
  return panel;
}

/** The middle of a table still waiting for players: each seat, and who is still awaited.
 * @param {Table} table */
function waitingCenter(table) {
  const view = table.game;
  const open = view.seats.filter((s) => s.open).length;
  const list = h('ul', { class: 'waiting-seats' }, view.seats.map((info, seat) => h('li', { 'data-seat': String(seat), class: info.open ? 'open' : 'taken' },
    h('span', { class: 'seat-label' }, t('seat_n', { n: seat + 1 })), ' ',
    h('bdi', {}, table.seatName(seat)))));
  return h('div', { class: 'waiting-center' },
    h('p', { class: 'waiting-count' }, t('seats_open_n', { n: open })), list);
}

/** @param {Table} table @param {Context} ctx */
function statusLine(table, ctx) {
  const view = table.game;
  const box = h('div', { class: 'status-line', role: 'status' });
  // (A spectator has no seat: `mine` is then undefined.)
  const mine = view.seats[/** @type {number} */ (view.your_seat)];
  if (mine && mine.away && (view.status === 'active' || view.status === 'hand_over')) {
    const back = h('button', { type: 'button', class: 'button primary', 'data-action': 'reclaim' }, t('reclaim'));
    back.addEventListener('click', () => table.reclaim());
    // (An away seat's person has the computer player `bot` playing for them.)
    box.append(h('div', { class: 'away-banner' },
      h('p', {}, t('you_are_away', { level: levelName(/** @type {string} */ (mine.bot)) })), back));
  }
  if (view.deadline && (view.status === 'active' || view.status === 'hand_over')) {
    box.append(h('span', { class: 'countdown', 'data-deadline': view.deadline, 'aria-live': 'off' }));
    queueMicrotask(() => table.tick());
  }
  if (view.status === 'waiting') {
    box.append(h('p', {}, t('waiting_for_players')));
  } else if (view.status === 'active') {
    const mineToPlay = !table.watching() && view.to_act === view.your_seat;
    const yours = mineToPlay && !table.busy && !table.animating && table.thinking === null;
    const prompt = yours && table.renderer.prompt ? table.renderer.prompt(ctx) : null;
    let text;
    if (yours) text = prompt || t('your_turn');
    else if (mineToPlay && table.busy) text = t(table.retrying ? 'move_retrying' : 'sending_move');
    else if (table.thinking !== null || !mineToPlay) text = t('waiting_for', {
      // (An active game has a seat to act.)
      who: table.seatName(/** @type {number} */ (table.thinking ?? view.to_act)),
    });
    else text = t('showing_moves');
    box.append(h('p', { class: yours ? 'your-turn' : '', 'data-turn': mineToPlay ? 'mine' : 'other' }, text));
  } else if (view.status === 'hand_over' && table.watching()) {
    box.append(handSummary(table));
  } else if (view.status === 'hand_over') {
    box.append(handSummary(table));
    const button = h('button', { type: 'button', class: 'button primary', 'data-action': 'deal', 'data-focus': 'deal' }, t('deal_next'));
    button.addEventListener('click', () => table.dealNext());
    box.append(button);
  } else if (view.status === 'finished' || view.status === 'abandoned') {
    box.append(handSummary(table));
    box.append(h('p', { class: 'outcome', 'data-outcome': 'over' }, outcomeText(table, view.outcome) || t('status_abandoned')));
    if (table.watching()) {
      if (view.rematch && view.rematch.game_id) {
        box.append(h('a', { href: `#/game/${view.rematch.game_id}`, class: 'button primary', 'data-action': 'watch-rematch' }, t('watch_rematch')));
      }
      box.append(h('a', { href: '#/', class: 'button' }, t('lobby')));
      return box;
    }
    if (view.tournament) {
      // A tournament's table leads on to the tournament: what comes next (the next round,
      // its winner), not a rematch or a new game. Made once, it follows the tournament.
      table.nextBox ??= tournamentNextBox(view.tournament);
      box.append(table.nextBox);
    } else {
      if (view.rematch) box.append(rematchControls(table, view.rematch), h('p', { class: 'note rematch-note' }, t('rematch_note')));
      const again = h('button', { type: 'button', class: 'button', 'data-action': 'again' }, t('play_again'));
      again.addEventListener('click', () => {
        location.hash = `#/new/${view.kind}/${view.variant}`;
      });
      box.append(again);
    }
    box.append(h('a', { href: '#/', class: 'button' }, t('lobby')));
    if (view.status === 'finished') {
      for (const format of /** @type {const} */ (['json', 'text'])) {
        const button = h('button', { type: 'button', class: 'button ghost', 'data-action': `export-${format}` }, t(`export_${format}`));
        button.addEventListener('click', () => table.download(format));
        box.append(button);
      }
    }
  }
  return box;
}

/** A finished game's rematch: offer it, accept or decline it, or go to it.
 * @param {Table} table
 * @param {Api<'RematchState'>} rematch */
function rematchControls(table, rematch) {
  const box = h('div', { class: 'rematch', 'data-rematch': rematch.game_id ? 'started' : rematch.accepted.length ? 'offered' : 'none' });
  /** @param {number[]} seats */
  const names = (seats) => seats.map((s) => table.seatName(s)).join(t('list_comma'));
  /** @param {string} key @param {string} action @param {boolean} accept @param {boolean} primary */
  const button = (key, action, accept, primary) => {
    const node = h('button', { type: 'button', class: `button${primary ? ' primary' : ''}`, 'data-action': action }, t(key));
    node.addEventListener('click', () => table.rematch(accept));
    return node;
  };
  // (Only a player at the table is offered a rematch: a spectator is not.)
  const mine = /** @type {number} */ (table.game.your_seat);
  if (rematch.game_id) {
    box.append(h('a', { href: `#/game/${rematch.game_id}`, class: 'button primary', 'data-action': 'go-rematch' }, t('go_rematch')));
  } else if (rematch.accepted.includes(mine)) {
    box.append(h('p', {}, t('rematch_waiting', { names: names(rematch.waiting_for) })),
      button('rematch_withdraw', 'rematch-decline', false, false));
  } else if (rematch.accepted.length) {
    box.append(h('p', {}, t('rematch_wanted', { names: names(rematch.accepted) })),
      button('rematch_accept', 'rematch', true, true), button('rematch_decline', 'rematch-decline', false, false));
  } else {
    if (rematch.declined_by !== null && rematch.declined_by !== undefined) {
      box.append(h('p', { class: 'note' }, t('rematch_declined', { who: table.seatName(rematch.declined_by) })));
    }
    box.append(button('rematch_offer', 'rematch', true, true));
  }
  return box;
}

/** The last hand's scoring items, from the score sheet.
 * @param {Table} table */
function handSummary(table) {
  const hands = table.sheet ? table.sheet.hands : [];
  const last = hands[hands.length - 1];
  if (!last) return h('span');
  const box = h('div', { class: 'hand-summary' }, h('h2', {}, t('hand_result', { n: last.hand })));
  const list = h('ul');
  for (const line of last.lines) list.append(h('li', {}, `${table.sideName(line.side)}: ${scoreItemText(line, table)} (${signed(line.points)})`));
  box.append(list);
  return box;
}

/** @param {Table} table @param {Context} ctx */
function sidebar(table, ctx) {
  const side = h('aside', { class: 'sidebar' });
  side.append(scores(table, ctx));
  const sheetButton = h('details', { class: 'sheet' }, h('summary', {}, t('score_sheet')), sheetTable(table));
  side.append(sheetButton);
  // (Scrollable, so reachable from the keyboard.)
  const log = h('ol', { class: 'log', 'aria-label': t('what_happened'), tabindex: '0' });
  const lines = [];
  for (let i = table.log.length - 1; i >= 0 && lines.length < 40; i--) {
    const text = describe(table, table.log[i].event);
    if (text) lines.unshift(h('li', { 'data-type': table.log[i].type }, text));
  }
  log.append(...lines);
  side.append(h('h2', {}, t('what_happened')), log);
  queueMicrotask(() => {
    log.scrollTop = log.scrollHeight;
  });
  side.append(table.chat.node);
  const playing = ['active', 'hand_over', 'waiting'].includes(table.game.status);
  if (playing && !table.watching()) {
    side.append(resignControl(table));
  }
  return side;
}

/** @param {Table} table @param {Context} ctx */
function scores(table, ctx) {
  const box = h('div', { class: 'scores' }, h('h2', {}, t('scores')));
  const totals = table.sheet ? table.sheet.totals : [];
  const list = h('dl');
  (table.sides || []).forEach((seats, side) => {
    list.append(h('dt', {}, table.sideName(side)), h('dd', { 'data-side': String(side), 'data-value': String(totals[side] ?? 0) }, num(totals[side] ?? 0)));
  });
  box.append(list);
  const outcome = table.game.outcome;
  if (outcome && outcome.reason === 'resignation') {
    box.append(h('p', { class: 'note' }, t('ended_by_resignation', { who: table.seatName(outcome.seat) })));
  } else if (table.renderer.scoreNote && table.table) {
    const note = table.renderer.scoreNote(ctx);
    if (note) box.append(h('p', { class: 'note' }, note));
  }
  return box;
}

/** @param {Table} table */
function sheetTable(table) {
  if (!table.sheet || !table.sheet.hands.length) return h('p', {}, t('no_hands_yet'));
  const sides = /** @type {number[][]} */ (table.sides || []);
  const grid = h('table', { class: 'sheet-table' });
  grid.append(h('thead', {}, h('tr', {}, h('th', {}, t('hand')), ...sides.map((_, s) => h('th', {}, table.sideName(s))))));
  const body = h('tbody');
  for (const hand of table.sheet.hands) {
    const cells = sides.map((_, s) => {
      const items = hand.lines.filter((l) => l.side === s).map((l) => `${scoreItemText(l, table)} ${signed(l.points)}`);
      return h('td', {}, h('div', { class: 'items' }, items.join(t('list_semicolon'))), h('strong', {}, num(hand.totals[s])));
    });
    body.append(h('tr', {}, h('th', {}, num(hand.hand)), ...cells));
  }
  grid.append(body);
  return grid;
}

/** @param {Table} table */
function resignControl(table) {
  const box = h('div', { class: 'resign' });
  if (table.ui.confirmResign) {
    const yes = h('button', { type: 'button', class: 'button danger', 'data-action': 'resign-yes' }, t('resign_yes'));
    const no = h('button', { type: 'button', class: 'button' }, t('resign_no'));
    yes.addEventListener('click', () => table.resign());
    no.addEventListener('click', () => {
      table.ui.confirmResign = false;
      table.render();
    });
    box.append(h('p', {}, t(table.game.status === 'waiting' ? 'leave_really' : 'resign_really')),
      yes, no);
  } else {
    const waiting = table.game.status === 'waiting';
    const button = h('button', { type: 'button', class: 'button ghost', 'data-action': 'resign' }, t(waiting ? 'leave_table' : 'resign'));
    button.addEventListener('click', () => {
      table.ui.confirmResign = true;
      table.render();
    });
    box.append(button);
  }
  return box;
}

/** @param {number} points */
function signed(points) {
  return signedNum(points);
}

/** A score sheet's item in words; `table` names the seats.
 * @param {Api<'ScoreLine'>} line @param {Pick<Table, 'seatName'>} table */
export function scoreItemText(line, table) {
  switch (line.item) {
    case 'basra':
      return t('item_basra', { card: cardsText([line.card]) });
    case 'majority':
      return t('item_majority', { n: line.cards });
    case 'card_points':
      return t('item_card_points', { cards: cardsText(line.cards) });
    case 'life_lost':
      return t(`item_life_lost_${line.cause}`);
    case 'cards_left':
      return t('item_cards_left', { who: table.seatName(line.seat), cards: cardsText(line.cards) });
    case 'rummy':
      return t('item_rummy');
    case 'contract':
      return t(line.made ? 'item_contract_made' : 'item_contract_set', {
        who: table.seatName(line.declarer), bid: line.bid, tricks: line.tricks,
      });
    default:
      // (An item of the server's that this page does not know yet: its name.)
      return /** @type {{ item: string }} */ (line).item;
  }
}

// ---- events as sentences ------------------------------------------------------------------

/** An event in a sentence, in the page's language.
 * @param {Table} table @param {EventEntry['event']} event */
function describe(table, event) {
  // Sentences name people by their names ("Layla plays 7♦"), and the reader as "You".
  return narrate(table.game.kind, event, {
    name: (seat) => {
      const info = table.game.seats[seat];
      return info && info.name ? info.name : table.seatName(seat);
    },
    me: table.game.your_seat,
    outcome: (outcome) => outcomeText(table, outcome),
    tournament: table.game.tournament,
  });
}

/** The end of the game in a sentence: who won, and how when it was not by play.
 * @param {Table} table @param {Api<'Outcome'> | null | undefined} outcome */
function outcomeText(table, outcome) {
  if (!outcome) return '';
  if (outcome.reason === 'move_cap') return t('outcome_move_cap');
  const me = table.game.your_seat;
  const seats = outcome.winners.flatMap((side) => (table.sides ? table.sides[side] || [] : [side]));
  let won;
  if (!outcome.winners.length) won = t('outcome_draw');
  else if (me !== null && me !== undefined && seats.includes(me)) {
    const others = seats.filter((s) => s !== me).map((s) => table.seatName(s));
    won = others.length ? t('outcome_you_won_with', { names: listText(others) }) : t('outcome_you_won');
  } else {
    won = t('outcome_won', { names: listText(seats.map((s) => table.seatName(s))) });
  }
  if (outcome.reason === 'resignation' && outcome.seat !== undefined && outcome.seat !== null) {
    const who = outcome.seat === me ? t('you_resigned') : t('someone_resigned', { who: table.seatName(outcome.seat) });
    return `${who} ${won}`;
  }
  return won;
}

/** "A, B and C" in the page's language.
 * @param {string[]} names */
function listText(names) {
  if (names.length <= 1) return names.join('');
  return t('list_and', { first: names.slice(0, -1).join(t('list_comma')), last: names[names.length - 1] });
}
