// The admin pages (/admin): the history of every game with filters, a replay viewer that
// steps through any game with every hand shown (admin_replay.js), the statistics dashboard
// drawn as SVG, the table chat's moderation (hide a message, mute a person), and the
// tournaments (make one with every option, change one before its start, call one off). In
// English, whatever language the play page was last read in.
// Uses only the admin API (/api/v1/admin/…); the admin signs in with name and password.

import * as api from './api.js';
import { h, toast, setBusy } from './ui.js';
import { pinLanguage, t, when } from './i18n.js';
import { tournamentForm, cancelForm } from './tournament_form.js';
import { gameName, shape } from './tournament_views.js';
import { problemText } from './problems.js';
import { showReplay } from './admin_replay.js';

pinLanguage('en');

/** @type {Api<'GameKind'>[]} */
const KINDS = ['basra', 'thirty_one', 'rummy', 'tarneeb'];
/** @type {Record<Api<'GameKind'>, string>} */
const KIND_NAMES = { basra: 'Basra', thirty_one: '31', rummy: 'Rummy', tarneeb: 'Tarneeb' };
/** @type {Record<Api<'GameKind'>, string>} */
const COLOURS = { basra: '#1f6f8b', thirty_one: '#b5651d', rummy: '#6a4c93', tarneeb: '#2a9d3f' };
const STATUSES = ['waiting', 'active', 'hand_over', 'finished', 'abandoned'];

// (admin.html has both #app and #who.)
const app = () => /** @type {HTMLElement} */ (document.getElementById('app'));
/** @param {string | null | undefined} iso */
const dateOnly = (iso) => (iso ? iso.slice(0, 16).replace('T', ' ') : '—');

/** @param {string | null} reason */
function signIn(reason) {
  const name = h('input', { id: 'admin-name', autocomplete: 'username' });
  const password = h('input', { id: 'admin-password', type: 'password', autocomplete: 'current-password' });
  const button = h('button', { type: 'submit', class: 'button primary', id: 'admin-sign-in' }, 'Sign in');
  const form = h('form', { class: 'panel', id: 'sign-in' },
    h('h1', {}, 'Admin sign-in'),
    reason ? h('p', { class: 'error' }, reason) : null,
    h('p', {}, h('label', { for: 'admin-name' }, 'Name'), name),
    h('p', {}, h('label', { for: 'admin-password' }, 'Password'), password),
    button);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const user = await api.login(name.value.trim(), password.value, false);
      if (user.role !== 'admin') {
        signIn(`${user.name} is not an admin.`);
        return;
      }
      route();
    } catch (error) {
      toast(problemText(error, 'sign_in'), 'error');
    }
  });
  app().replaceChildren(h('div', { class: 'admin lobby' }, form));
}

function who() {
  const user = api.currentUser();
  /** @type {HTMLElement} */ (document.getElementById('who')).textContent = user ? `${user.name} (${user.role})` : '';
}

// ---- history -------------------------------------------------------------------------------

/** @param {URLSearchParams} params @param {(next: URLSearchParams) => void} onSubmit */
function filterForm(params, onSubmit) {
  /** @param {string} label @param {HTMLElement} input */
  const field = (label, input) => h('label', {}, label, input);
  /** @template {string} O @param {string} name @param {O[]} options @param {(o: O) => string} [words] */
  const select = (name, options, words = (o) => o) => h('select', { name },
    h('option', { value: '' }, 'any'),
    options.map((o) => h('option', { value: o, selected: params.get(name) === o }, words(o))));
  const form = h('form', { class: 'panel filters', id: 'filters' },
    field('Kind', select('kind', KINDS, (k) => KIND_NAMES[k])),
    field('Variant', h('input', { name: 'variant', value: params.get('variant') || '', size: '9' })),
    field('Status', select('status', STATUSES, (x) => t(`status_${x}`))),
    field('Player', h('input', { name: 'player', value: params.get('player') || '', size: '12' })),
    field('Practice', select('practice', ['true', 'false'], (x) => (x === 'true' ? 'practice games' : 'real games'))),
    field('Tournament', h('input', {
      name: 'tournament', type: 'number', min: '1', value: params.get('tournament') || '', size: '6',
    })),
    field('From', h('input', { type: 'date', name: 'from', value: params.get('from') || '' })),
    field('To', h('input', { type: 'date', name: 'to', value: params.get('to') || '' })),
    h('button', { type: 'submit', class: 'button primary' }, 'Filter'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    // (The form has no file field: every value is text.)
    for (const [key, value] of new FormData(form)) if (value) next.set(key, /** @type {string} */ (value));
    onSubmit(next);
  });
  return form;
}

/** Who won a finished game, by name (a side's seats together: "Layla + computer (hard)").
 * @param {Api<'AdminGameSummary'>} game */
function winnersText(game) {
  if (!game.winners) return '—';
  if (!game.winners.length) return game.end_reason === 'move_cap' ? 'nobody (move limit)' : 'nobody (a draw)';
  /** @param {number} seat */
  const name = (seat) => {
    const s = game.seats[seat];
    return s ? s.name || (s.bot ? `computer (${s.bot})` : `seat ${seat + 1}`) : `seat ${seat + 1}`;
  };
  const text = game.winners.map((side) => (game.sides[side] || [side]).map(name).join(' + ')).join(', ');
  return game.end_reason === 'resignation' ? `${text} (by resignation)` : text;
}

/** @param {URLSearchParams} params */
async function showHistory(params) {
  const list = await api.call('GET', '/admin/games', { search: params });
  const rows = list.games.map((g) => {
    const players = g.seats.map((s) => s.name || (s.bot ? `computer (${s.bot})` : 'open')).join(', ');
    const row = h('tr', { 'data-game': String(g.id) },
      h('td', {}, h('a', { href: `#/replay/${g.id}` }, `#${g.id}`)),
      h('td', {}, `${KIND_NAMES[g.kind] || g.kind} · ${g.variant}`, g.practice ? h('span', { class: 'tag' }, 'practice') : null),
      h('td', {}, t(`status_${g.status}`)),
      h('td', {}, players),
      h('td', {}, String(g.hands)),
      h('td', {}, String(g.moves)),
      h('td', {}, dateOnly(g.created_at)),
      h('td', {}, dateOnly(g.finished_at)),
      h('td', { class: 'winners' }, winnersText(g)));
    return row;
  });
  const page = list.page;
  const pages = Math.max(1, Math.ceil(list.total / list.per_page));
  /** @param {number} n */
  const go = (n) => {
    const next = new URLSearchParams(params);
    next.set('page', String(n));
    location.hash = `#/history?${next}`;
  };
  const prev = h('button', { type: 'button', class: 'button', disabled: page <= 1 }, '← Newer');
  const next = h('button', { type: 'button', class: 'button', disabled: page >= pages }, 'Older →');
  prev.addEventListener('click', () => go(page - 1));
  next.addEventListener('click', () => go(page + 1));
  app().replaceChildren(h('div', { class: 'admin' },
    h('h1', {}, 'Game history'),
    filterForm(params, (p) => { location.hash = `#/history?${p}`; }),
    h('p', { id: 'history-total' }, `${list.total} games`),
    h('table', { class: 'history' },
      h('thead', {}, h('tr', {}, ['Game', 'Kind', 'Status', 'Players', 'Hands', 'Moves', 'Created', 'Finished', 'Winners'].map((c) => h('th', {}, c)))),
      h('tbody', {}, rows)),
    h('div', { class: 'pager' }, prev, h('span', {}, `page ${page} of ${pages}`), next)));
}

// ---- dashboard -----------------------------------------------------------------------------

const NS = 'http://www.w3.org/2000/svg';
/** @param {string} name @param {Record<string, string | number>} [attrs] @param {...(Node | null)} children */
function svg(name, attrs = {}, ...children) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

/** @param {string} from @param {string} to */
function days(from, to) {
  /** @type {string[]} */
  const out = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) {
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** One series of bars: its name, colour and a value a label.
 * @typedef {{ name: string, colour: string, values: number[] }} Series */

/** Grouped bars: one group per day, one bar per series.
 * @param {string} title @param {string[]} labels @param {Series[]} series @param {{ id?: string }} [options] */
function barChart(title, labels, series, { id } = {}) {
  const width = 640;
  const height = 220;
  const pad = { left: 36, right: 8, top: 10, bottom: 28 };
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const group = plotW / Math.max(1, labels.length);
  const bar = Math.max(1, (group * 0.8) / Math.max(1, series.length));
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title });
  chart.append(svg('line', { x1: pad.left, y1: pad.top + plotH, x2: width - pad.right, y2: pad.top + plotH, class: 'axis' }));
  for (const tick of [0, Math.ceil(max / 2), max]) {
    const y = pad.top + plotH - (tick / max) * plotH;
    const text = svg('text', { x: pad.left - 4, y: y + 4, 'text-anchor': 'end' });
    text.textContent = String(tick);
    chart.append(text, svg('line', { x1: pad.left, x2: width - pad.right, y1: y, y2: y, class: 'axis', opacity: 0.25 }));
  }
  labels.forEach((label, i) => {
    series.forEach((s, j) => {
      const value = s.values[i] || 0;
      const barH = (value / max) * plotH;
      const rect = svg('rect', { x: pad.left + i * group + group * 0.1 + j * bar, y: pad.top + plotH - barH, width: bar, height: barH, fill: s.colour });
      const tip = svg('title');
      tip.textContent = `${label} · ${s.name}: ${value}`;
      rect.append(tip);
      chart.append(rect);
    });
    const every = Math.ceil(labels.length / 8);
    if (i % every === 0) {
      const text = svg('text', { x: pad.left + i * group + group / 2, y: height - 8, 'text-anchor': 'middle' });
      text.textContent = label.length === 10 ? label.slice(5) : label;
      chart.append(text);
    }
  });
  const legend = h('div', { class: 'legend' }, series.map((s) => h('span', {}, h('span', { class: 'swatch', style: null, 'data-colour': s.colour }), s.name)));
  // Swatches take their colour from an SVG (the page's CSP allows no inline styles).
  // (Each swatch was made just above with its colour.)
  for (const swatch of /** @type {NodeListOf<HTMLElement>} */ (legend.querySelectorAll('.swatch'))) {
    const box = svg('svg', { viewBox: '0 0 10 10', width: 12, height: 12 },
      svg('rect', { width: 10, height: 10, fill: /** @type {string} */ (swatch.dataset.colour) }));
    swatch.replaceWith(box);
  }
  return h('section', { class: 'panel chart', id }, h('h2', {}, title), chart, legend);
}

/** @param {URLSearchParams} params */
async function showDashboard(params) {
  const started = performance.now();
  const stats = await api.call('GET', '/admin/stats', { search: params });
  const elapsed = performance.now() - started;
  const range = days(stats.from, stats.to);
  const kinds = stats.kind ? [stats.kind] : KINDS;
  /** @param {Api<'DayCount'>[]} list */
  const perDay = (list) => kinds.map((kind) => ({
    name: KIND_NAMES[kind],
    colour: COLOURS[kind],
    values: range.map((d) => list.filter((x) => x.day === d && x.kind === kind).reduce((a, x) => a + x.games, 0)),
  }));
  const levelLabels = stats.levels.map((l) => `${KIND_NAMES[l.kind]} ${l.level}`);
  const form = h('form', { class: 'panel filters', id: 'range' },
    h('label', {}, 'From', h('input', { type: 'date', name: 'from', value: stats.from })),
    h('label', {}, 'To', h('input', { type: 'date', name: 'to', value: stats.to })),
    h('label', {}, 'Game', h('select', { name: 'kind' }, h('option', { value: '' }, 'all'),
      KINDS.map((k) => h('option', { value: k, selected: stats.kind === k }, KIND_NAMES[k])))),
    h('button', { type: 'submit', class: 'button primary' }, 'Show'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    // (The form has no file field: every value is text.)
    for (const [key, value] of new FormData(form)) if (value) next.set(key, /** @type {string} */ (value));
    location.hash = `#/dashboard?${next}`;
  });
  const totals = h('table', { class: 'totals', id: 'kind-totals' },
    h('thead', {}, h('tr', {}, ['Game', 'Finished', 'Avg moves', 'Avg hands', 'Avg minutes', 'Basras / game', 'Contracts made', 'Contracts set', 'Knocks', '31s'].map((c) => h('th', {}, c)))),
    h('tbody', {}, stats.kinds.map((k) => h('tr', { 'data-kind': k.kind },
      h('td', {}, KIND_NAMES[k.kind] || k.kind), h('td', {}, String(k.games)),
      h('td', {}, k.average_moves.toFixed(1)), h('td', {}, k.average_hands.toFixed(1)),
      h('td', {}, (k.average_seconds / 60).toFixed(1)),
      h('td', {}, k.games ? (k.basras / k.games).toFixed(2) : '0'),
      h('td', {}, String(k.contracts_made)), h('td', {}, String(k.contracts_set)),
      h('td', {}, String(k.knocks)), h('td', {}, String(k.thirty_ones))))));
  app().replaceChildren(h('div', { class: 'admin' },
    h('h1', {}, 'Dashboard'),
    form,
    h('p', { class: 'load-time', id: 'load-time' }, `Loaded in ${elapsed.toFixed(0)} ms · ${stats.from} to ${stats.to} · practice games never count`),
    h('div', { class: 'charts' },
      barChart('Games started per day', range, perDay(stats.started), { id: 'chart-started' }),
      barChart('Games finished per day', range, perDay(stats.finished), { id: 'chart-finished' }),
      barChart('People against the computer, by level', levelLabels, [
        { name: 'people won', colour: '#2a9d3f', values: stats.levels.map((l) => l.human_wins) },
        { name: 'computer won', colour: '#b3261e', values: stats.levels.map((l) => l.computer_wins) },
        { name: 'games', colour: '#9c9484', values: stats.levels.map((l) => l.games) },
      ], { id: 'chart-levels' }),
      barChart('Active players per day', range, [{
        name: 'people who moved', colour: '#14532d',
        values: range.map((d) => (stats.active_players.find((a) => a.day === d) || { players: 0 }).players),
      }], { id: 'chart-players' })),
    h('section', { class: 'panel' }, h('h2', {}, 'Per game'), totals)));
}

// ---- routing -------------------------------------------------------------------------------

// ---- chat moderation -------------------------------------------------------------------------

/** @param {URLSearchParams} params */
async function showChat(params) {
  const list = await api.call('GET', '/admin/chat', { search: params });
  const form = h('form', { class: 'panel filters', id: 'chat-filters' },
    h('label', {}, 'Game', h('input', { name: 'game', value: params.get('game') || '', size: '6', inputmode: 'numeric' })),
    h('label', {}, 'Player', h('input', { name: 'player', value: params.get('player') || '', size: '12' })),
    h('button', { type: 'submit', class: 'button primary' }, 'Filter'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    // (The form has no file field: every value is text.)
    for (const [key, value] of new FormData(form)) if (value) next.set(key, /** @type {string} */ (value));
    location.hash = `#/chat?${next}`;
  });
  /** @param {() => Promise<unknown>} call @param {string} done */
  const act = async (call, done) => {
    try {
      await call();
      toast(done);
      await showChat(params);
    } catch (error) {
      toast(problemText(error), 'error');
    }
  };
  const rows = list.messages.map((m) => {
    const hide = h('button', { type: 'button', class: 'button', 'data-hide': String(m.id), disabled: m.hidden }, m.hidden ? 'Hidden' : 'Hide');
    hide.addEventListener('click', () => act(() => api.call('POST', '/admin/chat/{id}/hide', { path: { id: m.id } }), `Message ${m.id} hidden.`));
    // A muted author is said to be, until when, with the one way out; anyone else can be muted.
    let muting;
    if (m.author_muted_until) {
      const until = new Date(m.author_muted_until);
      const unmute = h('button', { type: 'button', class: 'button ghost', 'data-unmute': m.name }, 'Unmute');
      unmute.addEventListener('click', () => act(
        () => api.call('POST', '/admin/users/{name}/mute', { path: { name: m.name }, body: { muted: false } }),
        `${m.name} may chat again.`,
      ));
      muting = h('span', { class: 'muted-state', 'data-muted': m.name },
        h('span', { class: 'tag' }, `muted until ${until.toLocaleString()}`), ' ', unmute);
    } else {
      const mute = h('button', { type: 'button', class: 'button', 'data-mute': m.name }, 'Mute 1 h');
      mute.addEventListener('click', () => act(
        () => api.call('POST', '/admin/users/{name}/mute', { path: { name: m.name }, body: { muted: true, minutes: 60 } }),
        `${m.name} is muted for an hour.`,
      ));
      muting = mute;
    }
    return h('tr', { 'data-message': String(m.id), class: m.hidden ? 'hidden-message' : null },
      h('td', {}, dateOnly(m.at)),
      h('td', {}, h('a', { href: `#/replay/${m.game_id}` }, `#${m.game_id}`)),
      h('td', {}, m.room),
      h('td', {}, h('bdi', {}, m.name)),
      h('td', { class: 'chat-text' }, h('bdi', { dir: 'auto' }, m.text || '')),
      h('td', {}, hide, ' ', muting));
  });
  const table = h('table', { class: 'history', id: 'chat-log' },
    h('thead', {}, h('tr', {}, ['When', 'Game', 'Room', 'Who', 'Message', ''].map((c) => h('th', {}, c)))),
    h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: '6' }, 'No messages.'))));
  app().replaceChildren(h('div', { class: 'admin' },
    h('h1', {}, 'Table chat'),
    h('p', { class: 'note' }, `${list.total} messages, newest first. Hiding is final; a mute stops a person chatting anywhere.`),
    form, table));
}

// ---- tournaments -------------------------------------------------------------------------------

/** The tournaments' page. `stay`: asked once the list is read; if it says so, nothing is drawn
 * (a refresh whose answer comes after an editor was opened, which drawing would take away).
 * Whether it drew. @param {() => boolean} [stay] */
async function showTournaments(stay = () => false) {
  const list = await api.call('GET', '/tournaments');
  if (stay()) return false;
  const place = h('div', { class: 'tournament-editor' });
  /** @param {string} [message] */
  const reload = (message) => {
    if (message) toast(message);
    showTournaments();
  };
  /** @param {HTMLFormElement} form */
  const open = (form) => {
    place.replaceChildren(form);
    place.scrollIntoView({ block: 'start' });
    form.querySelector('input')?.focus();
  };
  const make = h('button', { type: 'button', class: 'button primary', id: 'admin-make-tournament' }, 'Make a tournament');
  make.addEventListener('click', async () => open(await tournamentForm({
    admin: true, onDone: (made) => reload(`“${made.name}” is made: it starts ${when(made.starts_at)}.`),
  })));
  const rows = list.tournaments.map((tn) => {
    /** @type {HTMLButtonElement[]} */
    const actions = [];
    if (tn.manageable && tn.status === 'upcoming') {
      const edit = h('button', { type: 'button', class: 'button', 'data-edit': String(tn.id) }, 'Change');
      edit.addEventListener('click', async () => open(await tournamentForm({
        existing: tn, admin: true, onDone: () => reload(`“${tn.name}” is changed.`),
      })));
      actions.push(edit);
    }
    if (tn.manageable && ['upcoming', 'running'].includes(tn.status)) {
      const cancel = h('button', { type: 'button', class: 'button danger', 'data-cancel': String(tn.id) }, 'Call off');
      // (Read afresh: who has entered since the list was read.)
      cancel.addEventListener('click', async () => open(cancelForm(
        await api.tournament(tn.id, tn.code).catch(() => tn),
        () => reload(`“${tn.name}” is called off.`),
      )));
      actions.push(cancel);
    }
    return h('tr', { 'data-tournament': String(tn.id) },
      h('td', {}, h('a', { href: `/#/tournament/${tn.id}${tn.code ? `/${tn.code}` : ''}` }, tn.name)),
      h('td', {}, gameName(tn)),
      h('td', {}, shape(tn)),
      h('td', {}, t(`tournament_${tn.status}`), tn.private ? ' (private)' : ''),
      h('td', {}, when(tn.starts_at)),
      h('td', {}, actions));
  });
  const table = h('table', { class: 'history', id: 'tournament-list' },
    h('thead', {}, h('tr', {}, ['Name', 'Game', 'Format', 'Status', 'Starts', ''].map((c) => h('th', {}, c)))),
    h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: '6' }, 'No tournaments yet.'))));
  // The list keeps itself current (a start, an entrant, an end) while nothing is being edited:
  // one read every ten seconds, by the list on the page. A list drawn again hands the refresh
  // to the new one; a list no longer shown (another page, or a list drawn after a change)
  // stops its own.
  const shown = location.hash;
  const again = () => {
    if (location.hash !== shown || !table.isConnected) return;
    if (place.childElementCount) setTimeout(again, 10000);
    else {
      showTournaments(() => place.childElementCount > 0 || location.hash !== shown || !table.isConnected)
        .then((drawn) => drawn || setTimeout(again, 10000), () => setTimeout(again, 10000));
    }
  };
  setTimeout(again, 10000);
  app().replaceChildren(h('div', { class: 'admin' },
    h('h1', {}, 'Tournaments'),
    h('p', { class: 'note' }, 'Public ones are listed in every lobby. Their terms can change until they start; they can be called off until they are over.'),
    h('p', {}, make), place, table));
  return true;
}

async function route() {
  who();
  const hash = location.hash;
  const user = api.currentUser();
  if (!user || user.role !== 'admin') {
    signIn(user ? `${user.name} is not an admin: sign in as one.` : null);
    document.body.dataset.shown = hash;
    return;
  }
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean);
  setBusy(true);
  try {
    if (parts[0] === 'replay' && /^\d+$/.test(parts[1] || '')) await showReplay(Number(parts[1]));
    else if (parts[0] === 'dashboard') await showDashboard(params);
    else if (parts[0] === 'chat') await showChat(params);
    else if (parts[0] === 'tournaments') await showTournaments();
    else await showHistory(params);
  } catch (error) {
    if (api.refusalStatus(error) === 401 || api.refusalStatus(error) === 403) signIn(problemText(error));
    else app().replaceChildren(h('div', { class: 'panel error' }, h('h1', {}, 'Something went wrong'), h('p', {}, problemText(error))));
  } finally {
    setBusy(false);
    // Which address the page now shows (see tests/browser/harness.mjs `idle`): the address
    // bar changes before the hashchange handler has even started.
    if (location.hash === hash) document.body.dataset.shown = hash;
  }
}

window.addEventListener('hashchange', route);
route();
