// The public API, as the page uses it: a bearer token kept in localStorage, problem+json errors
// turned into ApiError, and an Idempotency-Key on every move so a retried click applies once.

const BASE = '/api/v1';
const TOKEN = 'cardroom.token';
const USER = 'cardroom.user';

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || 'error';
    this.problem = problem;
  }
}

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

/** Keeps the account's details as the server now tells them (its token unchanged). */
export function rememberUser(user) {
  localStorage.setItem(USER, JSON.stringify(user));
}

const accountListeners = new Set();

/** Calls `listener` whenever the page signs in (a new guest, a sign-in, a registration) or
 * out: whatever follows the account starts (or stops) at once. Returns the function that stops
 * it. */
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

function remember({ token, user }) {
  localStorage.setItem(TOKEN, token);
  localStorage.setItem(USER, JSON.stringify(user));
  accountChanged();
  return user;
}

export async function request(method, path, body, { headers = {}, signal } = {}) {
  const token = localStorage.getItem(TOKEN);
  const init = { method, headers: { Accept: 'application/json', ...headers }, signal };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(BASE + path, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, { code: 'offline', detail: String(error.message || error) });
  }
  const text = await response.text();
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
    throw new ApiError(response.status, data || {});
  }
  return data;
}

/** The text of a streamed response, piece by piece: each piece ends at `separator` (a line of
 * newline-delimited JSON, or a blank line after a Server-Sent Event), which is left out. */
export async function* pieces(response, separator) {
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
 * is refused (`name_taken`): the page asks for another rather than make a nameless guest. */
export async function ensureUser(name) {
  const user = currentUser();
  if (user && localStorage.getItem(TOKEN)) return user;
  const body = name ? { name } : {};
  return remember(await request('POST', '/auth/guest', body));
}

export async function login(name, password, register) {
  return remember(await request('POST', register ? '/auth/register' : '/auth/login', { name, password }));
}

export const catalogue = () => request('GET', '/games/kinds');
let catalogueRead = null;
/** The catalogue, read once a page (it changes only with the server). */
export function knownCatalogue() {
  catalogueRead ??= catalogue().catch((error) => {
    catalogueRead = null;
    throw error;
  });
  return catalogueRead;
}
export const createGame = (body) => request('POST', '/games', body);
export const joinGame = (id, code) => request('POST', `/games/${id}/join`, code ? { invite_code: code } : {});
export const seek = (body) => request('POST', '/seeks', body);
export const seekStatus = (id, wait, signal) => request('GET', `/seeks/${id}?wait=${wait}`, undefined, { signal });
export const cancelSeek = (id) => request('POST', `/seeks/${id}/cancel`, {});
export const lobby = (kind) => request('GET', kind ? `/lobby?kind=${encodeURIComponent(kind)}` : '/lobby');
export const getGame = (id) => request('GET', `/games/${id}`);
export const invitation = (id, code) => request('GET', `/games/${id}/invitation${code ? `?code=${encodeURIComponent(code)}` : ''}`);
export const tournament = (id, code) => request('GET', `/tournaments/${id}${code ? `?code=${encodeURIComponent(code)}` : ''}`);
export const makeTournament = (body) => request('POST', '/tournaments', body);
export const changeTournament = (id, body) => request('PUT', `/tournaments/${id}`, body);
export const cancelTournament = (id, reason) => request('POST', `/tournaments/${id}/cancel`, reason ? { reason } : {});
export const myGames = (page = 1) => request('GET', `/games?mine=true&page=${page}`);
export const scoreSheet = (id) => request('GET', `/games/${id}/score`);
/** Deals the next hand of the hand over at `version`: a hand another player dealt first answers
 * as a success (the game as it is now), not as a refusal. */
export const deal = (id, version) => request('POST', `/games/${id}/deal`, version === undefined ? undefined : { expected_version: version });
export const resign = (id) => request('POST', `/games/${id}/resign`);
export const reclaim = (id) => request('POST', `/games/${id}/reclaim`);
export const profile = (name) => request('GET', `/players/${encodeURIComponent(name)}`);
export const leaderboard = (kind, pool, page = 1) =>
  request('GET', `/leaderboards/${encodeURIComponent(kind)}?pool=${pool}&page=${page}`);

/** A finished game's export (`json` or `text`), as the text of a file to save. */
export async function exportGame(id, format) {
  const token = localStorage.getItem(TOKEN);
  const response = await fetch(`${BASE}/games/${id}/export?format=${format}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  if (!response.ok) {
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

/** Posts a move; a lost answer (network, 502, 503) is retried with the same Idempotency-Key,
 * so the move applies once whatever happens on the way. */
export async function move(id, version, mv) {
  const key = `${id}-${version}-${crypto.randomUUID ? crypto.randomUUID() : Math.random()}`;
  const body = { expected_version: version, move: mv };
  for (let attempt = 0; ; attempt++) {
    try {
      return await request('POST', `/games/${id}/moves`, body, { headers: { 'Idempotency-Key': key } });
    } catch (error) {
      const transient = error.status === 0 || error.status === 502 || error.status === 503;
      if (!transient || attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
    }
  }
}

/** The JSON long-poll: resolves with `{events, version, chat, chat_cursor, presence}` as soon as
 * there is news (a move, or chat after `chatAfter`), or after `wait` seconds. */
export const events = (id, after, chatAfter, wait, signal, known) => {
  const chat = chatAfter === null || chatAfter === undefined ? '' : `&chat_after=${chatAfter}`;
  // What the page shows of who is at the table: the answer also comes when that changes.
  const presence = known ? `&known_connected=${known.connected.join(',')}&known_spectators=${known.spectators}` : '';
  return request('GET', `/games/${id}/events?after=${after}${chat}&wait=${wait}${presence}`, undefined, { signal });
};

export const chatPresets = () => request('GET', '/chat/presets');
export const chat = (id) => request('GET', `/games/${id}/chat`);
export const say = (id, body) => request('POST', `/games/${id}/chat`, body);
export const mutes = () => request('GET', '/mutes');
export const mute = (name) => request('PUT', `/mutes/${encodeURIComponent(name)}`);
export const unmute = (name) => request('DELETE', `/mutes/${encodeURIComponent(name)}`);
export const rematch = (id, accept) => request('POST', `/games/${id}/rematch`, { accept });
export const challenges = () => request('GET', '/challenges');
export const challenge = (body) => request('POST', '/challenges', body);
export const getChallenge = (id) => request('GET', `/challenges/${id}`);
export const answerChallenge = (id, action, body) => request('POST', `/challenges/${id}/${action}`, body);
export const tokens = () => request('GET', '/account/tokens');
export const createToken = (body) => request('POST', '/account/tokens', body);
export const revokeToken = (id) => request('DELETE', `/account/tokens/${id}`);
export const becomeBot = () => request('POST', '/account/bot', {});
