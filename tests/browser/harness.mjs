// Shared by the browser tests: Debian's Chromium driven by playwright-core, a fresh browser
// context per player, and a player that clicks only what the page offers as legal.
//
// CARDROOM_URL is the service under test (scripts/browser-test starts one);
// CARDROOM_ARTIFACTS is where screenshots go.

import { mkdirSync } from 'node:fs';
import path from 'node:path';

export const BASE = process.env.CARDROOM_URL || 'http://127.0.0.1:8080';
export const ARTIFACTS = process.env.CARDROOM_ARTIFACTS || path.resolve('artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export { launch } from './chromium.mjs';

/** A new player: its own context (its own localStorage, so its own guest account). */
export async function player(browser, { lang = 'en', speed = 'instant', viewport } = {}) {
  const context = await browser.newContext({ viewport: viewport || { width: 1280, height: 900 } });
  await context.addInitScript(([l, s]) => {
    if (!localStorage.getItem('cardroom.lang')) localStorage.setItem('cardroom.lang', l);
    localStorage.setItem('cardroom.speed', s);
  }, [lang, speed]);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // Any failed request or script error is a problem (two players pressing "Deal next hand"
    // at once both succeed: the page says which hand it deals).
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.problems = problems;
  // (A failed request's console message does not say which: this does. A request the page
  // gave up on itself — the long-poll of a table it left — is not a problem.)
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText || 'failed';
    if (failure !== 'net::ERR_ABORTED') problems.push(`request: ${request.method()} ${request.url()}: ${failure}`);
  });
  // The requests under way, for the report of a page that stopped changing.
  page.inFlight = new Set();
  page.on('request', (request) => page.inFlight.add(request));
  page.on('requestfinished', (request) => page.inFlight.delete(request));
  page.on('requestfailed', (request) => page.inFlight.delete(request));
  return page;
}

/**
 * How the waits on the page's own state poll: every 40 ms rather than Playwright's default of
 * every animation frame, which makes the page draw a frame sixty times a second for as long as
 * a wait lasts (a wait on a computer player's move, or on a page under load, is long).
 */
export const POLL = { timeout: 30000, polling: 40 };

/**
 * Waits until the page has drawn the address in its address bar and has nothing in flight.
 * (After a click changes the hash, the old view is still 'idle' until the hashchange handler
 * runs; the page's body[data-shown] names the hash it last drew.)
 */
export async function idle(page) {
  await page.waitForFunction(
    () => document.body.dataset.state === 'idle' && document.body.dataset.shown === location.hash,
    null,
    POLL,
  );
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Opens the lobby, types a name and creates a game from the form. */
export const uniqueName = (base = 'Tester') => `${base}${Math.random().toString(36).slice(2, 8)}`;

export async function createGame(page, { name = uniqueName(), kind, variant, players, seats = {}, options = {} }) {
  await page.goto(`${BASE}/#/new/${kind}/${variant}`);
  await idle(page);
  if (await page.locator('#player-name').count()) await page.fill('#player-name', name);
  await page.check(`#kind-${kind}`);
  await page.selectOption('#variant', variant);
  if (players) await page.selectOption('#seat-count', String(players));
  for (const [seat, level] of Object.entries(seats)) await page.selectOption(`#seat-${seat}`, level);
  for (const [option, value] of Object.entries(options)) {
    const input = page.locator(`[data-option="${option}"]`);
    if (typeof value === 'boolean') await input.setChecked(value);
    else if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(String(value));
    else await input.fill(String(value));
  }
  await page.click('#create');
  await page.waitForURL(/#\/game\/\d+/);
  await page.waitForSelector('.table');
  await idle(page);
  return Number(page.url().match(/#\/game\/(\d+)/)[1]);
}

const random = (items) => items[Math.floor(Math.random() * items.length)];

/** The game as the server shows it to `page`'s player now (their token, the table's game). */
async function pageView(page) {
  const id = Number((page.url().match(/#\/game\/(\d+)/) || [])[1]);
  const token = await page.evaluate(() => localStorage.getItem('cardroom.token'));
  const response = await fetch(`${BASE}/api/v1/games/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  const view = await response.json();
  return { status: response.status, version: view.version, game: view.status, to_act: view.to_act, your_seat: view.your_seat };
}

async function status(page) {
  return page.$eval('.table', (el) => el.dataset.status);
}

/** True when the page says it is this player's turn (and nothing is being shown). */
async function myTurn(page) {
  return page.evaluate(() => document.body.dataset.state === 'idle' && Boolean(document.querySelector('.status-line .your-turn')));
}

async function legalButtons(page, selector) {
  return page.$$(`${selector}`);
}

/** One move of the kind being played, by clicking only elements the page marks as legal. */
async function playOne(page, kind, stats) {
  const felt = '.felt button.legal:not([disabled])';
  if (kind === 'rummy') return playRummy(page, stats);
  if (kind === 'tarneeb') {
    const pass = await page.$('[data-action="pass"]');
    if (pass && Math.random() < 0.8) return pass.click();
  }
  if (kind === 'thirty_one') {
    // Knock now and then, not always: the hands should see some play.
    const knock = await page.$('[data-action="knock"]');
    if (knock && Math.random() < 0.25) return knock.click();
    const piles = await legalButtons(page, '.felt [data-pile].legal');
    if (piles.length) return random(piles).click();
  }
  const choices = await legalButtons(page, '.choices button.legal');
  if (choices.length) {
    stats.choices = (stats.choices || 0) + 1;
    return random(choices).click();
  }
  const buttons = await legalButtons(page, felt);
  if (!buttons.length) throw new Error(`my turn in ${kind} but nothing legal to click`);
  return random(buttons).click();
}

async function click(page, selector) {
  const node = await page.$(selector);
  if (!node) return false;
  await node.click();
  return true;
}

async function playRummy(page, stats) {
  if (await click(page, '[data-action="meld"]:not([disabled])')) {
    stats.melds = (stats.melds || 0) + 1;
    return;
  }
  if (await click(page, 'button.meld.legal')) {
    stats.layOffs = (stats.layOffs || 0) + 1;
    return;
  }
  // Try the suggested meld once per turn.
  const version = await page.$eval('.table', (el) => el.dataset.version);
  if (stats.suggested !== version && (await click(page, '[data-action="suggest"]'))) {
    stats.suggested = version;
    return;
  }
  if (await page.$('[data-action="pass"]')) {
    // The turned card: keep it (giving up one of ours) or pass it on.
    const keep = await page.$$('.hand button.card.legal');
    if (keep.length && Math.random() < 0.5) return random(keep).click();
    return click(page, '[data-action="pass"]');
  }
  const piles = await page.$$('.felt [data-pile].legal');
  if (piles.length) {
    await random(piles).click();
    // Classic: taking the face-up card asks which card to give up.
    if (await page.$('.felt [data-pile="discard"].selected')) {
      const give = await page.$$('.hand button.card.legal');
      if (give.length) await random(give).click();
    }
    return;
  }
  if (await click(page, '[data-action="end-turn"]')) return;
  if (await page.$('[data-action="discard"]')) {
    await click(page, '[data-action="clear"]');
    const cards = await page.$$('.hand button.card.legal');
    if (!cards.length) throw new Error('no card to discard');
    await random(cards).click();
    if (await click(page, '[data-action="discard"]:not([disabled])')) return;
    // The one card chosen is the one just taken: choose another.
    await click(page, '[data-action="clear"]');
    const again = await page.$$('.hand button.card.legal:not(.taken)');
    await random(again).click();
    return click(page, '[data-action="discard"]:not([disabled])');
  }
  throw new Error('my turn in rummy but nothing legal to click');
}

/**
 * Plays until the game is finished: its own moves by clicking legal elements, "Deal next
 * hand" between hands. Returns what it did. `shots` names the screenshots to take on the way.
 */
export async function playToEnd(page, kind, { maxMoves = 4000, shotName } = {}) {
  const stats = { moves: 0, deals: 0, hands: 0 };
  let shotTaken = false;
  let handOverAt = null;
  let missedDeals = 0;
  let redrawn = 0;
  for (let step = 0; step < maxMoves * 3; step++) {
    await idle(page);
    const now = await status(page);
    if (now === 'finished' || now === 'abandoned') return stats;
    if (now === 'hand_over') {
      const version = await page.$eval('.table', (el) => el.dataset.version);
      if (handOverAt !== version) {
        handOverAt = version;
        stats.hands += 1;
        // (Misses are counted hand by hand: at a table of three, another often deals first.)
        missedDeals = 0;
        if (shotName && stats.hands === 1) await shot(page, `${shotName}-hand-over`);
      }
      // At a table of several people, another may deal first: then this page draws the new
      // hand and the button is gone before the click lands. That is not a failure: look again.
      const dealt = await page.click('[data-action="deal"]', { timeout: 3000 }).then(() => true, () => false);
      if (dealt) stats.deals += 1;
      else if (++missedDeals > 5) throw new Error(`${kind}: the hand is over and Deal next hand cannot be pressed`);
      continue;
    }
    if (now === 'active' && (await myTurn(page))) {
      if (shotName && !shotTaken && stats.moves >= 3) {
        await shot(page, `${shotName}-table`);
        shotTaken = true;
      }
      try {
        await playOne(page, kind, stats);
      } catch (error) {
        // News drawn between the look and the click (another table's round, a late answer):
        // a person looks again. Said in the log, and never more than a few times running.
        if (!/not attached to the DOM/.test(String(error.message)) || ++redrawn > 3) throw error;
        stats.redrawnUnderClick = (stats.redrawnUnderClick || 0) + 1;
        console.log(`${kind}: the table was drawn again under a click (${stats.redrawnUnderClick})`);
        continue;
      }
      redrawn = 0;
      stats.moves += 1;
      if (stats.moves > maxMoves) throw new Error(`${kind}: over ${maxMoves} moves`);
      continue;
    }
    // Someone else's turn: the events endpoint brings it. (Their move may already have landed
    // since the look above: then it is this player's turn, and that is the change awaited.)
    const version = await page.$eval('.table', (el) => el.dataset.version);
    await page.waitForFunction(
      ([v, s]) => {
        const table = document.querySelector('.table');
        const mine = document.body.dataset.state === 'idle' && document.querySelector('.status-line .your-turn');
        return table && (table.dataset.version !== v || table.dataset.status !== s || Boolean(mine));
      },
      [version, now],
      POLL,
    ).catch(async (error) => {
      // What the page showed while nothing came, for the report: a screenshot, and the state.
      await shot(page, `${kind}-stuck`).catch(() => {});
      const state = await page.evaluate(() => ({
        body: document.body.dataset.state,
        version: document.querySelector('.table')?.getAttribute('data-version'),
        status: document.querySelector('.table')?.getAttribute('data-status'),
        line: document.querySelector('.status-line')?.textContent,
        toast: document.querySelector('#toast.shown')?.textContent,
      })).catch(() => null);
      const view = await pageView(page).catch((e) => `(no view: ${e.message})`);
      const pending = [...(page.inFlight || [])].map((r) => `${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
      throw new Error(`${kind}: nothing changed for 30 s at version ${version} (${now}); the page: ${JSON.stringify(state)}; `
        + `the server: ${JSON.stringify(view)}; after ${stats.moves} moves (${error.message.split('\n')[0]}); `
        + `requests under way: ${JSON.stringify(pending)}; problems: ${JSON.stringify((page.problems || []).slice(-5))}`);
    });
  }
  throw new Error(`${kind}: did not finish`);
}

/** A guest made over the API, signed in on `page`'s origin before its first navigation. */
export async function signedInGuest(page, name = uniqueName()) {
  const response = await fetch(`${BASE}/api/v1/auth/guest`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }),
  });
  const { token, user } = await response.json();
  await page.context().addInitScript(([tk, u]) => {
    localStorage.setItem('cardroom.token', tk);
    localStorage.setItem('cardroom.user', u);
  }, [token, JSON.stringify(user)]);
  return token;
}

/** POST /games over the API as `token` (for practice games from a fixed deck). */
export async function apiCreate(token, body) {
  const response = await fetch(`${BASE}/api/v1/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`create: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A whole deck of `ranks` × CDHS, with `top` first (top card first, as the API wants). */
export function deckWith(top, ranks = 'A23456789TJQK') {
  const all = [];
  for (const suit of 'CDHS') for (const rank of ranks) all.push(rank + suit);
  return [...top, ...all.filter((c) => !top.includes(c))];
}

/** Plays a game to the end over the API as `token`, always the first legal move. */
export async function apiPlayOut(token, id) {
  const call = async (method, path, body) => {
    const response = await fetch(`${BASE}/api/v1${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  for (let i = 0; i < 20000; i++) {
    const { body: view } = await call('GET', `/games/${id}`);
    if (view.status === 'finished') return view;
    if (view.status === 'hand_over') await call('POST', `/games/${id}/deal`, {});
    else if (view.to_act === view.your_seat) {
      await call('POST', `/games/${id}/moves`, { expected_version: view.version, move: view.legal_moves[0] });
    } else throw new Error(`stuck: ${JSON.stringify(view).slice(0, 300)}`);
  }
  throw new Error('did not finish');
}
