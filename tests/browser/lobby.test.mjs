// Finding a game with others through the page: one person opens a public table, a stranger
// finds it among the lobby's open tables and sits down with one click, and they play.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, player, idle, playToEnd, shot, uniqueName, BASE,
} from './harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a stranger finds a public table in the lobby and sits down with one click', async () => {
  const ann = await player(browser);
  const bob = await player(browser);
  // Bob is in the lobby before the table opens: it appears there without a reload.
  await bob.goto(`${BASE}/#/`);
  await idle(bob);
  await ann.goto(`${BASE}/#/new/basra/standard`);
  await idle(ann);
  await ann.fill('#player-name', uniqueName('Ann'));
  await ann.check('#kind-basra');
  await ann.selectOption('#seat-1', '');
  await ann.fill('[data-option="target"]', '31');
  await ann.selectOption('#visibility', 'public');
  await ann.click('#create');
  await ann.waitForSelector('.table[data-status="waiting"]');
  const id = Number(ann.url().match(/#\/game\/(\d+)/)[1]);

  const row = `.open-tables .open-table[data-game="${id}"]`;
  await bob.waitForSelector(row, { timeout: 10000 });
  assert.match(await bob.textContent(row), /Open seat/);
  await shot(bob, 'lobby-open-tables');
  await bob.fill('#player-name', uniqueName('Bob'));
  await bob.click(`${row} .sit-down`);
  await bob.waitForURL(new RegExp(`#/game/${id}$`));
  await bob.waitForSelector('.table[data-status="active"]');
  // Ann's page learns of the stranger through the events, without a reload.
  await ann.waitForSelector('.table[data-status="active"]', { timeout: 10000 });
  const [a, b] = await Promise.all([playToEnd(ann, 'basra'), playToEnd(bob, 'basra')]);
  assert.ok(a.moves > 0 && b.moves > 0);
  // The table has left the lobby.
  await bob.goto(`${BASE}/#/`);
  await idle(bob);
  assert.equal(await bob.$$eval(row, (n) => n.length), 0);
  assert.deepEqual([...ann.problems, ...bob.problems], [], 'no script errors');
  await ann.context().close();
  await bob.context().close();
});

test('two strangers who ask for a quick match at the same moment play each other', async () => {
  const pages = [await player(browser), await player(browser)];
  for (const [n, page] of pages.entries()) {
    await page.goto(`${BASE}/#/new/basra/standard`);
    await idle(page);
    await page.fill('#player-name', uniqueName(n ? 'Sara' : 'Omar'));
    await page.check('#kind-basra');
    await page.fill('[data-option="target"]', '31');
  }
  await Promise.all(pages.map((page) => page.click('#quick-match')));
  await Promise.all(pages.map((page) => page.waitForURL(/#\/game\/\d+$/, { timeout: 15000 })));
  const ids = pages.map((page) => Number(page.url().match(/#\/game\/(\d+)/)[1]));
  assert.equal(ids[0], ids[1], 'both are at the same table');
  await Promise.all(pages.map((page) => page.waitForSelector('.table[data-status="active"]')));
  await shot(pages[0], 'quick-match');
  // A third person finds the game under "Being played now" and watches it: no hand, no move.
  const watcher = await player(browser);
  await watcher.goto(`${BASE}/#/`);
  await idle(watcher);
  await watcher.fill('#player-name', uniqueName('Lina'));
  const live = `.live-game[data-game="${ids[0]}"] a`;
  await watcher.waitForSelector(live, { timeout: 10000 });
  await watcher.click(live);
  await watcher.waitForSelector('.table .tag.watching');
  assert.equal(await watcher.$$eval('.hand-area, .actions', (n) => n.length), 0, 'a spectator has no hand and no moves');
  assert.equal(await watcher.$$eval('.felt button.legal', (n) => n.length), 0);
  const playersFaces = await watcher.$$eval('.seat .card:not(.back)', (n) => n.length);
  assert.equal(playersFaces, 0, 'every hand is face down for a spectator');
  await shot(watcher, 'watching');
  const played = await Promise.all(pages.map((page) => playToEnd(page, 'basra')));
  assert.ok(played.every((p) => p.moves > 0));
  assert.deepEqual([...pages, watcher].flatMap((page) => page.problems), [], 'no script errors');
  for (const page of [...pages, watcher]) await page.context().close();
});
