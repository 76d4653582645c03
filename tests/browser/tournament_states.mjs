// Tournaments driven over the API to every state the page shows them in — upcoming, running,
// between rounds, finished, cancelled — in each format (Swiss, arena, duplicate, team matches),
// with the people who read them: an entrant, the maker (a registered player's private
// tournament), an admin, a spectator with the link and a stranger with it (the tournament
// matrix's setup).

import { BASE } from './harness.mjs';
import { Client, playUntil } from './states.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const tag = () => Math.random().toString(36).slice(2, 7);

/** A table's timer long enough that nobody's idle seat is taken over while the matrix looks. */
const LONG_TURN = { seconds: 86400, takeover_after: 10 };

/**
 * Each format's tournament: a short game, two rounds where it has rounds. (The arena's minutes
 * are 15 seconds long under scripts/browser-test: 120 of them last the half hour its running
 * states must outlast the matrix by, and the one that finishes plays its one minute in 15 s.)
 */
export const FORMATS = {
  swiss: { format: 'swiss', kind: 'thirty_one', variant: 'classic', rounds: 2 },
  arena: { format: 'arena', kind: 'thirty_one', variant: 'classic', minutes: 120 },
  duplicate: { format: 'duplicate', kind: 'thirty_one', variant: 'classic', rounds: 2 },
  teams: { format: 'duplicate', teams: true, kind: 'tarneeb', variant: 'standard', options: { target: 31 }, rounds: 2, fill: 'easy' },
};

export const STATES = ['upcoming', 'running', 'between', 'finished', 'cancelled'];

async function register(name) {
  const response = await fetch(`${BASE}/api/v1/auth/register`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, password: 'a long passphrase for the maker' }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`register ${name}: ${response.status} ${JSON.stringify(body)}`);
  return new Client(body.token, body.user);
}

/** Waits until tournament `id` (read by `reader` with `code`) satisfies `done`; returns it. */
export async function until(reader, id, code, done, seconds = 60) {
  for (let i = 0; i < seconds * 10; i++) {
    const tournament = await reader.ok('GET', `/tournaments/${id}?code=${code}`);
    if (done(tournament)) return tournament;
    await sleep(100);
  }
  throw new Error(`tournament ${id} never reached the state wanted`);
}

/** Plays game `game` to its end: the moves of whoever of `everyone` sits at it (computer
 * players move on the server). */
async function playOut(game, everyone) {
  const people = {};
  for (const client of everyone) {
    // (A duplicate round's tables are private: only those seated read them.)
    const mine = await client.ok('GET', `/games/${game}`).catch(() => null);
    if (mine && mine.your_seat !== null && mine.your_seat !== undefined) people[mine.your_seat] = client;
  }
  if (!Object.keys(people).length) throw new Error(`nobody of ours sits at game ${game}`);
  await playUntil(people, game, (v) => v.status === 'finished');
}

/**
 * One tournament of `format` in `state`, made private by `maker`: its id and code, and the
 * entrant whose page the matrix reads (a guest). `admin` calls one off.
 */
async function build(format, state, maker, admin) {
  const base = { ...FORMATS[format], name: `${format} ${state} ${tag()}`, private: true, turn: LONG_TURN, rated: false };
  const upcoming = state === 'upcoming' || (state === 'cancelled' && format !== 'arena' && format !== 'teams');
  // Made to start in an hour, and (unless it is to stay upcoming) started once its entrants
  // are in: a start a few seconds ahead could come before the last of them joined, on a busy
  // machine.
  const made = await maker.ok('POST', '/tournaments', { ...base, starts_in: 3600 });
  const { id, code } = made;
  // How many enter: two tables for a round whose other table still plays; one short of a
  // start for the tournaments cancelled for want of entrants.
  const entrants = {
    upcoming: 2, running: 2, finished: 2,
    between: format === 'arena' ? 3 : format === 'teams' ? 2 : 4,
    cancelled: format === 'arena' || format === 'teams' ? 1 : 2,
  }[state];
  const guests = [];
  for (let i = 0; i < entrants; i++) {
    const guest = await Client.guest(`E${format.slice(0, 2)}${state.slice(0, 2)}${i}${tag()}`);
    await guest.ok('POST', `/tournaments/${id}/join`, { code });
    guests.push(guest);
  }
  if (!upcoming) await maker.ok('PUT', `/tournaments/${id}`, { ...base, starts_in: 0 });
  let entrant = guests[0];
  if (state === 'cancelled') {
    if (format === 'swiss') await maker.ok('POST', `/tournaments/${id}/cancel`, { reason: 'The club is closed tonight' });
    else if (format === 'duplicate') await admin.ok('POST', `/tournaments/${id}/cancel`, { reason: 'A storm: the hall is shut' });
    await until(maker, id, code, (t) => t.status === 'cancelled');
  } else if (state !== 'upcoming') {
    await until(maker, id, code, (t) => t.status === 'running' && t.round_tables.length > 0);
    if (state === 'between') {
      if (format === 'arena') {
        // The one left without a table waits for the next pairing.
        const waiting = [];
        for (const guest of guests) {
          const seen = await guest.ok('GET', `/tournaments/${id}?code=${code}`);
          if (!seen.your_table) waiting.push(guest);
        }
        if (!waiting.length) throw new Error(`arena ${id}: everyone is seated`);
        entrant = waiting[0];
      } else {
        // The entrant's table played out; another of the round still plays.
        const table = (await entrant.ok('GET', `/tournaments/${id}?code=${code}`)).your_table;
        await playOut(table.game_id, guests);
        await until(maker, id, code, (t) => t.round_tables[0].tables.some((x) => x.over) && t.round_tables.length === 1);
      }
    }
    if (state === 'finished') {
      for (let round = 0; round < 40; round++) {
        const now = await maker.ok('GET', `/tournaments/${id}?code=${code}`);
        if (now.status === 'finished') break;
        for (const guest of guests) {
          const seen = await guest.ok('GET', `/tournaments/${id}?code=${code}`);
          if (seen.your_table) await playOut(seen.your_table.game_id, guests);
        }
        await sleep(300);
      }
      await until(maker, id, code, (t) => t.status === 'finished', 120);
    }
  }
  return { id, code, entrant, format, state };
}

/**
 * Every format in every state, with the people who read them. The arena that must finish runs
 * a short clock of its own (its minute passes while the others are made).
 */
export async function tournamentStates(adminPassword) {
  const admin = await Client.login('root', adminPassword);
  const maker = await register(`Maker${tag()}`);
  const spectator = await Client.guest(`Watcher${tag()}`);
  const made = [];
  // The arena that finishes: a minute of pairing (15 s under scripts/browser-test), its games
  // played as they come.
  const arenaFinished = (async () => {
    const base = { ...FORMATS.arena, minutes: 1, name: `arena finished ${tag()}`, private: true, turn: LONG_TURN, rated: false };
    const { id, code } = await maker.ok('POST', '/tournaments', { ...base, starts_in: 3600 });
    const guests = [await Client.guest(`Efinal${tag()}`), await Client.guest(`Efinal${tag()}`)];
    for (const guest of guests) await guest.ok('POST', `/tournaments/${id}/join`, { code });
    await maker.ok('PUT', `/tournaments/${id}`, { ...base, starts_in: 0 });
    for (let i = 0; i < 1200; i++) {
      const now = await maker.ok('GET', `/tournaments/${id}?code=${code}`);
      if (now.status === 'finished') break;
      const seen = await guests[0].ok('GET', `/tournaments/${id}?code=${code}`);
      if (seen.your_table) await playOut(seen.your_table.game_id, guests);
      else await sleep(200);
    }
    await until(maker, id, code, (t) => t.status === 'finished', 120);
    return { id, code, entrant: guests[0], format: 'arena', state: 'finished', maker };
  })();
  for (const format of Object.keys(FORMATS)) {
    // (A player has at most five tournaments not yet over: a maker of their own for each
    // format's five states.)
    const formatMaker = await register(`Maker${tag()}`);
    for (const state of STATES) {
      if (format === 'arena' && state === 'finished') continue;
      made.push({ ...(await build(format, state, formatMaker, admin)), maker: formatMaker });
    }
  }
  made.push(await arenaFinished);
  return { admin, maker, spectator, tournaments: made };
}
