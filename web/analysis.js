// A finished game's analysis (GET /games/{id}/analysis): progress while it is made, then a
// summary per player and every decision with its mark, card by card. Shown under a finished
// table and in the admin replay.

import * as api from './api.js';
import { t } from './i18n.js';
import { cardEl, cardsText } from './cards.js';
import { h } from './ui.js';

/** The mark of each grade, as chess annotators write them (not colour alone). */
const MARKS = { good: '', inaccuracy: '?!', mistake: '?', blunder: '??' };

/** Text for a move: its card(s) where it names some, else its kind. */
export function moveText(mv) {
  if (!mv || typeof mv !== 'object') return '';
  const cards = [];
  if (typeof mv.card === 'string') cards.push(mv.card);
  if (Array.isArray(mv.cards)) cards.push(...mv.cards);
  if (typeof mv.drop === 'string') cards.push(mv.drop);
  const kind = t(`move_${mv.type}`);
  const named = kind === `move_${mv.type}` ? String(mv.type || '') : kind;
  let text = cards.length ? `${named} ${cardsText(cards)}` : named;
  if (Array.isArray(mv.capture) && mv.capture.length) text += ` → ${cardsText(mv.capture)}`;
  if (mv.tricks !== undefined) text += ` ${mv.tricks}${mv.suit ? ` ${mv.suit}` : ''}`;
  if (mv.type === 'trump' && mv.suit) text += ` ${mv.suit}`;
  if (mv.type === 'draw' && mv.from) text += ` (${t(`pile_${mv.from}`)})`;
  return text;
}

/** A value in the analysis's unit, for reading. */
function valueText(unit, value) {
  if (unit === 'tricks') return value === 1 ? t('analysis_one_trick') : t('analysis_tricks', { n: value });
  const rounded = Math.round(value * 10) / 10;
  return t('analysis_points', { n: rounded > 0 ? `+${rounded}` : String(rounded) });
}

/** The card a decision played, as a small picture with its mark, or its text. */
function playedNode(decision) {
  const mv = decision.played;
  const mark = MARKS[decision.grade] || '';
  if (mv && typeof mv.card === 'string') {
    const node = cardEl(mv.card, { small: true, marks: [`grade-${decision.grade}`] });
    if (mark) node.append(h('span', { class: 'badge grade-mark', 'aria-hidden': 'true' }, mark));
    return node;
  }
  return h('span', { class: `move-text grade-${decision.grade}` }, moveText(mv), mark ? ` ${mark}` : '');
}

/** One decision as a list item: who, what was played, its grade, and what was better. */
export function decisionItem(analysis, decision, seatName) {
  const item = h('li', {
    class: `decision grade-${decision.grade}`,
    'data-version': String(decision.version),
    'data-grade': decision.grade,
  },
  h('span', { class: 'who' }, t('analysis_hand_seat', { hand: decision.hand, who: seatName(decision.seat) })),
  ' ', playedNode(decision), ' ',
  h('span', { class: 'grade' }, t(`grade_${decision.grade}`)));
  if (decision.grade !== 'good') {
    // Cards alone when every better move is a card played (Tarneeb's), else each move.
    const cards = decision.best.every((m) => m && m.type === 'play' && typeof m.card === 'string' && !m.capture);
    const best = cards ? cardsText(decision.best.map((m) => m.card)) : decision.best.map(moveText).join(', ');
    item.append(' ', h('span', { class: 'better' }, t('analysis_better', {
      best,
      loss: valueText(analysis.unit, decision.loss).replace('+', ''),
    })));
  }
  item.append(' ', h('span', { class: 'after' }, t('analysis_after', {
    played: valueText(analysis.unit, decision.played_value),
    best: valueText(analysis.unit, decision.best_value),
  })));
  return item;
}

function summaryTable(analysis, seatName) {
  // (A region that scrolls on a narrow screen: reachable from the keyboard.)
  const label = t('analysis_players_label');
  return h('div', { class: 'analysis-scroll', tabindex: '0', role: 'region', 'aria-label': label }, h('table', { class: 'analysis-players' },
    h('thead', {}, h('tr', {},
      h('th', {}, t('analysis_player')), h('th', {}, t('analysis_accuracy')),
      h('th', {}, t('grade_inaccuracy')), h('th', {}, t('grade_mistake')), h('th', {}, t('grade_blunder')),
      h('th', {}, analysis.unit === 'tricks' ? t('analysis_tricks_lost') : t('analysis_points_lost')))),
    h('tbody', {}, analysis.players.map((p) => h('tr', { 'data-seat': String(p.seat) },
      h('td', {}, h('bdi', {}, seatName(p.seat))),
      h('td', { 'data-field': 'accuracy' }, `${p.accuracy}%`),
      h('td', {}, String(p.inaccuracies)), h('td', {}, String(p.mistakes)), h('td', {}, String(p.blunders)),
      h('td', {}, String(Math.round(p.loss * 10) / 10)))))));
}

/** Tarneeb: each hand's contract against its par, and what the declarers made. */
function handsList(analysis, seatName) {
  return h('ul', { class: 'analysis-hands' }, analysis.hands.map((hand) => {
    const contract = hand.contract
      ? t('analysis_contract', { who: seatName(hand.contract.declarer), bid: bidText(hand.contract.bid) })
      : '—';
    const par = hand.par
      ? t('analysis_par', { who: seatName(hand.par.declarer), bid: bidText(hand.par.bid), score: hand.par.score })
      : t('analysis_no_par');
    return h('li', { 'data-hand': String(hand.hand) },
      h('strong', {}, t('analysis_hand_n', { n: hand.hand })), ' ', contract, ' · ',
      t('analysis_made', { taken: hand.taken, makeable: hand.makeable }),
      hand.cards < 52 ? ` (${t('analysis_cut_short', { n: hand.cards })})` : '', ' · ', par);
  }));
}

function bidText(bid) {
  return bid.suit ? `${bid.tricks} ${bid.suit}` : String(bid.tricks);
}

/**
 * A panel that loads game `id`'s analysis and shows it, polling while it is made. `seatName`
 * names a seat. The panel stops polling once it leaves the page.
 */
export function analysisPanel(id, seatName) {
  const body = h('div', { class: 'analysis-body', 'aria-live': 'polite' }, t('analysis_loading'));
  const panel = h('section', { class: 'panel analysis', 'data-analysis': 'loading' },
    h('h2', {}, t('analysis_title')), body);
  let everything = false;
  const show = (answer) => {
    panel.dataset.analysis = answer.status;
    if (answer.status !== 'done') {
      const text = answer.status === 'failed' ? t('analysis_failed')
        : answer.status === 'running' ? t('analysis_running', { done: answer.done, total: answer.total })
          : t('analysis_queued');
      const bar = h('progress', { max: String(Math.max(1, answer.total)), value: String(answer.done), 'aria-label': t('analysis_title') });
      body.replaceChildren(h('p', {}, text), answer.status === 'failed' ? '' : bar);
      return;
    }
    const analysis = answer.analysis;
    const method = h('p', { class: 'note' }, t(`analysis_method_${analysis.method}`));
    const list = h('ol', { class: 'decisions' });
    const toggle = h('button', { type: 'button', class: 'button ghost', 'data-action': 'all-decisions' });
    const draw = () => {
      const shown = analysis.decisions.filter((d) => everything || d.grade !== 'good');
      list.replaceChildren(...shown.map((d) => decisionItem(analysis, d, seatName)));
      if (!shown.length) list.append(h('li', { class: 'note' }, t('analysis_no_errors')));
      toggle.textContent = everything ? t('analysis_errors_only') : t('analysis_every_decision', { n: analysis.decisions.length });
    };
    toggle.addEventListener('click', () => {
      everything = !everything;
      draw();
    });
    draw();
    body.replaceChildren(method, summaryTable(analysis, seatName),
      analysis.hands.length ? handsList(analysis, seatName) : '', toggle, list);
  };
  const load = async () => {
    if (!panel.isConnected && panel.dataset.analysis !== 'loading') return;
    try {
      const answer = await api.request('GET', `/games/${id}/analysis`);
      show(answer);
      if (answer.status === 'queued' || answer.status === 'running') setTimeout(load, 1500);
    } catch (error) {
      panel.dataset.analysis = 'error';
      body.replaceChildren(h('p', {}, error.message || String(error)));
    }
  };
  load();
  return panel;
}

/** The analysis of game `id` by version: for the admin replay's step-by-step marks. */
export async function decisionsByVersion(id) {
  const answer = await api.request('GET', `/games/${id}/analysis`);
  if (answer.status !== 'done') return { answer, byVersion: new Map() };
  return { answer, byVersion: new Map(answer.analysis.decisions.map((d) => [d.version, d])) };
}
