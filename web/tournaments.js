// Tournaments: the lobby's list (upcoming, running, finished — kept current by the lobby's
// stream) and a tournament's page (#/tournament/ID or #/tournament/ID/CODE): the countdown,
// Join and Withdraw, your table now, the standings and every round's tables with their results
// (duplicate: each seat's matchpoints; team matches: the teams, and each match's two tables
// side by side with the board's result), all following the tournament's event stream.

import * as api from './api.js';
import { t } from './i18n.js';
import { h, toast } from './ui.js';
import { onAccountEvent } from './account.js';

/** The stream the page follows now (one tournament at a time). */
let following = null;

export function leaveTournament() {
  following?.abort();
  following = null;
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');

/** "in 3:05" until `iso`, or "" once it has passed. */
function countdown(iso) {
  const left = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
  if (left <= 0) return '';
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, '0');
  const clock = hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
  return t('starts_in', { clock });
}

function gameName(tournament) {
  return `${t(`kind_${tournament.kind}`)} · ${t(`variant_${tournament.kind}_${tournament.variant}`)}`;
}

/** What a tournament is, in a few words: format, rounds or minutes, entrants. */
function shape(tournament) {
  const length = tournament.format === 'arena'
    ? t('arena_minutes', { n: tournament.minutes })
    : t('rounds_count', { n: tournament.rounds });
  const format = tournament.teams ? 'teams' : tournament.format;
  return `${t(`format_${format}`)} · ${length} · ${t('entrants_count', { n: tournament.entrants })}`;
}

function tournamentRow(tournament) {
  return h('li', { class: 'game-row tournament-row', 'data-status': tournament.status, 'data-id': String(tournament.id) },
    h('a', { href: `#/tournament/${tournament.id}` }, h('strong', {}, tournament.name)),
    h('span', {}, gameName(tournament)),
    h('span', { class: 'note' }, shape(tournament)),
    h('span', { class: 'tag' }, t(`tournament_${tournament.status}`)),
    tournament.status === 'upcoming'
      ? h('time', { datetime: tournament.starts_at }, when(tournament.starts_at))
      : null);
}

/** The lobby's tournaments panel; `draw(list)` fills it (the lobby's listing carries them). */
export function tournamentsPanel() {
  const list = h('div', { class: 'tournament-list' });
  const box = h('section', { class: 'panel tournaments' },
    h('h2', {}, t('tournaments')), h('p', { class: 'note' }, t('tournaments_note')), list);
  const draw = (tournaments) => {
    const groups = ['running', 'upcoming', 'finished']
      .map((status) => [status, tournaments.filter((x) => x.status === status)])
      .filter(([, items]) => items.length);
    list.replaceChildren(...(groups.length
      ? groups.flatMap(([status, items]) => [
        h('h3', {}, t(`tournaments_${status}`)),
        h('ul', { class: 'games' }, items.map(tournamentRow))])
      : [h('p', { class: 'note empty' }, t('no_tournaments'))]));
  };
  return { box, draw };
}

/** A signed number: "+15", "−3", "0". */
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

function standingsTable(tournament, me) {
  const swiss = tournament.format === 'swiss';
  const arena = tournament.format === 'arena';
  const { teams } = tournament;
  const matchpoints = tournament.format === 'duplicate' && !teams;
  const points = (x) => (matchpoints ? `${x.toFixed(1)}%` : String(x));
  return h('table', { class: 'records standings' },
    h('thead', {}, h('tr', {},
      h('th', {}, '#'), teams ? h('th', {}, t('team')) : null, h('th', {}, t('player')),
      h('th', {}, t(matchpoints ? 'matchpoints' : 'points')),
      teams ? h('th', {}, t('boards_total')) : null,
      h('th', {}, t('games_played')),
      swiss ? h('th', {}, t('buchholz')) : null,
      arena ? h('th', {}, t('streak')) : null)),
    h('tbody', {}, tournament.standings.map((line) => h('tr', {
      'data-entrant': String(line.entrant_id),
      class: line.name === me ? 'me' : null,
    },
    h('td', {}, String(line.rank)),
    teams ? h('td', { class: 'team-number' }, line.team ? String(line.team) : '') : null,
    h('th', {}, line.name, line.withdrawn ? h('span', { class: 'tag' }, t('withdrawn')) : null),
    h('td', { class: 'points' }, points(line.points)),
    teams ? h('td', { class: 'points' }, signed(line.difference ?? 0)) : null,
    h('td', {}, String(line.games)),
    swiss ? h('td', {}, String(line.buchholz ?? 0)) : null,
    arena ? h('td', {}, line.streak >= 2 ? `${line.streak} 🔥` : String(line.streak ?? 0)) : null))));
}

/** Team matches: each team's two pairs, as drawn (yours marked). */
function teamsList(tournament, me) {
  const teams = new Map();
  for (const player of tournament.players) {
    if (!player.team) continue;
    if (!teams.has(player.team)) teams.set(player.team, [[], []]);
    teams.get(player.team)[player.pair - 1].push(player);
  }
  // (Every pair was drawn with a person; a short one's other seat is a computer player.)
  const pair = (members) => [
    ...members.map((p) => p.name + (p.withdrawn ? ` (${t('withdrawn')})` : '')),
    ...(members.length < 2 ? [t('computer_player')] : []),
  ].join(' & ');
  return h('ul', { class: 'games team-list' }, [...teams].sort(([a], [b]) => a - b).map(([team, pairs]) => h('li', {
    'data-team': String(team),
    class: pairs.flat().some((p) => p.name === me) ? 'game-row me' : 'game-row',
  }, h('strong', {}, t('team_n', { n: team })),
  h('span', {}, t('pair_one'), ' ', pair(pairs[0])),
  h('span', {}, t('pair_two'), ' ', pair(pairs[1])))));
}

function tableResult(tournament, table) {
  const duplicate = tournament.format === 'duplicate' && !tournament.teams;
  const outcome = (seat) => {
    if (seat.place === null || seat.place === undefined) return null;
    if (tournament.teams) return ` (${signed(seat.result ?? 0)})`;
    const mark = duplicate ? `${(seat.matchpoints ?? 0).toFixed(0)}%` : t('place_n', { n: seat.place + 1 });
    return ` (${mark}${seat.result === null ? '' : `, ${seat.result}`})`;
  };
  return h('li', { class: 'game-row table-result', 'data-game': String(table.game_id) },
    h('a', { href: `#/game/${table.game_id}` }, t('table_game', { id: table.game_id })),
    h('span', {}, table.seats.map((seat) => h('span', { class: 'seat-result' }, seat.name, outcome(seat)))
      .flatMap((node, i) => (i ? [' · ', node] : [node]))),
    h('span', { class: 'tag' }, t(table.over ? 'table_over' : 'table_playing')));
}

/** Team matches: a round's tables two by two (a match's tables play one board), each match
 * with every team's result on the board once both tables are over. */
function matchesOf(tournament, round) {
  const team = new Map(tournament.players.map((p) => [p.entrant_id, p.team]));
  const byId = new Map(round.tables.map((table) => [table.game_id, table]));
  const done = new Set();
  const matches = [];
  for (const table of round.tables) {
    if (done.has(table.game_id)) continue;
    const other = byId.get(table.match_game_id);
    const both = other ? [table, other] : [table];
    both.forEach((x) => done.add(x.game_id));
    const boards = new Map();
    for (const seat of both.flatMap((x) => x.seats)) {
      if (seat.board !== null && seat.board !== undefined) boards.set(team.get(seat.entrant_id), seat.board);
    }
    matches.push(h('li', { class: 'team-match' },
      h('p', { class: 'board-result' }, boards.size
        ? [...boards].sort(([a], [b]) => a - b).map(([n, board]) => `${t('team_n', { n })} ${signed(board)}`).join(' · ')
        : t('board_pending')),
      h('ul', { class: 'games' }, both.map((x) => tableResult(tournament, x)))));
  }
  return h('ul', { class: 'matches' }, matches);
}

function roundsList(tournament) {
  const names = new Map(tournament.players.map((p) => [p.entrant_id, p.name]));
  return [...tournament.round_tables].reverse().map((round) => h('section', { class: 'round', 'data-round': String(round.round) },
    h('h3', {}, t('round_n', { n: round.round })),
    tournament.teams
      ? matchesOf(tournament, round)
      : h('ul', { class: 'games' }, round.tables.map((table) => tableResult(tournament, table))),
    round.byes.length
      ? h('p', { class: 'note' }, t('byes', { names: round.byes.map((id) => names.get(id) || '').join(', ') }))
      : null));
}

function page(root, tournament, code, redraw) {
  const me = (api.currentUser() || {}).name;
  const open = tournament.status === 'upcoming'
    || (tournament.status === 'running' && tournament.format === 'arena' && new Date(tournament.ends_at) > new Date());
  const act = async (path, body) => {
    try {
      await api.ensureUser();
      redraw(await api.request('POST', `/tournaments/${tournament.id}/${path}`, body));
    } catch (error) {
      toast(error.message, 'error');
    }
  };
  const join = open && !tournament.joined
    ? h('button', { type: 'button', class: 'button primary', id: 'tournament-join' }, t('join_tournament'))
    : null;
  join?.addEventListener('click', () => act('join', code ? { code } : {}));
  const leave = tournament.joined && ['upcoming', 'running'].includes(tournament.status)
    ? h('button', { type: 'button', class: 'button ghost', id: 'tournament-withdraw' }, t('withdraw'))
    : null;
  leave?.addEventListener('click', () => act('withdraw'));
  const clock = h('p', { class: 'countdown', 'aria-live': 'off' });
  const tick = () => {
    if (!clock.isConnected && clock.dataset.shown) return;
    clock.dataset.shown = '1';
    clock.textContent = tournament.status === 'upcoming'
      ? countdown(tournament.starts_at) || t('starting_now')
      : tournament.status === 'running' && tournament.ends_at
        ? t('ends_at', { time: when(tournament.ends_at) })
        : '';
    if (tournament.status === 'upcoming' || tournament.ends_at) setTimeout(tick, 1000);
  };
  tick();
  const yours = tournament.your_table
    ? h('section', { class: 'panel your-table' },
      h('h2', {}, t('your_table')),
      h('p', {}, t('round_n', { n: tournament.your_table.round })),
      h('a', { href: `#/game/${tournament.your_table.game_id}`, class: 'button primary', id: 'your-table' }, t('go_to_table')))
    : null;
  root.replaceChildren(h('div', { class: 'tournament', 'data-status': tournament.status, 'data-id': String(tournament.id) },
    h('h1', {}, tournament.name),
    h('p', { class: 'lead' }, gameName(tournament), ' · ', shape(tournament)),
    h('p', {}, h('span', { class: 'tag status' }, t(`tournament_${tournament.status}`)), ' ',
      tournament.status === 'upcoming' ? t('starts_at', { time: when(tournament.starts_at) }) : null),
    clock,
    tournament.code ? h('p', { class: 'note' }, t('tournament_link'), ' ',
      h('code', {}, `${location.origin}/#/tournament/${tournament.id}/${tournament.code}`)) : null,
    h('p', {}, join, leave, tournament.joined ? h('span', { class: 'note' }, t('you_are_in')) : null),
    yours,
    tournament.teams && tournament.players.some((p) => p.team)
      ? h('section', { class: 'panel teams' }, h('h2', {}, t('teams')), teamsList(tournament, me))
      : null,
    h('section', { class: 'panel' }, h('h2', {}, t('standings')),
      tournament.standings.length ? standingsTable(tournament, me) : h('p', { class: 'note empty' }, t('no_entrants'))),
    tournament.round_tables.length
      ? h('section', { class: 'panel rounds' }, h('h2', {}, t('pairings')), roundsList(tournament))
      : null,
    h('p', {}, h('a', { href: '#/', class: 'button' }, t('lobby')))));
}

/** Follows the tournament's event stream (SSE over fetch, which can send the token): each
 * `tournament` event redraws the page. Ends when another page is shown, or when the token is
 * no longer good (it expired or was revoked: the stream's `stream_end`, or a 401 on opening). */
function follow(id, code, redraw) {
  leaveTournament();
  const abort = new AbortController();
  following = abort;
  const query = code ? `?code=${encodeURIComponent(code)}` : '';
  (async () => {
    while (following === abort) {
      try {
        const response = await fetch(`/api/v1/tournaments/${id}${query}`, {
          headers: { Authorization: `Bearer ${api.currentToken()}`, Accept: 'text/event-stream' },
          signal: abort.signal,
        });
        // (The token expired or was revoked, which also ends a stream: nothing to follow with.)
        if (response.status === 401) return;
        if (!response.ok || !response.body) throw new Error(`stream: ${response.status}`);
        for await (const block of api.pieces(response, '\n\n')) {
          const lines = block.split('\n');
          const kind = (lines.find((l) => l.startsWith('event:')) || '').slice(6).trim();
          const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          // (Not after the page has moved on: the stream is this page's only.)
          if (following === abort && kind === 'tournament' && data) redraw(JSON.parse(data));
          // (Its token is no longer good: asking again would only be refused.)
          if (kind === 'stream_end') return;
        }
      } catch (error) {
        if (error.name === 'AbortError') return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
}

export async function showTournament(root, id, code) {
  await api.ensureUser();
  const shown = location.hash;
  const redraw = (tournament) => {
    // (An answer that comes after the address changed belongs to no page now.)
    if (location.hash !== shown) return;
    page(root, tournament, code, redraw);
  };
  redraw(await api.request('GET', `/tournaments/${id}${code ? `?code=${encodeURIComponent(code)}` : ''}`));
  follow(id, code, redraw);
}

/** A table of yours in a tournament is ready: said wherever you are; from the tournament's page
 * it takes you there. */
onAccountEvent((event) => {
  if (event.type !== 'tournament_game' || event.id === undefined) return;
  if (location.hash.startsWith(`#/tournament/${event.tournament_id}`)) location.hash = `#/game/${event.game_id}`;
  else if (!location.hash.startsWith('#/game/')) toast(t('tournament_table_ready', { round: event.round }));
});
