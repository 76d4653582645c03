// A tournament's parts as the page draws them, from the API's answer alone: its standings, its
// teams, every round's tables and results (duplicate: each board's results side by side; team
// matches: each match's two tables), the podium, why it was cancelled, and what comes next for
// the one reading — the sentence a finished table shows between rounds too.

import { t, tn, num, signedNum, when, clock } from './i18n.js';
import { h } from './ui.js';
import { houseRulesText } from './house_rules.js';
import { levelName, timerText } from './names.js';

/**
 * A tournament's terms as termsLines reads them: a tournament as the API answers it, or the
 * tournament form's description of the one it would make.
 * @typedef {{
 *   format: Api<'TournamentFormat'>, teams?: boolean | null, kind: Api<'GameKind'>, variant?: Api<'VariantName'> | null,
 *   seats: number, options?: Record<string, Api<'OptionValue'>>, rounds?: number | null, minutes?: number | null,
 *   starts_at?: string | null, fill?: string | null, turn: Api<'TurnPolicy'>, rated?: boolean | null,
 *   private?: boolean | null,
 * }} Terms
 */

/** The game and variant of its tables, in words.
 * @param {Api<'TournamentSummary'>} tournament */
export function gameName(tournament) {
  return `${t(`kind_${tournament.kind}`)} · ${t(`variant_${tournament.kind}_${tournament.variant}`)}`;
}

/** The format's name: team matches are a duplicate of their own.
 * @param {Api<'TournamentSummary'>} tournament */
export function formatName(tournament) {
  return t(`format_${tournament.teams ? 'teams' : tournament.format}`);
}

/** What a tournament is, in a few words: format, rounds or minutes, entrants.
 * @param {Api<'TournamentSummary'>} tournament */
export function shape(tournament) {
  // (An arena always has its minutes and the others their rounds: the server sets the one the
  // format takes when it makes the tournament, api/src/play/tournaments/making.rs.)
  const length = tournament.format === 'arena'
    ? tn('arena_minutes', /** @type {number} */ (tournament.minutes))
    : tn('rounds_count', /** @type {number} */ (tournament.rounds));
  return `${formatName(tournament)} · ${length} · ${tn('entrants_count', tournament.entrants)}`;
}

/** @param {number} x */
const matchpointFormat = (x) => num(x / 100, { style: 'percent', maximumFractionDigits: 1 });

/** The entrant line of the reader, by name.
 * @param {Api<'Tournament'>} tournament @param {string | undefined} me */
export function mine(tournament, me) {
  return me ? tournament.players.find((p) => p.name === me && !p.withdrawn) : undefined;
}

/** The standings as a table (the reader's line marked).
 * @param {Api<'Tournament'>} tournament @param {string | undefined} me */
export function standingsTable(tournament, me) {
  const swiss = tournament.format === 'swiss';
  const arena = tournament.format === 'arena';
  const { teams } = tournament;
  const matchpoints = tournament.format === 'duplicate' && !teams;
  /** @param {number} x */
  const points = (x) => (matchpoints ? matchpointFormat(x) : num(x));
  return h('table', { class: 'records standings' },
    h('caption', { class: 'visually-hidden' }, t('standings')),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('rank')), teams ? h('th', { scope: 'col' }, t('team')) : null, h('th', { scope: 'col' }, t('player')),
      h('th', { scope: 'col' }, t(matchpoints ? 'matchpoints' : 'points')),
      teams ? h('th', { scope: 'col' }, t('boards_total')) : null,
      h('th', { scope: 'col' }, t('games_played')),
      swiss ? h('th', { scope: 'col' }, t('buchholz')) : null,
      arena ? h('th', { scope: 'col' }, t('streak')) : null)),
    h('tbody', {}, tournament.standings.map((line) => h('tr', {
      'data-entrant': String(line.entrant_id),
      class: line.name === me ? 'me' : null,
    },
    h('td', {}, num(line.rank)),
    teams ? h('td', { class: 'team-number' }, line.team ? num(line.team) : '') : null,
    h('th', { scope: 'row' }, h('bdi', {}, line.name), line.withdrawn ? h('span', { class: 'tag' }, t('withdrawn')) : null),
    h('td', { class: 'points', 'data-value': String(line.points) }, points(line.points)),
    teams ? h('td', { class: 'points' }, signedNum(line.difference ?? 0)) : null,
    h('td', { 'data-value': String(line.games) }, num(line.games)),
    swiss ? h('td', {}, num(line.buchholz ?? 0)) : null,
    // (Words, not an emoji: the page needs no emoji font.)
    arena ? h('td', {}, num(line.streak ?? 0), (line.streak ?? 0) >= 2 ? h('span', { class: 'tag on-fire' }, t('on_fire')) : null) : null))));
}

/** The entrants, in the order they joined (an upcoming tournament has no standings yet).
 * @param {Api<'Tournament'>} tournament @param {string | undefined} me */
export function entrantsList(tournament, me) {
  const active = tournament.players.filter((p) => !p.withdrawn);
  if (!active.length) return h('p', { class: 'note empty' }, t('no_entrants'));
  return h('ol', { class: 'entrants' }, active.map((p) => h('li', { class: p.name === me ? 'me' : null, 'data-entrant': String(p.entrant_id) },
    h('bdi', {}, p.name), p.name === me ? h('span', { class: 'tag' }, t('you')) : null,
    p.bot ? h('span', { class: 'tag bot-account' }, t('bot_tag')) : null)));
}

/** A team's two pairs, as drawn.
 * @typedef {[Api<'TournamentEntrant'>[], Api<'TournamentEntrant'>[]]} TeamPairs */

/** Team matches: each team's two pairs, as drawn (yours marked).
 * @param {Api<'Tournament'>} tournament @param {string | undefined} me */
export function teamsList(tournament, me) {
  /** Each team's two pairs, by team number.
   * @type {Map<number, TeamPairs>} */
  const teams = new Map();
  for (const player of tournament.players) {
    if (!player.team) continue;
    if (!teams.has(player.team)) teams.set(player.team, [[], []]);
    // (Set just above; and an entrant drawn into a team always has its pair: the draw writes
    // both, db/src/tournaments/mod.rs draw_teams.)
    /** @type {TeamPairs} */ (teams.get(player.team))[/** @type {number} */ (player.pair) - 1].push(player);
  }
  // (Every pair was drawn with a person; a short one's other seat is a computer player.)
  /** @param {Api<'TournamentEntrant'>[]} members */
  const pair = (members) => [
    ...members.map((p) => p.name + (p.withdrawn ? ` (${t('withdrawn')})` : '')),
    ...(members.length < 2 ? [t('computer_player')] : []),
  ].join(t('pair_and'));
  return h('ul', { class: 'games team-list' }, [...teams].sort(([a], [b]) => a - b).map(([team, pairs]) => h('li', {
    'data-team': String(team),
    class: pairs.flat().some((p) => p.name === me) ? 'game-row me' : 'game-row',
  }, h('strong', {}, t('team_n', { n: team })),
  h('span', {}, t('pair_one'), ' ', pair(pairs[0])),
  h('span', {}, t('pair_two'), ' ', pair(pairs[1])))));
}

/** How an entrant did at a table, in words: "place 1, score 36", "score 36, 75%".
 * @param {Api<'Tournament'>} tournament @param {Api<'TournamentSeat'>} seat */
function outcome(tournament, seat) {
  if (seat.place === null || seat.place === undefined) return null;
  if (tournament.teams) return t('seat_result_margin', { margin: signedNum(seat.result ?? 0) });
  if (tournament.format === 'duplicate') {
    return t('seat_result_mp', { score: seat.result ?? 0, mp: matchpointFormat(seat.matchpoints ?? 0) });
  }
  return seat.result === null || seat.result === undefined
    ? t('seat_result_place_only', { place: seat.place + 1 })
    : t('seat_result_place', { place: seat.place + 1, score: seat.result });
}

/** A table of a round, with how each entrant at it did.
 * @param {Api<'Tournament'>} tournament @param {Api<'TournamentTable'>} table */
function tableResult(tournament, table) {
  return h('li', { class: 'game-row table-result', 'data-game': String(table.game_id) },
    h('a', { href: `#/game/${table.game_id}` }, t('table_game', { id: table.game_id })),
    h('span', {}, table.seats.map((seat) => {
      const how = outcome(tournament, seat);
      return h('span', { class: 'seat-result' }, h('bdi', {}, seat.name), how ? ` (${how})` : null);
    }).flatMap((node, i) => (i ? [t('list_comma'), node] : [node]))),
    h('span', { class: 'tag' }, t(table.over ? 'table_over' : 'table_playing')));
}

/** Team matches: a round's tables two by two (a match's tables play one board), each match
 * with every team's result on the board once both tables are over.
 * @param {Api<'Tournament'>} tournament @param {Api<'TournamentRound'>} round */
function matchesOf(tournament, round) {
  const team = new Map(tournament.players.map((p) => [p.entrant_id, p.team]));
  /** The round's tables by game (a table with no match looks up none, and finds none).
   * @type {Map<number | null | undefined, Api<'TournamentTable'>>} */
  const byId = new Map(round.tables.map((table) => [table.game_id, table]));
  /** @type {Set<number>} */
  const done = new Set();
  /** @type {HTMLLIElement[]} */
  const matches = [];
  for (const table of round.tables) {
    if (done.has(table.game_id)) continue;
    const other = byId.get(table.match_game_id);
    const both = other ? [table, other] : [table];
    both.forEach((x) => done.add(x.game_id));
    /** Each team's result on the board, by team number.
     * @type {Map<number, number>} */
    const boards = new Map();
    for (const seat of both.flatMap((x) => x.seats)) {
      // (A seat with a board's result is a team match's, whose every entrant has a team.)
      if (seat.board !== null && seat.board !== undefined) boards.set(/** @type {number} */ (team.get(seat.entrant_id)),
        seat.board);
    }
    matches.push(h('li', { class: 'team-match' },
      h('p', { class: 'board-result', 'data-boards': JSON.stringify([...boards].sort(([a], [b]) => a - b).map(([, b]) => b)) }, boards.size
        ? [...boards].sort(([a], [b]) => a - b).map(([n, board]) => `${t('team_n', { n })} ${signedNum(board)}`).join(t('list_comma'))
        : t('board_pending')),
      h('ul', { class: 'games' }, both.map((x) => tableResult(tournament, x)))));
  }
  return h('ul', { class: 'matches' }, matches);
}

/** Duplicate: a round's board with every table's result side by side, seat by seat — who sat
 * there, their score and their matchpoints against the others in that seat.
 * @param {Api<'Tournament'>} tournament @param {Api<'TournamentRound'>} round */
function boardTable(tournament, round) {
  const seats = Math.max(0, ...round.tables.flatMap((table) => table.seats.map((s) => s.seat + 1)));
  return h('div', { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-label': t('board_n', { n: round.round }) },
    h('table', { class: 'records board', 'data-round': String(round.round) },
      h('caption', {}, t('board_n', { n: round.round })),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('table')),
        ...Array.from({ length: seats }, (_, i) => h('th', { scope: 'col' }, t('seat_n', { n: i + 1 }))))),
      h('tbody', {}, round.tables.map((table) => h('tr', { 'data-game': String(table.game_id) },
        h('th', { scope: 'row' }, h('a', { href: `#/game/${table.game_id}` }, t('table_game', { id: table.game_id })),
          table.over ? null : h('span', { class: 'tag' }, t('table_playing'))),
        ...Array.from({ length: seats }, (_, i) => {
          const seat = table.seats.find((s) => s.seat === i);
          if (!seat) return h('td', { class: 'note' }, t('computer_player'));
          const how = outcome(tournament, seat);
          return h('td', {}, h('bdi', {}, seat.name), how ? h('span', { class: 'note' }, ` ${how}`) : null);
        }))))));
}

/** Every round paired, the latest first: its tables and results, and its byes.
 * @param {Api<'Tournament'>} tournament */
export function roundsList(tournament) {
  const names = new Map(tournament.players.map((p) => [p.entrant_id, p.name]));
  const duplicate = tournament.format === 'duplicate' && !tournament.teams;
  return [...tournament.round_tables].reverse().map((round) => h('section', { class: 'round', 'data-round': String(round.round) },
    h('h3', {}, t(tournament.format === 'arena' ? 'pairing_n' : 'round_n', { n: round.round })),
    tournament.teams
      ? matchesOf(tournament, round)
      : duplicate
        ? boardTable(tournament, round)
        : h('ul', { class: 'games' }, round.tables.map((table) => tableResult(tournament, table))),
    round.byes.length
      ? h('p', { class: 'note' }, t('byes', { names: round.byes.map((id) => names.get(id) || '').join(t('list_comma')) }))
      : null));
}

/** The names of the standings' first place (a team: its members).
 * @param {Api<'Tournament'>} tournament */
function firstPlace(tournament) {
  return tournament.standings.filter((line) => line.rank === 1).map((line) => line.name);
}

/** "A", "A and B", "A, B and C" in the page's language.
 * @param {string[]} names */
export function listText(names) {
  if (names.length <= 1) return names.join('');
  return t('list_and', { first: names.slice(0, -1).join(t('list_comma')), last: names[names.length - 1] });
}

/** A finished tournament's winner, in a sentence.
 * @param {Api<'Tournament'>} tournament */
export function winnerText(tournament) {
  const first = firstPlace(tournament);
  if (!first.length) return t('tournament_no_winner');
  if (tournament.teams) {
    const team = tournament.standings.find((line) => line.rank === 1)?.team;
    return t('tournament_team_won', { n: team, names: listText(first) });
  }
  return first.length === 1 ? t('tournament_won', { name: first[0] }) : t('tournament_shared_win', { names: listText(first) });
}

/** The podium: the first three places (teams once each).
 * @param {Api<'Tournament'>} tournament */
export function podium(tournament) {
  /** @type {{ key: string, rank: number, names: string[], points: number, team?: number | null }[]} */
  const places = [];
  for (const line of tournament.standings) {
    if (line.rank > 3 || (line.withdrawn && line.games === 0)) continue;
    const key = tournament.teams ? `team-${line.team}` : `entrant-${line.entrant_id}`;
    const found = places.find((p) => p.key === key);
    if (found) found.names.push(line.name);
    else places.push({ key, rank: line.rank, names: [line.name], points: line.points, team: line.team });
  }
  if (!places.length) return null;
  const matchpoints = tournament.format === 'duplicate' && !tournament.teams;
  return h('ol', { class: 'podium', 'aria-label': t('podium') }, places.map((p) => h('li', { 'data-rank': String(p.rank) },
    h('span', { class: `medal medal-${p.rank}`, 'aria-hidden': 'true' }, num(p.rank)),
    h('span', { class: 'visually-hidden' }, t('place_ordinal', { n: p.rank })),
    h('strong', {}, p.team ? `${t('team_n', { n: p.team })}: ` : '', h('bdi', {}, listText(p.names))),
    ' ', h('span', { class: 'note' }, matchpoints ? matchpointFormat(p.points) : tn('points_count', p.points)))));
}

/** Why a cancelled tournament was called off.
 * @param {Api<'TournamentSummary'>} tournament */
export function cancelledText(tournament) {
  const why = tournament.cancelled;
  if (!why) return t('cancelled_generic');
  if (why.cause === 'too_few_entrants') return t('cancelled_too_few');
  const who = t(why.cause === 'by_maker' ? 'cancelled_by_maker' : 'cancelled_by_admin');
  return why.note ? t('cancelled_with_reason', { who, reason: why.note }) : t('cancelled_plain', { who });
}

/**
 * What comes next for `me` (a name; none: a visitor), in a sentence: the table that waits for
 * them, how many tables the next round waits for, a bye, an arena's next pairing, the winner of
 * one that is over. None when there is nothing to say.
 * @param {Api<'Tournament'>} tournament @param {string | undefined} me
 * @returns {string | null}
 */
export function nextText(tournament, me) {
  if (tournament.status === 'cancelled') return cancelledText(tournament);
  if (tournament.status === 'finished') return `${t('tournament_over')} ${winnerText(tournament)}`;
  if (tournament.status !== 'running') return null;
  if (tournament.your_table) return t('your_table_ready', { n: tournament.your_table.round });
  const entrant = mine(tournament, me);
  const last = tournament.round_tables[tournament.round_tables.length - 1];
  if (tournament.format === 'arena') {
    const open = tournament.ends_at && new Date(tournament.ends_at) > new Date();
    if (!open) return t('arena_winding_up');
    return entrant ? t('arena_next_pairing', { time: clock(tournament.ends_at) }) : null;
  }
  if (!last) return null;
  const playing = last.tables.filter((table) => !table.over).length;
  // (Not an arena, so it has its rounds: see shape.)
  const more = tournament.round < /** @type {number} */ (tournament.rounds);
  const bye = entrant && last.byes.includes(entrant.entrant_id) ? `${t('you_have_a_bye', { n: last.round })} ` : '';
  if (playing) {
    return bye + (more
      ? tn('next_round_waits', playing, { round: last.round + 1 })
      : tn('last_round_waits', playing));
  }
  return bye + (more ? t('next_round_pairing', { round: last.round + 1 }) : t('results_counting'));
}

/** "in 2 h 10 min", "in 45 min", "now".
 * @param {Date} date */
function fromNow(date) {
  const minutes = Math.round((date.getTime() - Date.now()) / 60000);
  if (minutes <= 0) return t('starts_now');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return t('in_minutes', { n: rest });
  return rest ? t('in_hours_minutes', { h: hours, m: rest }) : t('in_hours', { n: hours });
}

/**
 * A tournament's terms in sentences — what an entrant gets: its format and length, the game at
 * its tables, every house rule, the start, empty seats, the timer, rated or not, private or
 * public. From a tournament as the API answers it (or a form's description of one);
 * `variant` is the catalogue's entry of its variant (for the house rules).
 * @param {Terms} terms @param {Api<'VariantInfo'> | undefined} variant
 */
export function termsLines(terms, variant) {
  const format = terms.teams ? 'teams' : terms.format;
  const lines = [
    format === 'arena'
      ? t('tf_says_arena', { minutes: tn('arena_minutes', /** @type {number} */ (terms.minutes)) })
      : t(`tf_says_${format}`, { rounds: tn('rounds_count', /** @type {number} */ (terms.rounds)) }),
    t('tf_says_game', { game: `${t(`kind_${terms.kind}`)} · ${t(`variant_${terms.kind}_${terms.variant}`)}`, n: terms.seats }),
    ...(variant ? houseRulesText(variant, terms.options || {}, terms.seats) : []),
    terms.starts_at
      ? t('tf_says_start', { time: when(terms.starts_at, { dateStyle: 'full', timeStyle: 'short' }), relative: fromNow(new Date(terms.starts_at)) })
      : t('tf_says_no_start'),
    terms.fill ? t('tf_says_fill', { level: levelName(terms.fill) }) : t(format === 'arena' ? 'tf_says_wait' : 'tf_says_bye'),
    t('tf_says_timer', { time: timerText(terms.turn.seconds), n: terms.turn.takeover_after }),
    t(terms.rated ? 'tf_says_rated' : 'tf_says_unrated'),
    t(terms.private ? 'tf_says_private' : 'tf_says_public'),
  ];
  return lines;
}

/** The parts of a tournament that are its terms (what its organiser may change).
 * @param {Api<'Tournament'>} tournament */
export function termsOf(tournament) {
  const { name, format, teams, kind, variant, seats, options, rounds, minutes, starts_at: at, fill, turn, rated } = tournament;
  return JSON.stringify([name, format, teams, kind, variant, seats, options, rounds, minutes, at, fill, turn, rated]);
}

/** When an upcoming tournament starts, in the reader's own time: "Starts Friday 28 November at
 * 21:00".
 * @param {Api<'TournamentSummary'>} tournament */
export function startsText(tournament) {
  return t('starts_at', { time: when(tournament.starts_at, { dateStyle: 'full', timeStyle: 'short' }) });
}
