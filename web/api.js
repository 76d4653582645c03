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
  }
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
export async function request(method, path, body, { headers = {}, signal } = {}) {
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
    if (error instanceof Error && error.name === 'AbortError') throw error;
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
  return remember(await request('POST', '/auth/guest', body));
}

/** @param {string} name @param {string} password @param {boolean} register */
export async function login(name, password, register) {
  return remember(await request('POST', register ? '/auth/register' : '/auth/login', { name, password }));
}

/** @type {() => Promise<Api<'Catalogue'>>} */
export const catalogue = () => request('GET', '/games/kinds');
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
/** @type {(body: Api<'CreateGame'>) => Promise<Api<'GameCreated'>>} */
export const createGame = (body) => request('POST', '/games', body);
/** @type {(id: number, code?: string | null) => Promise<Api<'GameView'>>} */
export const joinGame = (id, code) => request('POST', `/games/${id}/join`, code ? { invite_code: code } : {});
/** @type {(body: Api<'SeekRequest'>) => Promise<Api<'Seek'>>} */
export const seek = (body) => request('POST', '/seeks', body);
/** @type {(id: number, wait: number, signal?: AbortSignal) => Promise<Api<'Seek'>>} */
export const seekStatus = (id, wait, signal) => request('GET', `/seeks/${id}?wait=${wait}`, undefined, signal ? { signal } : {});
/** @type {(id: number) => Promise<Api<'Seek'>>} */
export const cancelSeek = (id) => request('POST', `/seeks/${id}/cancel`, {});
/** @type {(kind?: string | null) => Promise<Api<'Lobby'>>} */
export const lobby = (kind) => request('GET', kind ? `/lobby?kind=${encodeURIComponent(kind)}` : '/lobby');
/** @type {(id: number) => Promise<Api<'GameView'>>} */
export const getGame = (id) => request('GET', `/games/${id}`);
/** @type {(id: number, code?: string | null) => Promise<Api<'Invitation'>>} */
export const invitation = (id, code) => request('GET', `/games/${id}/invitation${code ? `?code=${encodeURIComponent(code)}` : ''}`);
/** @type {(id: number, code?: string | null) => Promise<Api<'Tournament'>>} */
export const tournament = (id, code) => request('GET', `/tournaments/${id}${code ? `?code=${encodeURIComponent(code)}` : ''}`);
/** @type {(body: Api<'CreateTournament'>) => Promise<Api<'TournamentSummary'>>} */
export const makeTournament = (body) => request('POST', '/tournaments', body);
/** @type {(id: number, body: Api<'CreateTournament'>) => Promise<Api<'TournamentSummary'>>} */
export const changeTournament = (id, body) => request('PUT', `/tournaments/${id}`, body);
/** @type {(id: number, reason?: string) => Promise<Api<'TournamentSummary'>>} */
export const cancelTournament = (id, reason) => request('POST', `/tournaments/${id}/cancel`, reason ? { reason } : {});
/** @type {(page?: number) => Promise<Api<'GameList'>>} */
export const myGames = (page = 1) => request('GET', `/games?mine=true&page=${page}`);
/** @type {(id: number) => Promise<Api<'ScoreResponse'>>} */
export const scoreSheet = (id) => request('GET', `/games/${id}/score`);
/** Deals the next hand of the hand over at `version`: a hand another player dealt first answers
 * as a success (the game as it is now), not as a refusal.
 * @type {(id: number, version?: number) => Promise<Api<'ActionResponse'>>} */
export const deal = (id, version) => request('POST', `/games/${id}/deal`, version === undefined ? undefined : { expected_version: version });
/** @type {(id: number) => Promise<Api<'ActionResponse'>>} */
export const resign = (id) => request('POST', `/games/${id}/resign`);
/** @type {(id: number) => Promise<Api<'ActionResponse'>>} */
export const reclaim = (id) => request('POST', `/games/${id}/reclaim`);
/** @type {(name: string) => Promise<Api<'Profile'>>} */
export const profile = (name) => request('GET', `/players/${encodeURIComponent(name)}`);
/** @type {(kind: string, pool: string, page?: number) => Promise<Api<'Leaderboard'>>} */
export const leaderboard = (kind, pool, page = 1) =>
  request('GET', `/leaderboards/${encodeURIComponent(kind)}?pool=${pool}&page=${page}`);

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

/** How long a move is sent again before the page gives up on it (a failover of the database
 * answers 503 for ten seconds at most), and the longest wait between two tries. */
const MOVE_RETRY_BUDGET_MS = 30000;
const MOVE_RETRY_MAX_WAIT_MS = 5000;

/** Posts a move. A lost answer (network, 502) and a service that cannot take it for now (503)
 * are sent again with the same Idempotency-Key, so the move applies once whatever happens on the
 * way: after a wait that grows with each try, and never shorter than the answer's
 * `Retry-After`; for up to thirty seconds in all. `onRetry` is told before each wait.
 * @param {number} id @param {number} version @param {Api<'AnyMove'>} mv
 * @param {(waitMs: number) => void} [onRetry]
 * @returns {Promise<Api<'ActionResponse'>>} */
export async function move(id, version, mv, onRetry) {
  const key = `${id}-${version}-${crypto.randomUUID ? crypto.randomUUID() : Math.random()}`;
  const body = { expected_version: version, move: mv };
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await request('POST', `/games/${id}/moves`, body, { headers: { 'Idempotency-Key': key } });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const transient = error.status === 0 || error.status === 502 || error.status === 503;
      const wait = Math.min(MOVE_RETRY_MAX_WAIT_MS, Math.max(300 * (attempt + 1), 1000 * (error.retryAfter ?? 0)));
      if (!transient || waited + wait > MOVE_RETRY_BUDGET_MS) throw error;
      onRetry?.(wait);
      await new Promise((resolve) => setTimeout(resolve, wait));
      waited += wait;
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
  const chat = chatAfter === null || chatAfter === undefined ? '' : `&chat_after=${chatAfter}`;
  // What the page shows of who is at the table: the answer also comes when that changes.
  const presence = known ? `&known_connected=${known.connected.join(',')}&known_spectators=${known.spectators}` : '';
  return request('GET', `/games/${id}/events?after=${after}${chat}&wait=${wait}${presence}`, undefined, signal ? { signal } : {});
};

/** @type {() => Promise<Api<'Presets'>>} */
export const chatPresets = () => request('GET', '/chat/presets');
/** @type {(id: number) => Promise<Api<'ChatPage'>>} */
export const chat = (id) => request('GET', `/games/${id}/chat`);
/** @type {(id: number, body: Api<'ChatRequest'>) => Promise<Api<'ChatMessage'>>} */
export const say = (id, body) => request('POST', `/games/${id}/chat`, body);
/** @type {() => Promise<Api<'MuteList'>>} */
export const mutes = () => request('GET', '/mutes');
/** @type {(name: string) => Promise<Api<'MuteList'>>} */
export const mute = (name) => request('PUT', `/mutes/${encodeURIComponent(name)}`);
/** @type {(name: string) => Promise<Api<'MuteList'>>} */
export const unmute = (name) => request('DELETE', `/mutes/${encodeURIComponent(name)}`);
/** @type {(id: number, accept: boolean) => Promise<Api<'RematchState'>>} */
export const rematch = (id, accept) => request('POST', `/games/${id}/rematch`, { accept });
/** @type {() => Promise<Api<'ChallengeList'>>} */
export const challenges = () => request('GET', '/challenges');
/** @type {(body: Api<'ChallengeRequest'>) => Promise<Api<'Challenge'>>} */
export const challenge = (body) => request('POST', '/challenges', body);
/** @type {(id: number) => Promise<Api<'Challenge'>>} */
export const getChallenge = (id) => request('GET', `/challenges/${id}`);
/** @type {(id: number, action: 'accept' | 'decline' | 'cancel', body?: Api<'ChallengeCode'> | Api<'DeclineRequest'>) => Promise<Api<'Challenge'>>} */
export const answerChallenge = (id, action, body) => request('POST', `/challenges/${id}/${action}`, body);
/** @type {() => Promise<Api<'TokenList'>>} */
export const tokens = () => request('GET', '/account/tokens');
/** @type {(body: Api<'NewTokenRequest'>) => Promise<Api<'TokenCreated'>>} */
export const createToken = (body) => request('POST', '/account/tokens', body);
/** @type {(id: number) => Promise<null>} */
export const revokeToken = (id) => request('DELETE', `/account/tokens/${id}`);
/** @type {() => Promise<Api<'UserInfo'>>} */
export const becomeBot = () => request('POST', '/account/bot', {});
