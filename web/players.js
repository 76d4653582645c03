// Profiles (#/player/NAME) and leaderboards (#/leaderboard/KIND/POOL): public pages over
// GET /players/{name} and GET /leaderboards/{kind}.

import * as api from './api.js';
import { t, when, num } from './i18n.js';
import { h } from './ui.js';
import { challengeForm } from './account.js';

/** @type {Api<'GameKind'>[]} */
const KINDS = ['basra', 'thirty_one', 'rummy', 'tarneeb'];
const POOLS = ['people', 'computers', 'bots'];

/** @param {number} x */
const round = (x) => num(Math.round(x));
/** @param {number} x */
const percent = (x) => num(x, { style: 'percent', maximumFractionDigits: 0 });

/** A player's name as a link to their profile.
 * @param {string} name @returns {HTMLAnchorElement} */
export function playerLink(name) {
  return h('a', { href: `#/player/${encodeURIComponent(name)}`, class: 'player-link' }, name);
}

/** A small line chart of a rating history (SVG, no library).
 * @param {number[]} points @returns {SVGSVGElement | null} */
function chart(points) {
  const width = 320;
  const height = 96;
  if (points.length < 2) return null;
  const low = Math.min(...points) - 20;
  const high = Math.max(...points) + 20;
  /** @param {number} i */
  const x = (i) => (i / (points.length - 1)) * (width - 8) + 4;
  /** @param {number} v */
  const y = (v) => height - 4 - ((v - low) / (high - low)) * (height - 8);
  const path = points.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'rating-chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('rating_chart', { from: round(points[0]), to: round(points[points.length - 1]) }));
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  line.setAttribute('d', path);
  svg.append(line);
  return svg;
}

/** The profile of the player `name` in `root`.
 * @param {HTMLElement} root @param {string} name */
export async function showProfile(root, name) {
  const profile = await api.profile(name);
  const records = h('table', { class: 'records' },
    h('thead', {}, h('tr', {}, h('th', {}, t('game')), h('th', {}, t('games_played')), h('th', {}, t('wins')), h('th', {}, t('win_rate')))),
    h('tbody', {}, profile.records.map((r) => h('tr', { 'data-kind': r.kind },
      h('th', {}, t(`kind_${r.kind}`)), h('td', {}, num(r.games)), h('td', {}, num(r.wins)), h('td', {}, percent(r.win_rate))))));
  const ratings = h('div', { class: 'ratings' });
  for (const rating of profile.ratings) {
    const history = profile.history
      .filter((c) => c.kind === rating.kind && c.pool === rating.pool)
      .map((c) => c.rating);
    ratings.append(h('section', { class: 'panel rating', 'data-kind': rating.kind, 'data-pool': rating.pool },
      h('h3', {}, `${t(`kind_${rating.kind}`)} · ${t(`pool_${rating.pool}`)}`),
      h('p', { class: 'rating-value' }, h('strong', {}, round(rating.rating)), ` ± ${round(2 * rating.deviation)}`,
        rating.provisional ? h('span', { class: 'tag' }, t('provisional')) : null),
      h('p', { class: 'note' }, t('rated_games', { n: rating.games })),
      chart([1500, ...history])));
  }
  if (!profile.ratings.length) {
    ratings.append(h('p', { class: 'note' }, t(profile.guest ? 'guests_unrated' : 'no_rated_games')));
  }
  const recent = h('ul', { class: 'games' }, profile.recent_games.map((g) => h('li', { class: 'game-row' },
    h('strong', {}, `${t(`kind_${g.kind}`)} · ${t(`variant_${g.kind}_${g.variant}`)}`),
    h('span', { class: 'tag', 'data-won': String(g.won) }, t(g.won ? 'won' : 'lost')),
    g.finished_at ? h('time', { datetime: g.finished_at }, when(g.finished_at)) : null)));
  const user = api.currentUser();
  const me = (user || {}).name;
  // A guest (either of the two, or someone not yet signed in, who plays as one) is never rated.
  const rateable = Boolean(user && !user.guest && !profile.guest);
  const challenge = me === profile.name ? null : challengeForm(profile.name, (await api.catalogue()).kinds, { rateable });
  root.replaceChildren(h('div', { class: 'profile' },
    h('h1', {}, profile.name, profile.bot ? h('span', { class: 'tag bot-account', title: t('bot_note') }, t('bot_tag')) : null),
    h('p', { class: 'lead' }, t(profile.guest ? 'guest_since' : 'member_since', { date: when(profile.member_since, { dateStyle: 'long' }) })),
    challenge,
    h('section', { class: 'panel' }, h('h2', {}, t('records')), profile.records.length ? records : h('p', { class: 'note' }, t('no_games_yet'))),
    h('h2', {}, t('ratings')), ratings,
    h('section', { class: 'panel' }, h('h2', {}, t('recent_games')), recent),
    h('p', {}, h('a', { href: '#/leaderboard/basra/people', class: 'button' }, t('leaderboards')))));
}

/** The leaderboard of `kind` and `pool` in `root`, at `page` (a known kind and pool when not one).
 * @param {HTMLElement} root @param {string} [asked] @param {string} [pool] @param {number} [page] */
export async function showLeaderboard(root, asked = 'basra', pool = 'people', page = 1) {
  const kind = KINDS.find((k) => k === asked) || 'basra';
  if (!POOLS.includes(pool)) pool = 'people';
  const board = await api.leaderboard(kind, pool, page);
  const tabs = h('nav', { class: 'tabs', 'aria-label': t('leaderboards') },
    KINDS.map((k) => h('a', { href: `#/leaderboard/${k}/${pool}`, class: `tab${k === kind ? ' active' : ''}`, 'aria-current': k === kind ? 'page' : null }, t(`kind_${k}`))));
  const pools = h('nav', { class: 'tabs pools' },
    POOLS.map((p) => h('a', { href: `#/leaderboard/${kind}/${p}`, class: `tab${p === pool ? ' active' : ''}`, 'aria-current': p === pool ? 'page' : null }, t(`pool_${p}`))));
  const rows = board.standings.map((s) => h('tr', { 'data-rank': String(s.rank) },
    h('td', {}, num(s.rank)), h('td', {}, playerLink(s.name)),
    h('td', {}, round(s.rating), s.provisional ? h('span', { class: 'tag' }, '?') : null),
    h('td', {}, `± ${round(2 * s.deviation)}`), h('td', {}, num(s.games))));
  const table = board.standings.length
    ? h('table', { class: 'leaderboard' },
      h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('player')), h('th', {}, t('rating')), h('th', {}, t('uncertainty')), h('th', {}, t('games_played')))),
      h('tbody', {}, rows))
    : h('p', { class: 'note' }, t('board_empty'));
  const pager = h('p', { class: 'pager' },
    page > 1 ? h('a', { href: '#', class: 'button ghost', 'data-page': String(page - 1) }, t('previous')) : null,
    page * board.per_page < board.total ? h('a', { href: '#', class: 'button ghost', 'data-page': String(page + 1) }, t('more')) : null);
  pager.addEventListener('click', (event) => {
    /** @type {HTMLElement | null} */
    const target = /** @type {Element} */ (event.target).closest('[data-page]');
    if (!target) return;
    event.preventDefault();
    showLeaderboard(root, kind, pool, Number(target.dataset.page));
  });
  root.replaceChildren(h('div', { class: 'leaderboards' },
    h('h1', {}, t('leaderboards')), tabs, pools,
    h('p', { class: 'note' }, t('board_note')),
    h('section', { class: 'panel' }, table, pager)));
}
