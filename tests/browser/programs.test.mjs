// Programs through the page: a person makes and revokes a personal API token on the account
// page; a person challenges the reference bot (examples/cardroom_bot.py, running for real) from
// its profile, is taken to the table when it accepts, and plays it to the end.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  launch, player, shot, idle, uniqueName, playToEnd, BASE,
} from './harness.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function api(token, method, route, body) {
  const response = await fetch(`${BASE}/api/v1${route}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A registered account signed in on `page`'s origin before its first navigation. */
async function registered(page, name) {
  const { token, user } = await api(null, 'POST', '/auth/register', { name, password: 'a long passphrase' });
  await page.context().addInitScript(([tk, u]) => {
    localStorage.setItem('cardroom.token', tk);
    localStorage.setItem('cardroom.user', u);
  }, [token, JSON.stringify(user)]);
  return token;
}

test('a person makes a personal API token on the account page, sees it once, and revokes it', async () => {
  const page = await player(browser);
  const session = await registered(page, uniqueName('Dev'));
  await page.goto(`${BASE}/#/account`);
  await page.waitForSelector('#token-create');
  await idle(page);
  await page.fill('#token-description', 'my Basra bot');
  await page.click('#token-create');
  await page.waitForSelector('.token-secret');
  const secret = await page.inputValue('.token-secret');
  assert.match(secret, /^cdr_/);
  assert.equal(await page.$$eval('.game-row.token', (rows) => rows.length), 1);
  // The token works, within its scopes, for a program.
  const games = await api(secret, 'GET', '/games?mine=true');
  assert.equal(games.total, 0);
  // Listed without its secret; revoked, it is refused.
  assert.ok(!(await page.textContent('.tokens ul')).includes(secret.slice(20)), 'the secret is shown once');
  await shot(page, 'account-tokens');
  await page.click('[data-revoke]');
  await page.waitForSelector('.tokens .empty');
  const refused = await fetch(`${BASE}/api/v1/games?mine=true`, { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(refused.status, 401);
  assert.equal((await api(session, 'GET', '/account/tokens')).tokens.length, 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a person challenges the reference bot from its profile and plays it to the end', async () => {
  // A bot account with a token, and the reference bot running on it.
  const name = uniqueName('ExampleBot');
  const { token: session } = await api(null, 'POST', '/auth/register', { name, password: 'a long passphrase' });
  await api(session, 'POST', '/account/bot', {});
  const { token } = await api(session, 'POST', '/account/tokens', {
    description: 'the reference bot', scopes: ['play', 'challenge', 'read'],
  });
  const bot = spawn('python3', ['-u', process.env.BOT_SCRIPT || path.join(ROOT, 'examples/cardroom_bot.py'), '--url', BASE, '--token', token, '--games', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  bot.stdout.on('data', (chunk) => { output += chunk; });
  bot.stderr.on('data', (chunk) => { output += chunk; });
  try {
    await challengeAndPlay(name);
    const code = bot.exitCode !== null ? bot.exitCode : await new Promise((resolve) => {
      const timer = setTimeout(() => resolve('still running'), 20000);
      bot.on('exit', (status) => {
        clearTimeout(timer);
        resolve(status);
      });
    });
    assert.equal(code, 0, `the bot:\n${output}`);
    assert.match(output, /accepting challenge/);
  } catch (error) {
    console.log(`the reference bot said:\n${output}`);
    throw error;
  } finally {
    if (bot.exitCode === null) bot.kill();
  }
});

async function challengeAndPlay(name) {
  {
    const page = await player(browser);
    await page.goto(`${BASE}/#/player/${name}`);
    await page.waitForSelector('.challenge-form');
    await idle(page);
    assert.ok(await page.isVisible('h1 .tag.bot-account'), 'the profile says BOT');
    await page.selectOption('#challenge-kind', 'basra');
    await page.selectOption('#challenge-variant', 'cse231');
    // A visitor with no account is asked a name first, and challenges under it.
    await page.click('#challenge-send');
    await page.waitForSelector('#player-name[aria-invalid="true"]');
    await page.fill('#player-name', uniqueName('Challenger'));
    await page.click('#challenge-send');
    // The bot accepts on its own; the account stream takes the challenger to the table.
    await page.waitForURL(/#\/game\/\d+$/, { timeout: 20000 });
    await page.waitForSelector('.table');
    await idle(page);
    assert.ok(await page.isVisible('.others .tag.bot-account'), 'the bot is marked BOT at the table');
    await shot(page, 'challenge-bot');
    const played = await playToEnd(page, 'basra');
    assert.ok(played.moves >= 20, `${played.moves} moves`);
    assert.equal(await page.$eval('.table', (el) => el.dataset.status), 'finished');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
}
