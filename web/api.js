// The public API, as the page uses it: a bearer token kept in localStorage, problem+json errors
// turned into ApiError, and an Idempotency-Key on every move so a retried click applies once.

const BASE = '/api/v1';
const TOKEN = 'cardroom.token';
const USER = 'cardroom.user';

/** A problem+json body as the page reads it: any of its fields may be missing (a proxy's
 * answer, a network failure). */
/** @typedef {{ code?: string, title?: string, detail?: string, status?: number, [field: string]: unknown }} ProblemBody */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {ProblemBody} problem
   * @param {number | null} [retryAfter] The seconds the answer's `Retry-After` asks to wait
   *   (a rate limit, a busy service); null when it names none.
   */
  constructor(status, problem, retryAfter = null) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || 'error';
    this.problem = problem;
    this.retryAfter = retryAfter;
    /** Said beside the field it is about already: not to be said again in a toast. */
    this.shown = false;
  }
}

/** The stable `code` of a refusal from the API, or null for anything else thrown (a script
 * error, a request called off).
 * @param {unknown} error @returns {string | null} */
export function refusalCode(error) {
  return error instanceof ApiError ? error.code : null;
}

/** The HTTP status of a refusal from the API (0: no answer came), or null for anything else.
 * @param {unknown} error @returns {number | null} */
export function refusalStatus(error) {
  return error instanceof ApiError ? error.status : null;
}

/** Whether `error` ends a request the page called off itself (its AbortController's signal):
 * fetch's and a stream reader's DOMException, which is no failure to report.
 * @param {unknown} error */
export function calledOff(error) {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/** The seconds an answer's `Retry-After` header asks to wait, if it gives a number of them.
 * @param {Response} response
 * @returns {number | null} */
function retryAfter(response) {
  const seconds = Number(response.headers.get('Retry-After') ?? NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/** @returns {Api<'UserInfo'> | null} */
export function currentUser() {
  try {
    return JSON.parse(localStorage.getItem(USER) || 'null');
  } catch {
    return null;
  }
}

/** The signed-in account's token, if any. */
export function currentToken() {
  return localStorage.getItem(TOKEN);
}

/** Keeps the account's details as the server now tells them (its token unchanged).
 * @param {Api<'UserInfo'>} user */
export function rememberUser(user) {
  localStorage.setItem(USER, JSON.stringify(user));
}

/** @type {Set<(user: Api<'UserInfo'> | null) => void>} */
const accountListeners = new Set();

/** Calls `listener` whenever the page signs in (a new guest, a sign-in, a registration) or
 * out: whatever follows the account starts (or stops) at once. Returns the function that stops
 * it.
 * @param {(user: Api<'UserInfo'> | null) => void} listener */
export function onAccountChange(listener) {
  accountListeners.add(listener);
  return () => accountListeners.delete(listener);
}

function accountChanged() {
  for (const listener of [...accountListeners]) listener(currentUser());
}

export function signOut() {
  localStorage.removeItem(TOKEN);
  localStorage.removeItem(USER);
  accountChanged();
}

/** @param {Api<'AuthResponse'>} answer */
function remember({ token, user }) {
  localStorage.setItem(TOKEN, token);
  localStorage.setItem(USER, JSON.stringify(user));
  accountChanged();
  return user;
}

/**
 * A call to the API; its answer as `T`, the schema the document gives the operation (the
 * caller names it: the wrappers below do, by their types).
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {{ headers?: Record<string, string>, signal?: AbortSignal }} [options]
 * @returns {Promise<T>}
 */
async function request(method, path, body, { headers = {}, signal } = {}) {
  const token = localStorage.getItem(TOKEN);
  /** @type {Record<string, string>} */
  const sent = { Accept: 'application/json', ...headers };
  /** @type {RequestInit} */
  const init = { method, headers: sent };
  if (signal) init.signal = signal;
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    sent['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(BASE + path, init);
  } catch (error) {
    if (calledOff(error)) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ApiError(0, { code: 'offline', detail });
  }
  const text = await response.text();
  /** @type {unknown} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!response.ok) {
    // (A token that is no longer good is forgotten; a stranger's 401 — a table that is not
    // public — leaves nothing to forget.)
    if (response.status === 401 && token && localStorage.getItem(TOKEN) === token) signOut();
    throw new ApiError(response.status, /** @type {ProblemBody} */ (data || {}), retryAfter(response));
  }
  return /** @type {T} */ (data);
}

/**
 * Calls operation `method` on `route`, a path as the document writes it (`/games/{id}/score`):
 * its answer is typed as the document's, and the path's parameters, the query and the body are
 * checked against the operation's, the parameters and a required body required
 * (tests/typescript/page.d.ts, `CallParts`). The parameters fill the path's braces; a query
 * parameter left undefined, null or empty is not sent; `search`, a query passed on as it is (an
 * admin page's filters, from its address), is the server's to check.
 * @type {<M extends Verb, R extends RouteOf<M>>(method: M, route: R, ...rest: CallRest<M, R>) => Promise<Answer<M, R>>}
 */
export const call = (method, route, ...rest) => {
  // (Read as plain records: the types above have checked their names and values.)
  const parts = /** @type {{ path?: Record<string, unknown>, query?: Record<string, unknown>, body?: unknown,
    search?: URLSearchParams, headers?: Record<string, string>, signal?: AbortSignal }} */ (rest[0] || {});
  const path = parts.path || {};
  const filled = String(route).replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(path[name])));
  const search = new URLSearchParams(parts.search);
  for (const [name, value] of Object.entries(parts.query || {})) {
    if (value !== undefined && value !== null && value !== '') search.append(name, String(value));
  }
  const text = search.toString();
  return request(method, text ? `${filled}?${text}` : filled, parts.body, { headers: parts.headers, signal: parts.signal });
};

/** The text of a streamed response, piece by piece: each piece ends at `separator` (a line of
 * newline-delimited JSON, or a blank line after a Server-Sent Event), which is left out.
 * @param {Response} response
 * @param {string} separator */
export async function* pieces(response, separator) {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf(separator)) >= 0) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + separator.length);
    }
  }
}

/** A guest account under `name`, unless this browser already has one. A name that is taken
 * is refused (`name_taken`): the page asks for another rather than make a nameless guest.
 * @param {string} [name]
 * @returns {Promise<Api<'UserInfo'>>} */
export async function ensureUser(name) {
  const user = currentUser();
  if (user && localStorage.getItem(TOKEN)) return user;
  const body = name ? { name } : {};
  return remember(await call('POST', '/auth/guest', { body }));
}

/** @param {string} name @param {string} password @param {boolean} register */
export async function login(name, password, register) {
  const body = { name, password };
  return remember(await (register ? call('POST', '/auth/register', { body }) : call('POST', '/auth/login', { body })));
}

export const catalogue = () => call('GET', '/games/kinds');
/** @type {Promise<Api<'Catalogue'>> | null} */
let catalogueRead = null;
/** The catalogue, read once a page (it changes only with the server). */
export function knownCatalogue() {
  catalogueRead ??= catalogue().catch((error) => {
    catalogueRead = null;
    throw error;
  });
  return catalogueRead;
}
/** A new table. Its Idempotency-Key lets the service make it again by itself when the database
 * went away under the request (a switchover), and never twice.
 * @param {Api<'CreateGame'>} body */
export const createGame = (body) => call('POST', '/games', { body, headers: { 'Idempotency-Key': uniqueKey('table') } });
/** @param {number} id @param {string | null} [code] */
export const joinGame = (id, code) => call('POST', '/games/{id}/join', { path: { id }, body: code ? { invite_code: code } : {} });
/** @param {Api<'SeekRequest'>} body */
export const seek = (body) => call('POST', '/seeks', { body });
/** @param {number} id @param {number} wait @param {AbortSignal} [signal] */
export const seekStatus = (id, wait, signal) => call('GET', '/seeks/{id}', { path: { id }, query: { wait }, signal });
/** @param {number} id */
export const cancelSeek = (id) => call('POST', '/seeks/{id}/cancel', { path: { id } });
/** @param {Api<'GameKind'> | null} [kind] */
export const lobby = (kind) => call('GET', '/lobby', { query: { kind } });
/** @param {number} id */
export const getGame = (id) => call('GET', '/games/{id}', { path: { id } });
/** @param {number} id @param {string | null} [code] */
export const invitation = (id, code) => call('GET', '/games/{id}/invitation', { path: { id }, query: { code } });
/** @param {number} id @param {string | null} [code] */
export const tournament = (id, code) => call('GET', '/tournaments/{id}', { path: { id }, query: { code } });
/** @param {Api<'CreateTournament'>} body */
export const makeTournament = (body) => call('POST', '/tournaments', { body });
/** @param {number} id @param {Api<'CreateTournament'>} body */
export const changeTournament = (id, body) => call('PUT', '/tournaments/{id}', { path: { id }, body });
/** @param {number} id @param {string} [reason] */
export const cancelTournament = (id, reason) => call('POST', '/tournaments/{id}/cancel', { path: { id }, body: reason ? { reason } : {} });
/** @param {number} [page] */
export const myGames = (page = 1) => call('GET', '/games', { query: { mine: true, page } });
/** @param {number} id */
export const scoreSheet = (id) => call('GET', '/games/{id}/score', { path: { id } });
/** Deals the next hand of the hand over at `version`: a hand another player dealt first answers
 * as a success (the game as it is now), not as a refusal.
 * @param {number} id @param {number} [version] */
export const deal = (id, version) => call('POST', '/games/{id}/deal', { path: { id }, body: version === undefined ? undefined : { expected_version: version } });
/** @param {number} id */
export const resign = (id) => call('POST', '/games/{id}/resign', { path: { id } });
/** @param {number} id */
export const reclaim = (id) => call('POST', '/games/{id}/reclaim', { path: { id } });
/** @param {string} name */
export const profile = (name) => call('GET', '/players/{name}', { path: { name } });
/** @param {Api<'GameKind'>} kind @param {string} pool @param {number} [page] */
export const leaderboard = (kind, pool, page = 1) => call('GET', '/leaderboards/{kind}', { path: { kind }, query: { pool, page } });

/** A finished game's export (`json` or `text`), as the text of a file to save.
 * @param {number} id @param {'json' | 'text'} format */
export async function exportGame(id, format) {
  const token = localStorage.getItem(TOKEN);
  const response = await fetch(`${BASE}/games/${id}/export?format=${format}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  if (!response.ok) {
    /** @type {ProblemBody} */
    let problem = {};
    try {
      problem = JSON.parse(text);
    } catch {
      problem = { detail: text };
    }
    throw new ApiError(response.status, problem);
  }
  return text;
}

/** An Idempotency-Key no other request of this page sends: `prefix` and a random UUID.
 * @param {string} prefix */
function uniqueKey(prefix) {
  return `${prefix}-${crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`}`;
}

/** How long a move is tried before the page gives up on it, from its first sending (a failover
 * of the database answers 503 for ten seconds at most), and the longest the page waits between
 * two tries of its own accord. */
const MOVE_RETRY_BUDGET_MS = 30000;
const MOVE_RETRY_BACKOFF_MAX_MS = 5000;

/** Posts a move. A lost answer (network, 502) and a service that cannot take it for now (503)
 * are sent again with the same Idempotency-Key, so the move applies once whatever happens on the
 * way: after a wait that grows with each try (up to 5 s) and is never shorter than the answer's
 * `Retry-After`, as long as the next try comes within thirty seconds of the first sending (the
 * time the answers took counts). `onRetry` is told before each wait; `signal` (the table's,
 * aborted when the player leaves it) stops the tries.
 * @param {number} id @param {number} version @param {Api<'GameKind'>} kind The game's, named
 *   so the server checks the move is for it. @param {Api<'AnyMove'>} mv A move of that kind.
 * @param {(waitMs: number) => void} [onRetry] @param {AbortSignal} [signal]
 * @returns {Promise<Api<'ActionResponse'>>} */
export async function move(id, version, kind, mv, onRetry, signal) {
  const key = uniqueKey(`${id}-${version}`);
  // (The document pairs each kind with its own moves; the table's game is of the move's kind,
  // which TypeScript cannot follow from two separate values.)
  const body = /** @type {RequestBody<'POST', '/games/{id}/moves'>} */ ({ kind, expected_version: version, move: mv });
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await call('POST', '/games/{id}/moves', { path: { id }, body, headers: { 'Idempotency-Key': key }, signal });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const transient = error.status === 0 || error.status === 502 || error.status === 503;
      const wait = Math.max(Math.min(MOVE_RETRY_BACKOFF_MAX_MS, 300 * (attempt + 1)), 1000 * (error.retryAfter ?? 0));
      if (!transient || Date.now() - started + wait > MOVE_RETRY_BUDGET_MS || signal?.aborted) throw error;
      onRetry?.(wait);
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (signal?.aborted) throw new DOMException('the table was left', 'AbortError');
    }
  }
}

/** The JSON long-poll: resolves with `{events, version, chat, chat_cursor, presence}` as soon as
 * there is news (a move, or chat after `chatAfter`), or after `wait` seconds.
 * @param {number} id @param {number} after @param {number | null | undefined} chatAfter
 * @param {number} wait @param {AbortSignal} [signal]
 * @param {{ connected: number[], spectators: number }} [known]
 * @returns {Promise<Api<'EventsPage'>>} */
export const events = (id, after, chatAfter, wait, signal, known) => {
  const query = {
    after, wait, chat_after: chatAfter,
    // What the page shows of who is at the table: the answer also comes when that changes.
    known_connected: known?.connected.join(','), known_spectators: known?.spectators,
  };
  return call('GET', '/games/{id}/events', { path: { id }, query, signal });
};

export const chatPresets = () => call('GET', '/chat/presets');
/** @param {number} id */
export const chat = (id) => call('GET', '/games/{id}/chat', { path: { id } });
/** @param {number} id @param {Api<'ChatRequest'>} body */
export const say = (id, body) => call('POST', '/games/{id}/chat', { path: { id }, body });
export const mutes = () => call('GET', '/mutes');
/** @param {string} name */
export const mute = (name) => call('PUT', '/mutes/{name}', { path: { name } });
/** @param {string} name */
export const unmute = (name) => call('DELETE', '/mutes/{name}', { path: { name } });
/** @param {number} id @param {boolean} accept */
export const rematch = (id, accept) => call('POST', '/games/{id}/rematch', { path: { id }, body: { accept } });
export const challenges = () => call('GET', '/challenges');
/** @param {Api<'ChallengeRequest'>} body */
export const challenge = (body) => call('POST', '/challenges', { body });
/** @param {number} id */
export const getChallenge = (id) => call('GET', '/challenges/{id}', { path: { id } });
/** @param {number} id @param {'accept' | 'decline' | 'cancel'} action
 * @param {Api<'ChallengeCode'> | Api<'DeclineRequest'>} [body] */
export const answerChallenge = (id, action, body) => {
  const path = { id };
  if (action === 'accept') return call('POST', '/challenges/{id}/accept', { path, body: /** @type {Api<'ChallengeCode'>} */ (body) });
  if (action === 'decline') return call('POST', '/challenges/{id}/decline', { path, body: /** @type {Api<'DeclineRequest'>} */ (body) });
  return call('POST', '/challenges/{id}/cancel', { path });
};
export const tokens = () => call('GET', '/account/tokens');
/** @param {Api<'NewTokenRequest'>} body */
export const createToken = (body) => call('POST', '/account/tokens', { body });
/** @param {number} id */
export const revokeToken = (id) => call('DELETE', '/account/tokens/{id}', { path: { id } });
export const becomeBot = () => call('POST', '/account/bot');
