// Table manners in the page: the turn timer's countdown, the seat a computer took over and
// taking it back, profiles and leaderboards, and downloading a finished game.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  launch, player, shot, idle, uniqueName, signedInGuest, apiCreate, BASE,
} from './harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function api(token, method, path, body) {
  const response = await fetch(`${BASE}/api/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

test('a table with a turn timer counts down the seconds left', async () => {
  const page = await player(browser);
  await page.goto(`${BASE}/#/new/basra/standard`);
  await idle(page);
  await page.fill('#player-name', uniqueName());
  await page.selectOption('#turn-seconds', '120');
  await page.click('#create');
  await page.waitForSelector('.table');
  await idle(page);
  assert.match(await page.textContent('.table-head .tag.timer'), /2 min a move/);
  const first = await page.textContent('.countdown');
  assert.match(first, /^(1:[0-5]\d|2:00) left$/, first);
  await page.waitForFunction((before) => document.querySelector('.countdown').textContent !== before, first);
  await shot(page, 'timer-countdown');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a person who times out sees the computer play the seat and takes it back', async () => {
  const page = await player(browser);
  const token = await signedInGuest(page);
  // (A deal can end its hand at once, a 31 dealt, with no turn to time out: then another.)
  let game;
  for (let tries = 0; tries < 10; tries++) {
    game = await apiCreate(token, {
      kind: 'thirty_one', variant: 'classic', seats: [{}, { bot: 'easy' }], turn: { seconds: 5, takeover_after: 1 },
    });
    const view = await fetch(`${BASE}/api/v1/games/${game.id}`, { headers: { Authorization: `Bearer ${token}` } });
    if ((await view.json()).status === 'active') break;
  }
  await page.goto(`${BASE}/#/game/${game.id}`);
  await page.waitForSelector('.table');
  // Nobody moves at seat 0: within the 5 s and a sweep, the computer takes it over and plays
  // the hand out; the next hand waits for a deal, and the seat's owner may come back.
  await page.waitForSelector('.away-banner [data-action="reclaim"]', { timeout: 20000 });
  assert.match(await page.textContent('.seat[data-seat="0"] .tag.away'), /away/);
  await shot(page, 'timer-away');
  await page.click('[data-action="reclaim"]');
  await page.waitForSelector('.away-banner', { state: 'detached' });
  // (The log tells one's own return as one's own: "You are back".)
  assert.match(await page.textContent('.log'), /You are back\./);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a rated game shows on the profile and the leaderboard, and a finished game downloads', async () => {
  const name = uniqueName('Rated');
  const { body } = await api(null, 'POST', '/auth/register', { name, password: 'a long passphrase' });
  const token = body.token;
  const game = await apiCreate(token, { kind: 'basra', seats: [{}, { bot: 'easy' }] });
  const resigned = await api(token, 'POST', `/games/${game.id}/resign`, {});
  assert.equal(resigned.status, 200);

  const page = await player(browser);
  await page.context().addInitScript(([tk, u]) => {
    localStorage.setItem('cardroom.token', tk);
    localStorage.setItem('cardroom.user', u);
  }, [token, JSON.stringify(body.user)]);
  await page.goto(`${BASE}/#/leaderboard/basra/computers`);
  await page.waitForSelector('.leaderboard');
  const row = page.locator('.leaderboard tbody tr', { hasText: name });
  assert.equal(await row.count(), 1);
  await shot(page, 'leaderboard');
  await row.locator('a.player-link').click();
  await page.waitForSelector('.profile .rating[data-kind="basra"][data-pool="computers"]');
  // Lost to easy (1200 ± 50) from 1500 ± 350: 1111.
  assert.match(await page.textContent('.rating[data-pool="computers"] .rating-value'), /^1,111 ± 569/);
  assert.match(await page.textContent('.records'), /Basra\s*1\s*0\s*0%/);
  await shot(page, 'profile');

  await page.goto(`${BASE}/#/game/${game.id}`);
  await page.waitForSelector('.table[data-status="finished"]');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-action="export-json"]'),
  ]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(exported.format, 'cardroom-game');
  assert.equal(exported.seats[0].name, name);
  const [text] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-action="export-text"]'),
  ]);
  assert.match(readFileSync(await text.path(), 'utf8'), /^# cardroom-game 3\nKind: basra #[0-9a-f]{16}\n/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
