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

/** The catalogue's turn-timer bounds, once loaded. */
let turnBounds = { min_seconds: 5, max_seconds: 86400, default_takeover_after: 3 };

async function kinds() {
  const catalogue = await api.knownCatalogue();
  turnBounds = catalogue.turn;
  return catalogue.kinds;
}

/** The timers offered: none, blitz to correspondence. */
const TIMERS = [0, 15, 30, 60, 120, 300, 3600, 86400];

function newGameForm(all, preset, root) {
  const form = h('form', { class: 'panel new-game', id: 'new-game' });
  const kindField = h('fieldset', { class: 'kinds' }, h('legend', {}, t('choose_game')));
  let kind = all.find((k) => k.kind === preset.kind) || all[0];
  for (const k of all) {
    const id = `kind-${k.kind}`;
    const radio = h('input', { type: 'radio', name: 'kind', id, value: k.kind, checked: k === kind });
    radio.addEventListener('change', () => {
      kind = k;
      variantChanged(null);
    });
    kindField.append(h('label', { for: id, class: 'kind-choice' }, radio,
      h('strong', {}, t(`kind_${k.kind}`)), h('span', {}, t(`summary_${k.kind}`))));
  }
  form.append(kindField);

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
  const quickMode = () => form.querySelector('#mode-quick').checked;
  const showMode = () => {
    const q = quickMode();
    for (const node of form.querySelectorAll('[data-table-only]')) node.hidden = q;
    for (const node of form.querySelectorAll('[data-quick-only]')) node.hidden = !q;
    create.hidden = q;
    quick.hidden = !q;
  };
  for (const radio of modes.querySelectorAll('input')) radio.addEventListener('change', showMode);

  let variant;
  const variantChanged = (name) => {
    variant = kind.variants.find((v) => v.name === name) || kind.variants.find((v) => v.default) || kind.variants[0];
    const select = h('select', { id: 'variant', name: 'variant' },
      kind.variants.map((v) => h('option', { value: v.name, selected: v === variant }, t(`variant_${kind.kind}_${v.name}`))));
    select.addEventListener('change', () => variantChanged(select.value));
    const count = h('select', { id: 'seat-count', name: 'seats' },
      variant.seats.map((n) => h('option', { value: String(n) }, t('n_players', { n }))));
    const seats = h('div', { class: 'seat-rows', 'data-table-only': '' });
    const drawSeats = () => {
      const n = Number(count.value);
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
        const team = kind.kind === 'tarneeb' || (kind.kind === 'basra' && n === 4)
          ? h('span', { class: 'team' }, t('team_n', { n: (seat % 2) + 1 }))
          : null;
        rows.push(h('div', { class: 'seat-row' }, h('label', { for: id }, t('seat_n', { n: seat + 1 })), control, team));
      }
      seats.replaceChildren(...rows);
      // Partnerships are a choice only where there are four to pair.
      for (const node of form.querySelectorAll('[data-needs-four]')) node.hidden = n !== 4;
    };
    count.addEventListener('change', drawSeats);
    const options = houseRulesFieldset(variant);
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
    showMode();
  };
  variantChanged(preset.variant);

  /** The chosen house rules, as the API wants them (defaults left out). */
  const chosenOptions = () => chosenRules(form, variant);

  // Quick match: the chosen game, variant, seat count and house rules, with whoever else is
  // looking for the same now; the page asks after the seek until it is matched.
  let seeking = null;
  const stopLooking = async () => {
    const current = seeking;
    seeking = null;
    current?.abort.abort();
    looking.hidden = true;
    quick.disabled = false;
    if (current?.id) await api.cancelSeek(current.id).catch(() => {});
  };
  quick.addEventListener('click', async () => {
    if (!form.reportValidity()) return;
    quick.disabled = true;
    try {
      await ensureNamedUser();
      const body = {
        kind: kind.kind, variant: variant.name, players: Number(form.querySelector('#seat-count').value),
        options: chosenOptions(),
      };
      const current = { id: null, abort: new AbortController() };
      seeking = current;
      let seek = await api.seek(body);
      current.id = seek.id;
      const stop = h('button', { type: 'button', class: 'button ghost', id: 'stop-looking' }, t('stop_looking'));
      stop.addEventListener('click', stopLooking);
      looking.replaceChildren(t('looking'), ' ', stop);
      looking.hidden = false;
      while (seeking === current && seek.status === 'open' && form.isConnected) {
        seek = await api.seekStatus(seek.id, 20, current.abort.signal);
      }
      if (seek.status === 'matched' && form.isConnected) {
        seeking = null;
        location.hash = `#/game/${seek.game_id}`;
      } else if (seeking === current) {
        await stopLooking();
      }
    } catch (error) {
      if (error.name !== 'AbortError') complain(error);
      await stopLooking();
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    create.disabled = true;
    try {
      await ensureNamedUser();
      const n = Number(form.querySelector('#seat-count').value);
      const seats = [];
      for (let seat = 0; seat < n; seat++) {
        const select = form.querySelector(`#seat-${seat}`);
        const level = seat === 0 ? '' : select.value;
        seats.push(level ? { bot: level } : {});
      }
      const body = { kind: kind.kind, variant: variant.name, seats, options: chosenOptions() };
      const seed = form.querySelector('#seed').value.trim();
      if (seed) body.seed = seed;
      const seconds = Number(form.querySelector('#turn-seconds').value);
      if (seconds) body.turn = { seconds };
      const who = form.querySelector('#visibility').value;
      if (who !== 'unlisted') body.visibility = who;
      const created = await api.createGame(body);
      location.hash = `#/game/${created.id}`;
    } catch (error) {
      complain(error);
      create.disabled = false;
    }
    root.dataset.ready = 'true';
  });
  return form;
}

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

/** A seat's person's name, marked when the person is a bot account (a program). */
function botMarked(seat) {
  if (!seat.name) return null;
  return seat.bot_account ? `${seat.name} [${t('bot_tag')}]` : seat.name;
}

/** A public table in the lobby, with a button that takes its first open seat. */
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
      if (error.code === 'already_seated') {
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

/** A public game being played, with a link to watch it. */
function liveRow(game) {
  const seats = game.seats.map((s) => (s.bot ? t('computer_level', { level: levelName(s.bot) }) : botMarked(s))).join(t('list_comma'));
  const link = h('a', { href: `#/game/${game.id}` },
    h('strong', {}, `${t(`kind_${game.kind}`)} · ${t(`variant_${game.kind}_${game.variant}`)}`),
    h('span', {}, seats),
    h('span', { class: 'tag watch' }, t('watch')));
  // Watching needs no account; a name typed in the lobby is who one watches as (to chat).
  link.addEventListener('click', async (event) => {
    const typed = document.getElementById('player-name')?.value.trim();
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

/** The lobby's live listing (an EventSource), while the lobby is shown. */
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
  const draw = (data) => {
    tournaments.draw(data.tournaments || []);
    list.replaceChildren(data.tables.length
      ? h('ul', { class: 'games' }, data.tables.map(openTableRow))
      : h('p', { class: 'note empty' }, t('no_open_tables')));
    live.replaceChildren((data.playing || []).length
      ? h('ul', { class: 'games' }, data.playing.map(liveRow))
      : h('p', { class: 'note empty' }, t('no_live_games')));
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
