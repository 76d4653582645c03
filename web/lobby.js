// The lobby: who you are, a new game (kind, variant, seats, house rules from the catalogue),
// and your games in progress and finished. Also the page an invite link opens.

import * as api from './api.js';
import { t, when } from './i18n.js';
import { h } from './ui.js';
import { levelName, timerText } from './names.js';
import { rulesOf } from './help.js';
import { challengesPanel, onAccountEvent, ratedText } from './account.js';
import { identityPanel, ensureNamedUser, complain } from './identity.js';
import { problemText } from './problems.js';
import { houseRulesFieldset, chosenOptions as chosenRules } from './house_rules.js';
import { tournamentsPanel } from './tournaments.js';

/** What the address chose for a new game (#/new/KIND/VARIANT): a kind and a variant, either
 * left out.
 * @typedef {{ kind?: string, variant?: string }} Preset */

/** A quick match being looked for: the seek's id once it is made, and what stops asking after it.
 * @typedef {{ id: number | null, abort: AbortController }} Seeking */

/** The catalogue's turn-timer bounds, once loaded. */
let turnBounds = { min_seconds: 5, max_seconds: 86400, default_takeover_after: 3 };

async function kinds() {
  const catalogue = await api.knownCatalogue();
  turnBounds = catalogue.turn;
  return catalogue.kinds;
}

/** The timers offered: none, blitz to correspondence. */
const TIMERS = [0, 15, 30, 60, 120, 300, 3600, 86400];

/** The new game form: a kind of `all`, the one `preset` names first; `root` is marked ready
 * once a submitted form has been answered.
 * @param {Api<'KindInfo'>[]} all @param {Preset} preset @param {HTMLElement} root
 * @returns {HTMLFormElement} */
function newGameForm(all, preset, root) {
  const form = h('form', { class: 'panel new-game', id: 'new-game' });
  /** What is chosen: the game, and its variant once drawn. @type {Choice} */
  const choice = { kind: all.find((k) => k.kind === preset.kind) || all[0], variant: null };
  form.append(kindField(all, choice.kind, (k) => {
    choice.kind = k;
    variantChanged(null);
  }));

  // Who with: a table whose seats one chooses, or a quick match with whoever is looking now
  // (which has no seats to choose: the controls that only a table has are hidden then).
  const modes = h('fieldset', { class: 'modes' }, h('legend', {}, t('opponents')),
    ['table', 'quick'].map((mode) => h('label', { for: `mode-${mode}`, class: 'mode-choice' },
      h('input', { type: 'radio', name: 'mode', id: `mode-${mode}`, value: mode, checked: mode === 'table' }),
      h('span', {}, t(`mode_${mode}`)))));
  form.append(modes);
  const details = h('div', { class: 'game-details' });
  form.append(details);
  const create = h('button', { type: 'submit', class: 'button primary', id: 'create' }, t('create_game'));
  const quick = h('button', { type: 'button', class: 'button primary', id: 'quick-match', hidden: true }, t('find_players'));
  const looking = h('p', { class: 'note looking', hidden: true });
  form.append(h('div', { class: 'row form-actions' }, create, quick), looking);
  const quickMode = () => /** @type {HTMLInputElement} */ (form.querySelector('#mode-quick')).checked;
  const showMode = () => {
    const q = quickMode();
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll('[data-table-only]'))) node.hidden = q;
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll('[data-quick-only]'))) node.hidden = !q;
    create.hidden = q;
    quick.hidden = !q;
  };
  for (const radio of modes.querySelectorAll('input')) radio.addEventListener('change', showMode);

  /** @param {string | null | undefined} name */
  const variantChanged = (name) => {
    const { kind } = choice;
    const variant = kind.variants.find((v) => v.name === name) || kind.variants.find((v) => v.default) || kind.variants[0];
    choice.variant = variant;
    variantFields(details, form, kind, variant, variantChanged);
    showMode();
  };
  variantChanged(preset.variant);

  quick.addEventListener('click', () => quickMatch(form, choice, quick, looking));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    createGame(form, choice, create, root);
  });
  return form;
}

/** The new game form's choice: the game, and its variant (set as soon as the form is drawn).
 * @typedef {{ kind: Api<'KindInfo'>, variant: Api<'VariantInfo'> | null }} Choice */

/** The games to choose from, `kind` chosen; `chose(kind)` when another is.
 * @param {Api<'KindInfo'>[]} all @param {Api<'KindInfo'>} kind
 * @param {(kind: Api<'KindInfo'>) => void} chose */
function kindField(all, kind, chose) {
  const field = h('fieldset', { class: 'kinds' }, h('legend', {}, t('choose_game')));
  for (const k of all) {
    const id = `kind-${k.kind}`;
    const radio = h('input', { type: 'radio', name: 'kind', id, value: k.kind, checked: k === kind });
    radio.addEventListener('change', () => chose(k));
    field.append(h('label', { for: id, class: 'kind-choice' }, radio,
      h('strong', {}, t(`kind_${k.kind}`)), h('span', {}, t(`summary_${k.kind}`))));
  }
  return field;
}

/** Fills `details` with what the chosen variant asks: the variant, the players and their
 * seats, who may join, the house rules, the turn timer, a practice deal; `changed(name)` when
 * another variant is chosen.
 * @param {HTMLElement} details @param {HTMLFormElement} form @param {Api<'KindInfo'>} kind
 * @param {Api<'VariantInfo'>} variant @param {(name: string) => void} changed */
function variantFields(details, form, kind, variant, changed) {
  const select = h('select', { id: 'variant', name: 'variant' },
    kind.variants.map((v) => h('option', { value: v.name, selected: v === variant }, t(`variant_${kind.kind}_${v.name}`))));
  select.addEventListener('change', () => changed(select.value));
  const count = h('select', { id: 'seat-count', name: 'seats' },
    variant.seats.map((n) => h('option', { value: String(n) }, t('n_players', { n }))));
  const seats = h('div', { class: 'seat-rows', 'data-table-only': '' });
  const options = houseRulesFieldset(variant);
  // The seats are labelled by team only when they play as teams (a house rule at Basra).
  const partnerships = /** @type {HTMLInputElement | null} */ (options.querySelector('[data-option="partnerships"]'));
  const showTeams = () => {
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (seats.querySelectorAll('.team')))
      node.hidden = Boolean(partnerships && !partnerships.checked);
  };
  partnerships?.addEventListener('change', showTeams);
  const drawSeats = () => {
    const n = Number(count.value);
    seats.replaceChildren(...seatRows(kind, n));
    // Partnerships are a choice only where there are four to pair.
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll('[data-needs-four]')))
      node.hidden = n !== 4;
    showTeams();
  };
  count.addEventListener('change', drawSeats);
  const timer = h('div', { class: 'row turn-timer', 'data-table-only': '' },
    h('label', { for: 'turn-seconds' }, t('turn_timer')),
    h('select', { id: 'turn-seconds', name: 'turn' },
      TIMERS.filter((s) => s === 0 || (s >= turnBounds.min_seconds && s <= turnBounds.max_seconds))
        .map((s) => h('option', { value: String(s) }, s ? timerText(s) : t('no_timer')))),
    h('p', { class: 'note' }, t('turn_timer_note', { n: turnBounds.default_takeover_after })));
  const visibility = h('div', { class: 'row visibility', 'data-table-only': '' },
    h('label', { for: 'visibility' }, t('who_can_join')),
    h('select', { id: 'visibility', name: 'visibility' },
      ['unlisted', 'public', 'private'].map((v) => h('option', { value: v }, t(`visibility_${v}`)))));
  const practice = h('details', { class: 'practice', 'data-table-only': '' }, h('summary', {}, t('practice_game')),
    h('label', { for: 'seed' }, t('seed_label')),
    h('input', { id: 'seed', name: 'seed', pattern: '[0-9a-fA-F]{64}', placeholder: '64 hex digits', autocomplete: 'off' }),
    h('p', { class: 'note' }, t('practice_note')));
  details.replaceChildren(
    h('div', { class: 'row' }, h('label', { for: 'variant' }, t('variant')), select),
    h('p', { class: 'note variant-summary' }, (rulesOf(kind.kind, variant.name) || [''])[0]),
    h('div', { class: 'row' }, h('label', { for: 'seat-count' }, t('players')), count),
    h('p', { class: 'note', 'data-quick-only': '' }, t('quick_match_seats')),
    seats, visibility, options, timer, practice,
    h('p', {}, h('a', { href: `#/help/${kind.kind}/${variant.name}` }, t('read_rules'))));
  drawSeats();
}

/** The rows of a table of `n` at `kind`: you in the first seat, a person or a computer player
 * in each other, each labelled by its team where there are teams.
 * @param {Api<'KindInfo'>} kind @param {number} n */
function seatRows(kind, n) {
  const rows = [];
  for (let seat = 0; seat < n; seat++) {
    const id = `seat-${seat}`;
    let control;
    if (seat === 0) {
      control = h('span', { id }, t('you'));
    } else {
      control = h('select', { id, name: id },
        h('option', { value: '' }, t('a_person')),
        kind.levels.map((l) => h('option', { value: l.name, selected: l.name === kind.default_level }, t('computer_level', { level: levelName(l.name) }))));
    }
    // (At Basra the partnerships box decides whether the four are two teams: see showTeams.)
    const team = kind.kind === 'tarneeb' || (kind.kind === 'basra' && n === 4)
      ? h('span', { class: 'team' }, t('team_n', { n: (seat % 2) + 1 }))
      : null;
    rows.push(h('div', { class: 'seat-row' }, h('label', { for: id }, t('seat_n', { n: seat + 1 })), control, team));
  }
  return rows;
}

/** A quick match: the chosen game, variant, seat count and house rules, with whoever else is
 * looking for the same now; the page asks after the seek until it is matched (or the person
 * stops looking, or leaves the page).
 * @param {HTMLFormElement} form @param {Choice} choice
 * @param {HTMLButtonElement} quick @param {HTMLElement} looking */
async function quickMatch(form, choice, quick, looking) {
  if (!form.reportValidity()) return;
  /** @type {Seeking} */
  const current = { id: null, abort: new AbortController() };
  let stopped = false;
  const stopLooking = async () => {
    if (stopped) return;
    stopped = true;
    current.abort.abort();
    looking.hidden = true;
    quick.disabled = false;
    if (current.id) await api.cancelSeek(current.id).catch(() => {});
  };
  quick.disabled = true;
  try {
    await ensureNamedUser();
    // (Read after the name is settled, with the rest of the form. The form is drawn, so a
    // variant is chosen.)
    const { kind } = choice;
    const variant = /** @type {Api<'VariantInfo'>} */ (choice.variant);
    // (The catalogue's variant names are the API's VariantName.)
    const body = {
      kind: kind.kind, variant: /** @type {Api<'VariantName'>} */ (variant.name),
      players: Number(/** @type {HTMLSelectElement} */ (form.querySelector('#seat-count')).value),
      options: chosenRules(form, variant),
    };
    let seek = await api.seek(body);
    current.id = seek.id;
    const stop = h('button', { type: 'button', class: 'button ghost', id: 'stop-looking' }, t('stop_looking'));
    stop.addEventListener('click', stopLooking);
    looking.replaceChildren(t('looking'), ' ', stop);
    looking.hidden = false;
    while (!stopped && seek.status === 'open' && form.isConnected) {
      seek = await api.seekStatus(seek.id, 20, current.abort.signal);
    }
    if (seek.status === 'matched' && form.isConnected) {
      stopped = true;
      location.hash = `#/game/${seek.game_id}`;
    } else {
      await stopLooking();
    }
  } catch (error) {
    if (!api.calledOff(error)) complain(error);
    await stopLooking();
  }
}

/** Creates the game the form describes and goes to it; `root` is marked ready once answered.
 * @param {HTMLFormElement} form @param {Choice} choice
 * @param {HTMLButtonElement} create @param {HTMLElement} root */
async function createGame(form, choice, create, root) {
  if (!form.reportValidity()) return;
  create.disabled = true;
  try {
    await ensureNamedUser();
    // (Read after the name is settled, with the rest of the form. The form is drawn, so a
    // variant is chosen.)
    const { kind } = choice;
    const variant = /** @type {Api<'VariantInfo'>} */ (choice.variant);
    const n = Number(/** @type {HTMLSelectElement} */ (form.querySelector('#seat-count')).value);
    const seats = [];
    for (let seat = 0; seat < n; seat++) {
      const select = form.querySelector(`#seat-${seat}`);
      // (Every seat but the first, yours, is a select.)
      const level = seat === 0 ? '' : /** @type {HTMLSelectElement} */ (select).value;
      seats.push(level ? { bot: level } : {});
    }
    /** @type {Api<'CreateGame'>} */
    const body = {
      kind: kind.kind, variant: /** @type {Api<'VariantName'>} */ (variant.name), seats, options: chosenRules(form, variant),
    };
    const seed = /** @type {HTMLInputElement} */ (form.querySelector('#seed')).value.trim();
    if (seed) body.seed = seed;
    const seconds = Number(/** @type {HTMLSelectElement} */ (form.querySelector('#turn-seconds')).value);
    if (seconds) body.turn = { seconds };
    // (The visibility select offers `unlisted`, `public` and `private`.)
    const who = /** @type {Api<'Visibility'>} */ (/** @type {HTMLSelectElement} */ (form.querySelector('#visibility')).value);
    if (who !== 'unlisted') body.visibility = who;
    const created = await api.createGame(body);
    location.hash = `#/game/${created.id}`;
  } catch (error) {
    complain(error);
    create.disabled = false;
  }
  root.dataset.ready = 'true';
}

/** A game of yours in the lobby's list, marked when it is your turn.
 * @param {Api<'GameSummary'>} game @returns {HTMLLIElement} */
function gameRow(game) {
  const mine = game.your_seat;
  const yourTurn = game.status === 'active' && game.to_act === mine;
  const players = game.seats.map((s) => (s.seat === mine ? t('you') : botMarked(s) || (s.bot ? t('computer_level', { level: levelName(s.bot) }) : t('open_seat')))).join(t('list_comma'));
  return h('li', { class: `game-row${yourTurn ? ' your-turn' : ''}`, 'data-game': String(game.id) },
    h('a', { href: `#/game/${game.id}` },
      h('strong', {}, `${t(`kind_${game.kind}`)} · ${t(`variant_${game.kind}_${game.variant}`)}`),
      h('span', {}, players),
      h('span', { class: 'tag', 'data-status': game.status }, yourTurn ? t('your_turn') : t(`status_${game.status}`)),
      h('time', { datetime: game.updated_at }, when(game.updated_at))));
}

/** A seat's person's name, marked when the person is a bot account (a program).
 * @param {Api<'SeatInfo'> | Api<'LobbySeat'>} seat @returns {string | null} */
function botMarked(seat) {
  if (!seat.name) return null;
  return seat.bot_account ? `${seat.name} [${t('bot_tag')}]` : seat.name;
}

/** A public table in the lobby, with a button that takes its first open seat.
 * @param {Api<'OpenTable'>} table @returns {HTMLLIElement} */
function openTableRow(table) {
  const seats = table.seats.map((s) => {
    if (s.open) return t('open_seat');
    if (s.bot) return t('computer_level', { level: levelName(s.bot) });
    return s.rating ? `${botMarked(s)} (${Math.round(s.rating)})` : botMarked(s);
  }).join(t('list_comma'));
  const sit = h('button', { type: 'button', class: 'button primary sit-down', 'data-game': String(table.id) }, t('sit_down'));
  sit.addEventListener('click', async () => {
    sit.disabled = true;
    try {
      await ensureNamedUser();
      await api.joinGame(table.id);
      location.hash = `#/game/${table.id}`;
    } catch (error) {
      if (api.refusalCode(error) === 'already_seated') {
        location.hash = `#/game/${table.id}`;
        return;
      }
      complain(error);
      sit.disabled = false;
    }
  });
  return h('li', { class: 'game-row open-table', 'data-game': String(table.id) },
    h('strong', {}, `${t(`kind_${table.kind}`)} · ${t(`variant_${table.kind}_${table.variant}`)}`),
    h('span', {}, seats),
    h('span', { class: 'tag' }, t('open_seats_n', { n: table.open_seats })),
    h('span', { class: 'tag rated-tag' }, ratedText(table.rated)),
    table.turn ? h('span', { class: 'tag' }, timerText(table.turn.seconds)) : null,
    sit);
}

/** A public game being played, with a link to watch it.
 * @param {Api<'LiveTable'>} game @returns {HTMLLIElement} */
function liveRow(game) {
  const seats = game.seats.map((s) => (s.bot ? t('computer_level', { level: levelName(s.bot) }) : botMarked(s))).join(t('list_comma'));
  const link = h('a', { href: `#/game/${game.id}` },
    h('strong', {}, `${t(`kind_${game.kind}`)} · ${t(`variant_${game.kind}_${game.variant}`)}`),
    h('span', {}, seats),
    h('span', { class: 'tag watch' }, t('watch')));
  // Watching needs no account; a name typed in the lobby is who one watches as (to chat).
  link.addEventListener('click', async (event) => {
    const typed = /** @type {HTMLInputElement | null} */ (document.getElementById('player-name'))?.value.trim();
    if (!typed || api.currentUser()) return;
    event.preventDefault();
    try {
      await ensureNamedUser();
      location.hash = `#/game/${game.id}`;
    } catch (error) {
      complain(error);
    }
  });
  return h('li', { class: 'game-row live-game', 'data-game': String(game.id) }, link);
}

/** The lobby's live listing (an EventSource), while the lobby is shown.
 * @type {EventSource | null} */
let lobbyEvents = null;

/** Stops following the lobby (the page shows something else). */
export function leaveLobby() {
  lobbyEvents?.close();
  lobbyEvents = null;
}

/** The lobby's open tables: public tables waiting for players, the longest-waiting first,
 * kept up to date as tables open, fill and close (the lobby's event stream). */
async function openTables() {
  const tournaments = tournamentsPanel();
  const list = h('div', { class: 'open-table-list' });
  const live = h('div', { class: 'live-list' });
  const box = h('section', { class: 'panel open-tables' },
    h('h2', {}, t('open_tables')), h('p', { class: 'note' }, t('open_tables_note')), list,
    h('h3', {}, t('live_games')), live);
  // What each list last drew: a listing that brings no change to a list leaves it as it is, so
  // a link being clicked is not swapped for an identical new one under the pointer (the stream's
  // first listing, right after the page's own, used to take a visitor's click on a tournament).
  /** @type {Record<string, string>} */
  const drawn = {};
  /** @param {string} part @param {unknown} data */
  const changed = (part, data) => {
    const now = JSON.stringify(data);
    if (drawn[part] === now) return false;
    drawn[part] = now;
    return true;
  };
  /** @param {Api<'Lobby'>} data */
  const draw = (data) => {
    if (changed('tournaments', data.tournaments || [])) tournaments.draw(data.tournaments || []);
    if (changed('tables', data.tables)) {
      list.replaceChildren(data.tables.length
        ? h('ul', { class: 'games' }, data.tables.map(openTableRow))
        : h('p', { class: 'note empty' }, t('no_open_tables')));
    }
    if (changed('playing', data.playing || [])) {
      live.replaceChildren((data.playing || []).length
        ? h('ul', { class: 'games' }, data.playing.map(liveRow))
        : h('p', { class: 'note empty' }, t('no_live_games')));
    }
  };
  try {
    draw(await api.lobby());
  } catch (error) {
    list.replaceChildren(h('p', { class: 'error' }, problemText(error)));
  }
  leaveLobby();
  if (typeof EventSource === 'function') {
    lobbyEvents = new EventSource('/api/v1/lobby');
    lobbyEvents.addEventListener('lobby', (event) => {
      if (!box.isConnected) {
        leaveLobby();
        return;
      }
      try {
        draw(JSON.parse(event.data));
      } catch {
        // A listing that does not parse: keep the last one.
      }
    });
  }
  return [tournaments.box, box];
}

async function gamesList() {
  const box = h('section', { class: 'panel my-games' }, h('h2', {}, t('my_games')));
  if (!api.currentUser()) {
    box.append(h('p', { class: 'note' }, t('no_games_yet')));
    return box;
  }
  let page = 1;
  const current = h('ul', { class: 'games' });
  const done = h('ul', { class: 'games' });
  const more = h('button', { type: 'button', class: 'button ghost more', hidden: true }, t('more'));
  const load = async () => {
    try {
      const data = await api.myGames(page);
      for (const game of data.games) {
        const over = game.status === 'finished' || game.status === 'abandoned';
        (over ? done : current).append(gameRow(game));
      }
      more.hidden = data.page * data.per_page >= data.total;
    } catch (error) {
      box.append(h('p', { class: 'error' }, problemText(error)));
    }
  };
  more.addEventListener('click', () => {
    page += 1;
    load();
  });
  await load();
  box.append(h('h3', {}, t('in_progress')), current, h('h3', {}, t('finished_games')), done, more);
  // The account's stream says when a game starts, waits for you, or ends: the list follows.
  let reloading = Promise.resolve();
  let pending = false;
  const stop = onAccountEvent((event) => {
    if (!box.isConnected) {
      stop();
      return;
    }
    // (What waits for the account when its stream opens comes without ids: the list just
    // loaded shows it already. News comes with ids, often several at once: one reload for them.)
    if (event.id === undefined || !['game_started', 'your_turn', 'game_over'].includes(event.type)) return;
    if (pending) return;
    pending = true;
    reloading = reloading.then(async () => {
      pending = false;
      const shown = page;
      // The pages are read first and drawn at once: the list never shows empty meanwhile.
      const rows = [];
      for (let n = 1; n <= shown; n++) {
        try {
          rows.push(...(await api.myGames(n)).games);
        } catch {
          return;
        }
      }
      current.replaceChildren();
      done.replaceChildren();
      for (const game of rows) {
        const over = game.status === 'finished' || game.status === 'abandoned';
        (over ? done : current).append(gameRow(game));
      }
    });
  });
  return box;
}

/** The lobby in `root`, its new game form set to what `preset` names.
 * @param {HTMLElement} root @param {Preset} preset */
export async function showLobby(root, preset) {
  const all = await kinds();
  const redraw = () => showLobby(root, preset);
  root.replaceChildren(
    h('div', { class: 'lobby' },
      h('h1', {}, t('welcome')),
      h('p', { class: 'lead' }, t('tagline')),
      identityPanel(redraw),
      api.currentUser() ? await challengesPanel() : null,
      await openTables(),
      newGameForm(all, preset, root),
      await gamesList()));
}
