// Reaching a table's states fast, over the API: accounts, games between them and computer
// players, and play that drives a game to the state wanted (the matrix suite's setup).

import { BASE } from './harness.mjs';

/** An account as the API sees it: its token, and calls made with it. */
export class Client {
  constructor(token, user) {
    this.token = token;
    this.user = user;
  }

  static async guest(name) {
    const { body } = await call(null, 'POST', '/auth/guest', { name });
    return new Client(body.token, body.user);
  }

  static async login(name, password) {
    const { status, body } = await call(null, 'POST', '/auth/login', { name, password });
    if (status !== 200) throw new Error(`login ${name}: ${status} ${JSON.stringify(body)}`);
    return new Client(body.token, body.user);
  }

  async ok(method, path, body) {
    const answer = await call(this.token, method, path, body);
    if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer.body;
  }

  create(body) {
    return this.ok('POST', '/games', body);
  }

  join(id, code) {
    return this.ok('POST', `/games/${id}/join`, code ? { invite_code: code } : {});
  }

  view(id) {
    return this.ok('GET', `/games/${id}`);
  }
}

async function call(token, method, path, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${BASE}/api/v1${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The move a person makes to get on with the game: whatever ends a hand sooner. */
function choose(kind, legal) {
  const prefer = {
    thirty_one: ['knock', 'draw', 'discard'],
    rummy: ['meld', 'lay_off', 'discard', 'draw_stock', 'end_turn'],
    tarneeb: ['play', 'trump', 'bid', 'pass'],
    basra: ['play'],
  }[kind] || [];
  for (const type of prefer) {
    const found = legal.find((m) => m.type === type);
    if (found) return found;
  }
  return legal[0];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Plays game `id` — each person's moves by the client in `people` (seat → Client), the
 * computer players' by the server, the next hand dealt when one is over — until `done(view)`
 * holds; returns that view (as `people`'s first client sees it).
 */
export async function playUntil(people, id, done, { limit = 20000 } = {}) {
  const [watcher] = Object.values(people);
  // A move's answer holds the game as its mover sees it once the computer players have answered
  // (the server plays them within the request): the next look of that person needs no request.
  // A Rummy game to 100 is a thousand moves and more, most of them one person's in a row.
  const fresh = new Map();
  const look = async (client) => {
    const kept = fresh.get(client);
    fresh.delete(client);
    return kept || client.view(id);
  };
  for (let step = 0; step < limit; step++) {
    const view = await look(watcher);
    if (done(view)) return view;
    if (view.status === 'finished' || view.status === 'abandoned') {
      throw new Error(`game ${id} ended (${view.status}) before the state wanted`);
    }
    if (view.status === 'hand_over') {
      await watcher.ok('POST', `/games/${id}/deal`);
      fresh.clear();
      continue;
    }
    const mover = people[view.to_act];
    if (view.status !== 'active' || !mover) {
      // A computer's turn the server has yet to play (or a table still filling).
      await sleep(50);
      continue;
    }
    const mine = mover === watcher ? view : await look(mover);
    if (mine.to_act !== mine.your_seat || !mine.legal_moves.length) continue;
    const move = choose(mine.kind, mine.legal_moves);
    const answer = await call(mover.token, 'POST', `/games/${id}/moves`, { expected_version: mine.version, move });
    // (Anyone else's kept look is older than this move.)
    fresh.clear();
    if (answer.status === 200 && answer.body?.view) fresh.set(mover, answer.body.view);
  }
  throw new Error(`game ${id}: the state wanted was not reached in ${limit} steps`);
}

/** A game of `a` with `b` (seat 1) and computer players in the other seats, dealt (from `deck`,
 * top card first, when given: a practice game). */
export async function twoPeople(a, b, { kind, variant, seats, options = {}, visibility = 'public', turn, deck }) {
  const body = {
    kind, variant, options, visibility,
    seats: Array.from({ length: seats }, (_, i) => (i < 2 ? {} : { bot: 'easy' })),
  };
  if (turn) body.turn = turn;
  if (deck) body.deck = deck;
  const created = await a.create(body);
  await b.join(created.id, created.invite_code);
  return created.id;
}
