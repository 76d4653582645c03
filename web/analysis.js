// A finished game's analysis (GET /games/{id}/analysis): progress while it is made, then a
// summary per player and every decision with its mark, card by card. Shown under a finished
// table and in the admin replay.

import * as api from './api.js';
import { t, tn, num } from './i18n.js';
import { cardEl, cardsText } from './cards.js';
import { h } from './ui.js';
import { problemText } from './problems.js';

/** The mark of each grade, as chess annotators write them (not colour alone).
 * @type {Record<Api<'Grade'>, string>} */
const MARKS = { good: '', inaccuracy: '?!', mistake: '?', blunder: '??' };

/** Any game's move as the analysis reads it: each field some game's move has (the card played,
 * the cards melded, a bid...), absent where the move has none.
 * @typedef {{
 *   type: string, card?: Api<'Card'>, cards?: Api<'CardSet'>, drop?: Api<'Card'> | null,
 *   capture?: Api<'CardSet'> | null, tricks?: number, suit?: Api<'Denomination'> | null, from?: Api<'Pile'>,
 * }} MoveFields */

/** Text for a move: its card(s) where it names some, else its kind.
 * @param {MoveFields | null | undefined} mv */
export function moveText(mv) {
  if (!mv || typeof mv !== 'object') return '';
  /** @type {string[]} */
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

/** A value in the analysis's own unit (tricks, points, lives, tokens: whatever the analysis
 * says it counts in), for reading; `signed` writes a plus on a gain.
 * @param {Api<'AnalysisUnit'>} unit @param {number} value @param {{ signed?: boolean }} [options] */
function valueText(unit, value, { signed = true } = {}) {
  const rounded = Math.round(value * 10) / 10;
  const text = tn(`analysis_unit_${unit}`, Math.abs(rounded));
  if (!signed || rounded === 0) return text;
  return `${rounded > 0 ? '+' : '−'}${text}`;
}

/** The card a decision played, as a small picture with its mark, or its text.
 * @param {Api<'AnalysisDecision'>} decision */
function playedNode(decision) {
  /** @type {MoveFields} */
  const mv = decision.played;
  const mark = MARKS[decision.grade] || '';
  if (mv && typeof mv.card === 'string') {
    const node = cardEl(mv.card, { small: true, marks: [`grade-${decision.grade}`] });
    if (mark) node.append(h('span', { class: 'badge grade-mark', 'aria-hidden': 'true' }, mark));
    return node;
  }
  return h('span', { class: `move-text grade-${decision.grade}` }, moveText(mv), mark ? ` ${mark}` : '');
}

/** One decision as a list item: who, what was played, its grade, and what was better.
 * @param {Api<'Analysis'>} analysis @param {Api<'AnalysisDecision'>} decision
 * @param {(seat: number) => string} seatName */
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
    const cards = decision.best.every((/** @type {MoveFields} */ m) =>
      m && m.type === 'play' && typeof m.card === 'string' && !m.capture);
    // (Each a card, when `cards`: just checked.)
    const best = cards
      ? cardsText(decision.best.map((/** @type {MoveFields} */ m) => /** @type {string} */ (m.card)))
      : decision.best.map(moveText).join(t('list_comma'));
    item.append(' ', h('span', { class: 'better' }, t('analysis_better', {
      best,
      loss: valueText(analysis.unit, decision.loss, { signed: false }),
    })));
  }
  item.append(' ', h('span', { class: 'after' }, t('analysis_after', {
    played: valueText(analysis.unit, decision.played_value),
    best: valueText(analysis.unit, decision.best_value),
  })));
  if (decision.within_noise) {
    // A sampled estimate that could not tell the two moves apart: good, and said so.
    item.append(' ', h('span', { class: 'noise' }, t('analysis_within_noise', {
      samples: decision.samples,
    })));
  } else if (decision.samples > 0) {
    // How far a sampled value may be off: its larger standard error, to two decimals.
    const error = Math.round(Math.max(decision.best_error, decision.played_error) * 100) / 100;
    item.append(' ', h('span', { class: 'estimate' }, t('analysis_estimate', {
      samples: decision.samples,
      error: tn(`analysis_unit_${analysis.unit}`, error),
    })));
  }
  return item;
}

/** The players' summary: accuracy, errors of each grade and what they lost, a row a seat.
 * @param {Api<'Analysis'>} analysis @param {(seat: number) => string} seatName */
function summaryTable(analysis, seatName) {
  // (A region that scrolls on a narrow screen: reachable from the keyboard, and it says so.)
  const label = t('analysis_players_label');
  const lost = h('th', { scope: 'col' }, t(`analysis_lost_${analysis.unit}`) === `analysis_lost_${analysis.unit}` ? t('analysis_lost') : t(`analysis_lost_${analysis.unit}`));
  const region = h('div', { class: 'analysis-scroll', tabindex: '0', role: 'region', 'aria-label': label }, h('table', { class: 'analysis-players' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('analysis_player')), h('th', { scope: 'col' }, t('analysis_accuracy')),
      h('th', { scope: 'col' }, t('analysis_col_inaccuracies')), h('th', { scope: 'col' }, t('analysis_col_mistakes')),
      h('th', { scope: 'col' }, t('analysis_col_blunders')), lost)),
    h('tbody', {}, analysis.players.map((p) => h('tr', { 'data-seat': String(p.seat) },
      h('th', { scope: 'row' }, h('bdi', {}, seatName(p.seat))),
      h('td', { 'data-field': 'accuracy' }, num(p.accuracy / 100, { style: 'percent' })),
      h('td', {}, num(p.inaccuracies)), h('td', {}, num(p.mistakes)), h('td', {}, num(p.blunders)),
      h('td', {}, valueText(analysis.unit, p.loss, { signed: false })))))));
  const hint = h('p', { class: 'note scroll-hint', hidden: true }, t('scroll_sideways'));
  // Said only when the table does not fit (a phone): a sideways scroll nobody would find.
  const check = () => {
    if (!region.isConnected) return;
    hint.hidden = region.scrollWidth <= region.clientWidth + 1;
  };
  requestAnimationFrame(check);
  window.addEventListener('resize', check);
  return h('div', {}, region, hint);
}

/** Tarneeb: each hand's contract against its par, and what the declarers made — every figure
 * said in words.
 * @param {Api<'Analysis'>} analysis @param {(seat: number) => string} seatName */
function handsList(analysis, seatName) {
  const list = h('ul', { class: 'analysis-hands' }, analysis.hands.map((hand) => {
    const contract = hand.contract
      ? t('analysis_contract', { who: seatName(hand.contract.declarer), bid: bidText(hand.contract.bid) })
      : t('analysis_no_contract');
    const par = hand.par
      ? t('analysis_par', { who: seatName(hand.par.declarer), bid: bidText(hand.par.bid), score: hand.par.score })
      : t('analysis_no_par');
    const made = hand.contract
      ? t(hand.taken >= hand.makeable ? 'analysis_made_full' : 'analysis_made_short', {
        taken: tn('analysis_unit_tricks', hand.taken), makeable: tn('analysis_unit_tricks', hand.makeable),
      })
      : '';
    return h('li', { 'data-hand': String(hand.hand) },
      h('strong', {}, t('analysis_hand_n', { n: hand.hand })), ' ', contract, made ? ` ${made}` : '',
      hand.cards < 52 ? ` (${t('analysis_cut_short', { n: hand.cards })})` : '', ' ', par);
  }));
  return h('div', {}, list, h('p', { class: 'note' }, t('analysis_tarneeb_note')));
}

/**
 * The reader's own mistakes, one at a time: what they played and what was better, drawn as
 * cards, with what it cost; Previous and Next step from one to the next.
 * @param {Api<'Analysis'>} analysis @param {number} mine
 */
function mistakesWalk(analysis, mine) {
  const errors = analysis.decisions.filter((d) => d.seat === mine && (d.grade === 'mistake' || d.grade === 'blunder' || d.grade === 'inaccuracy'));
  if (!errors.length) return h('p', { class: 'note your-mistakes-none' }, t('analysis_you_no_errors'));
  let at = 0;
  const box = h('section', { class: 'mistakes-walk', 'aria-live': 'polite', 'aria-labelledby': 'walk-title' });
  /** @param {MoveFields[]} moves */
  const moveCards = (moves) => {
    // (Only the moves that name a card are kept: each has one.)
    const cards = moves.filter((m) => m && typeof m.card === 'string').map((m) => /** @type {string} */ (m.card));
    return cards.length === moves.length && cards.length
      ? h('span', { class: 'walk-cards' }, cards.map((c) => cardEl(c, { small: false })))
      : h('span', { class: 'move-text' }, moves.map(moveText).join(t('list_comma')));
  };
  const draw = () => {
    const d = errors[at];
    const prev = h('button', { type: 'button', class: 'button', 'data-action': 'walk-previous', disabled: at === 0 }, t('previous'));
    const next = h('button', { type: 'button', class: 'button primary', 'data-action': 'walk-next', disabled: at === errors.length - 1 }, t('next'));
    prev.addEventListener('click', () => { at -= 1; draw(); });
    next.addEventListener('click', () => { at += 1; draw(); });
    box.dataset.version = String(d.version);
    box.replaceChildren(
      h('h3', { id: 'walk-title' }, t('analysis_walk_n', { n: at + 1, of: errors.length }), ' · ', t('analysis_hand_n', { n: d.hand }), ' · ',
        h('span', { class: `grade grade-${d.grade}` }, `${t(`grade_${d.grade}`)} ${MARKS[d.grade]}`)),
      h('div', { class: 'walk-moves' },
        h('figure', { class: 'walk-played' }, h('figcaption', {}, t('analysis_you_played')), moveCards([d.played])),
        h('figure', { class: 'walk-best' }, h('figcaption', {}, t('analysis_better_was')), moveCards(d.best))),
      h('p', {}, t('analysis_walk_cost', { loss: valueText(analysis.unit, d.loss, { signed: false }) })),
      h('div', { class: 'row' }, prev, next));
  };
  draw();
  return box;
}

/** @param {Api<'Bid'>} bid */
function bidText(bid) {
  return bid.suit ? `${bid.tricks} ${bid.suit}` : String(bid.tricks);
}

/**
 * A panel that loads game `id`'s analysis and shows it, polling while it is made. `seatName`
 * names a seat. The panel stops polling once it leaves the page.
 * @param {number} id @param {(seat: number) => string} seatName @param {number | null} [mine]
 */
export function analysisPanel(id, seatName, mine = null) {
  const body = h('div', { class: 'analysis-body', 'aria-live': 'polite' }, t('analysis_loading'));
  const panel = h('section', { class: 'panel analysis', 'data-analysis': 'loading' },
    h('h2', {}, t('analysis_title')), body);
  let everything = false;
  /** @param {Api<'AnalysisResponse'>} answer */
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
    // (A done analysis always has its body: db/src/analyses.rs stores the two together.)
    const analysis = /** @type {Api<'Analysis'>} */ (answer.analysis);
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
    // The reader's own mistakes, walked one by one, when they played.
    /** @type {HTMLDivElement | null} */
    let walk = null;
    if (mine !== null && mine !== undefined) {
      const start = h('button', { type: 'button', class: 'button primary', 'data-action': 'walk-mistakes' }, t('analysis_walk'));
      walk = h('div', { class: 'walk' }, start);
      // (`walk` is the box just made, by the time it is clicked.)
      start.addEventListener('click', () => {
        /** @type {HTMLDivElement} */ (walk).replaceChildren(mistakesWalk(analysis, mine));
        /** @type {HTMLButtonElement | null} */ (/** @type {HTMLDivElement} */ (walk)
          .querySelector('button:not([disabled])'))?.focus();
      });
    }
    body.replaceChildren(method, summaryTable(analysis, seatName),
      analysis.hands.length ? handsList(analysis, seatName) : '', walk || '', toggle, list);
  };
  const load = async () => {
    if (!panel.isConnected && panel.dataset.analysis !== 'loading') return;
    try {
      const answer = await api.call('GET', '/games/{id}/analysis', { path: { id } });
      show(answer);
      if (answer.status === 'queued' || answer.status === 'running') setTimeout(load, 1500);
    } catch (error) {
      panel.dataset.analysis = 'error';
      body.replaceChildren(h('p', {}, problemText(error)));
      // A duplicate board still played at another table: it opens when the round is over.
      if (api.refusalCode(error) === 'board_in_play') setTimeout(load, 15000);
    }
  };
  load();
  return panel;
}

/** The analysis of game `id` by version: for the admin replay's step-by-step marks.
 * @param {number} id
 * @returns {Promise<{ answer: Api<'AnalysisResponse'>, byVersion: Map<number, Api<'AnalysisDecision'>> }>} */
export async function decisionsByVersion(id) {
  const answer = await api.call('GET', '/games/{id}/analysis', { path: { id } });
  if (answer.status !== 'done') return { answer, byVersion: new Map() };
  // (A done analysis always has its body, as in analysisPanel.)
  return { answer, byVersion: new Map(/** @type {Api<'Analysis'>} */ (answer.analysis).decisions.map((d) => [d.version, d])) };
}
