// The admin's replay of one game (/admin#/replay/ID): every step of it with every hand shown,
// each told in words and numbered as the play page numbers seats, the moves the analysis
// marked at their steps, and the whole analysis beside it. (admin.js routes here.)

import * as api from './api.js';
import { h } from './ui.js';
import { cardEl, cardsText } from './cards.js';
import { analysisPanel, decisionItem, decisionsByVersion } from './analysis.js';
import { t } from './i18n.js';
import { narrate } from './narrate.js';

// (admin.html has #app.)
const app = () => /** @type {HTMLElement} */ (document.getElementById('app'));
/** @param {string} text */
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A replay step as the page reads it (the document leaves its table and events untyped): the
 * table is a spectator's view of the game (AnyView; null before the first deal), read field by
 * field; the events are the log entry's as stored, each with its audience (api/src/events.rs).
 * @typedef {Omit<Api<'ReplayStep'>, 'table' | 'events'> & {
 *   table: Record<string, unknown> | null, events: Api<'StoredEvent'>[] | null,
 * }} Step */

const PUBLIC_FIELDS = [
  ['floor', 'Floor'], ['trick', 'Trick'], ['last_trick', 'Last trick'], ['melds', 'Melds'],
  ['discard_top', 'Discard pile top'], ['turned', 'Turned over'], ['stock', 'Stock'],
  ['contract', 'Contract'], ['trump', 'Trump'], ['auction', 'Auction'], ['tricks_won', 'Tricks won'],
  ['knocker', 'Knocker'], ['players', 'Players'], ['sides', 'Sides'], ['totals', 'Totals'],
];

/** A public part of the table in words: seats named as the page names them (from 1). `value`
 * is the view's field `key`, of the type the game's view gives it (AnyView).
 * @param {string} key @param {unknown} value @param {(seat: number) => string} named */
function publicValue(key, value, named) {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value) && value.every((c) => typeof c === 'string' && c.length === 2)) return cardsText(value) || '—';
  if (typeof value === 'number' && ['knocker', 'declarer', 'dealer', 'to_act', 'leader'].includes(key)) return named(value);
  if (key === 'trick' || key === 'last_trick') {
    // (`trick` is the cards of the trick being played; `last_trick` the trick before, with its winner.)
    const cards = Array.isArray(value)
      ? /** @type {Api<'PlayedCard'>[]} */ (value) : /** @type {Api<'TrickInfo'>} */ (value).cards;
    return (cards || []).map((p) => `${named(p.seat)}: ${cardsText([p.card])}`).join(', ')
      + (/** @type {Partial<Api<'TrickInfo'>>} */ (value).winner !== undefined
        ? ` → ${named(/** @type {Api<'TrickInfo'>} */ (value).winner)} wins it` : '');
  }
  if (key === 'melds') return /** @type {Api<'Meld'>[]} */ (value).map((m) => cardsText(m.cards)).join(' | ') || '—';
  if (key === 'sides') return /** @type {Api<'SideView'>[]} */ (value)
    .map((s, i) => `side ${i + 1}: ${s.captured.length} cards, ${s.total} points${s.basras.length ? `, basras ${s.basras.map((b) => cardsText([b.card])).join(' ')}` : ''}`).join('; ');
  // (31's players count lives, Rummy's points.)
  if (key === 'players') return /** @type {{ seat: number, lives?: number, total?: number }[]} */ (value)
    .map((p) => `${named(p.seat)}: ${p.lives !== undefined ? `${p.lives} lives` : `${p.total} points`}`).join('; ');
  if (key === 'discard_top' || key === 'turned') return cardsText([/** @type {Api<'Card'>} */ (value)]);
  if (key === 'contract' && /** @type {Partial<Api<'Contract'>>} */ (value).declarer !== undefined) {
    const bid = /** @type {Api<'Contract'>} */ (value).bid || {};
    return `${bid.tricks ?? ''}${bid.suit ? ` ${bid.suit}` : ''} by ${named(/** @type {Api<'Contract'>} */ (value).declarer)}`;
  }
  if (key === 'auction' && Array.isArray(value)) {
    return /** @type {Api<'CallRecord'>[]} */ (value)
      .map((c) => `${named(c.seat)}: ${c.call === 'pass' ? 'pass' : `${c.tricks ?? ''}${c.suit ? ` ${c.suit}` : ''}`}`)
      .join(', ') || '—';
  }
  if (key === 'tricks_won' && Array.isArray(value)) return value.map((n, i) => `side ${i + 1}: ${n}`).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** To whom an event was shown, in words.
 * @param {Api<'Audience'>} to */
function audience(to) {
  if (to === 'everyone') return 'to everyone';
  if (to === 'nobody') return 'to nobody while the game ran';
  return `to seat ${to.seat + 1} only`;
}

/** Whether everyone saw the event.
 * @param {Api<'StoredEvent'>} e */
const forEveryone = (e) => e.to === 'everyone';

/** An event in words, as the table's log tells it; an event for one seat as that seat read
 * it.
 * @param {Api<'GameKind'>} kind @param {Api<'StoredEvent'>} e @param {Api<'SeatInfo'>[]} seats */
function eventText(kind, e, seats) {
  // (The seat of an audience that names one; `everyone` and `nobody` have none.)
  const me = typeof e.to === 'object' ? e.to.seat : null;
  /** @param {number} seat */
  const name = (seat) => seatName(seats, seat);
  const text = narrate(kind, e.event, { name, me, outcome: (ev) => outcomeWords(ev, seats) });
  return text ?? e.event.type.replace(/_/g, ' ');
}

/** A game's end in words (who won), for the replay.
 * @param {Api<'TableEventGameOver'>} event @param {Api<'SeatInfo'>[]} seats */
function outcomeWords(event, seats) {
  if (!event.winners || !event.winners.length) return event.reason === 'move_cap' ? 'The game hit its move limit: no winner.' : 'The game ended in a draw.';
  return `The game is over: side ${event.winners.map((s) => s + 1).join(' and ')} won${event.reason === 'resignation' ? ' (by resignation)' : ''}.`;
}

/** A step in words: what everyone saw happen (the seat's own move among it).
 * @param {Api<'GameKind'>} kind @param {Step} step @param {Api<'SeatInfo'>[]} seats */
function describeStep(kind, step, seats) {
  const said = (step.events || []).filter(forEveryone).map((e) => eventText(kind, e, seats)).filter(Boolean);
  if (said.length) return said.join(' ');
  const who = step.seat === null || step.seat === undefined ? '' : `${seatName(seats, step.seat)}: `;
  return `${who}${step.action.replace(/_/g, ' ')}`;
}

/** @param {Api<'SeatInfo'>[]} seats @param {number} seat */
function seatName(seats, seat) {
  const s = seats[seat];
  if (!s) return `seat ${seat + 1}`;
  return `seat ${seat + 1} (${s.name || (s.bot ? `computer, ${s.bot}` : 'open')})`;
}

/** @param {number} id */
export async function showReplay(id) {
  const replay = await api.call('GET', '/admin/games/{id}/replay', { path: { id } });
  const steps = /** @type {Step[]} */ (replay.steps);
  /** @param {number} seat */
  const named = (seat) => seatName(replay.seats, seat);
  // The analysis's judgement of each move, shown at its step (a game still played has none).
  const finished = steps.length > 0 && steps[steps.length - 1].status === 'finished';
  /** @type {{ answer?: Api<'AnalysisResponse'>, byVersion: Map<number, Api<'AnalysisDecision'>> }} */
  let judged = { byVersion: new Map() };
  if (finished) judged = await decisionsByVersion(id).catch(() => judged);
  let at = Math.max(0, steps.length - 1);
  const body = h('div');
  const slider = h('input', { type: 'range', min: '0', max: String(Math.max(0, steps.length - 1)), value: String(at), id: 'step', 'aria-label': 'Step' });
  const position = h('span', { id: 'step-label' });
  /** @param {string} label @param {string} testId @param {() => void} action */
  const button = (label, testId, action) => {
    const b = h('button', { type: 'button', class: 'button', 'data-action': testId }, label);
    b.addEventListener('click', action);
    return b;
  };
  const handStarts = steps.map((s, i) => (i === 0 || s.hand !== steps[i - 1].hand ? i : -1)).filter((i) => i >= 0);
  /** @param {number} i */
  const goto = (i) => {
    at = Math.max(0, Math.min(steps.length - 1, i));
    slider.value = String(at);
    draw();
  };
  slider.addEventListener('input', () => goto(Number(slider.value)));
  function draw() {
    const step = steps[at];
    position.textContent = `step ${at + 1} of ${steps.length} · hand ${step.hand} · ${t(`status_${step.status}`).toLowerCase()}`;
    // (The step's table is the game's view as the engine keeps it, or null before the deal.)
    const table = /** @type {Record<string, unknown>} */ (step.table || {});
    const toAct = table.to_act;
    const seats = h('div', { class: 'replay-seats' }, step.hands.map((cards, seat) =>
      h('section', { class: `replay-seat${toAct === seat ? ' to-act' : ''}`, 'data-seat': String(seat) },
        h('h3', {}, capital(seatName(replay.seats, seat)), toAct === seat ? ' ▶' : ''),
        h('div', { class: 'hand' }, cards.map((c) => cardEl(c, { small: true })), cards.length ? null : h('span', {}, 'no cards')))));
    const facts = h('dl');
    for (const [key, label] of PUBLIC_FIELDS) {
      if (table[key] === undefined) continue;
      facts.append(h('dt', {}, label), h('dd', { 'data-field': key }, publicValue(key, table[key], named)));
    }
    const events = (step.events || []).map((e) => h('li', { 'data-type': e.event.type },
      h('span', { class: 'audience' }, `${capital(audience(e.to))}: `), eventText(replay.kind, e, replay.seats)));
    const decision = judged.byVersion.get(step.seq);
    body.replaceChildren(
      h('p', { class: 'step-action', id: 'step-action' }, describeStep(replay.kind, step, replay.seats)),
      // (A decision found means the analysis was read, and is done: it has its body.)
      decision ? h('ul', { class: 'decisions step-decision' },
        decisionItem(/** @type {{ analysis: Api<'Analysis'> }} */ (judged.answer).analysis, decision, named)) : '',
      seats,
      h('section', { class: 'public' }, h('h3', {}, 'On the table'), facts),
      h('details', {}, h('summary', {}, `Events of this step (${events.length}), and to whom`), h('ul', { class: 'step-events' }, events)));
  }
  const deals = h('table', { class: 'deals' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Deal'), h('th', {}, 'Hand'), h('th', {}, 'Commitment sha256(seed)'), h('th', {}, 'Seed'))),
    h('tbody', {}, replay.deals.map((d) => h('tr', {},
      h('td', {}, String(d.deal)), h('td', {}, String(d.hand)),
      h('td', { class: 'mono' }, d.commitment), h('td', { class: 'mono' }, d.seed || 'not revealed yet')))));
  app().replaceChildren(h('div', { class: 'admin' },
    h('h1', {}, `Game #${replay.id}: ${t(`kind_${replay.kind}`)} · ${replay.variant}`),
    h('div', { class: 'panel replay-controls' },
      button('« First', 'first', () => goto(0)),
      button('◀ Hand', 'prev-hand', () => goto([...handStarts].reverse().find((i) => i < at) ?? 0)),
      button('◀ Step', 'prev', () => goto(at - 1)),
      slider,
      button('Step ▶', 'next', () => goto(at + 1)),
      button('Hand ▶', 'next-hand', () => goto(handStarts.find((i) => i > at) ?? steps.length - 1)),
      button('Last »', 'last', () => goto(steps.length - 1)),
      position),
    body,
    finished ? analysisPanel(id, named) : '',
    h('section', { class: 'panel' }, h('h2', {}, 'Deals: commitments and seeds'), deals),
    h('p', {}, h('a', { href: '#/history' }, '← History'))));
  draw();
}
