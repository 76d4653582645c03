// Finding a game with others through the page: one person opens a public table, a stranger
// finds it among the lobby's open tables and sits down with one click, and they play.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, player, idle, playToEnd, shot, uniqueName, apiCreate, BASE,
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

/** The chat messages shown on `page`, as text. */
async function chatLines(page) {
  return page.$$eval('.chat-message .chat-text', (nodes) => nodes.map((n) => n.textContent));
}

test('two strangers meet through quick match, chat, play to the end and rematch; a third watches', async () => {
  const pages = [await player(browser), await player(browser)];
  const names = [uniqueName('Omar'), uniqueName('Sara')];
  for (const [n, page] of pages.entries()) {
    await page.goto(`${BASE}/#/new/basra/standard`);
    await idle(page);
    await page.fill('#player-name', names[n]);
    await page.check('#kind-basra');
    await page.fill('[data-option="target"]', '31');
    // Quick match has no seats to choose: they are hidden once it is chosen.
    assert.ok(await page.isVisible('#seat-1'));
    await page.check('#mode-quick');
    assert.ok(!(await page.isVisible('#seat-1')), 'the seats of a table are not offered for a quick match');
    assert.ok(!(await page.isVisible('#create')));
  }
  const asked = Date.now();
  await Promise.all(pages.map((page) => page.click('#quick-match')));
  await Promise.all(pages.map((page) => page.waitForURL(/#\/game\/\d+$/, { timeout: 15000 })));
  const ids = pages.map((page) => Number(page.url().match(/#\/game\/(\d+)/)[1]));
  assert.equal(ids[0], ids[1], 'both are at the same table');
  const [omar, sara] = pages;
  await Promise.all(pages.map((page) => page.waitForSelector('.table[data-status="active"]')));
  console.log(`quick match: both strangers at the dealt table ${Date.now() - asked} ms after asking`);
  // Each sees the other connected.
  await Promise.all(pages.map((page) => page.waitForSelector('.others .presence.on', { timeout: 15000 })));
  await shot(omar, 'quick-match');

  // They talk: typed text (markup stays text) and a preset phrase, in the players' room.
  await omar.fill('#chat-input', 'good luck <b>Sara</b>');
  await omar.press('#chat-input', 'Enter');
  await sara.waitForFunction(() => [...document.querySelectorAll('.chat-message .chat-text')]
    .some((n) => n.textContent === 'good luck <b>Sara</b>'), null, { timeout: 15000 });
  assert.equal(await sara.$$eval('.chat-message b', (n) => n.length), 0, 'never drawn as markup');
  await sara.click('.chat-presets [data-preset="thanks"]');
  await omar.waitForFunction(() => [...document.querySelectorAll('.chat-message .chat-text')]
    .some((n) => n.textContent === 'Thanks'), null, { timeout: 15000 });

  // A third person finds the game under "Being played now" and watches it: no hand, no move,
  // and the players' room is not theirs to read. (The players' tables are marked first: a
  // newcomer changes the dots and the count, never the cards under a player's finger.)
  for (const page of pages) await page.evaluate(() => { window.drawn = document.querySelector('.table .hand-area .card'); });
  const watcher = await player(browser);
  await watcher.goto(`${BASE}/#/`);
  await idle(watcher);
  await watcher.fill('#player-name', uniqueName('Lina'));
  const live = `.live-game[data-game="${ids[0]}"] a`;
  await watcher.waitForSelector(live, { timeout: 10000 });
  await watcher.click(live);
  await watcher.waitForSelector('.table .tag.watching');
  await idle(watcher);
  assert.equal(await watcher.$$eval('.hand-area, .actions', (n) => n.length), 0, 'a spectator has no hand and no moves');
  assert.equal(await watcher.$$eval('.felt button.legal', (n) => n.length), 0);
  assert.equal(await watcher.$$eval('.seat .card:not(.back)', (n) => n.length), 0, 'every hand is face down for a spectator');
  assert.deepEqual(await chatLines(watcher), [], 'the players\' room is closed to spectators');
  await watcher.fill('#chat-input', 'Omar holds a seven');
  await watcher.press('#chat-input', 'Enter');
  await watcher.waitForFunction(() => [...document.querySelectorAll('.chat-message .chat-text')]
    .some((n) => n.textContent === 'Omar holds a seven'));
  // The players see that someone watches, and never the spectators' tip: a word said after it
  // arrives, and the tip (which would have come first) did not.
  await omar.waitForSelector('.tag.spectators[data-spectators="1"]', { timeout: 15000 });
  assert.ok(await omar.evaluate(() => window.drawn.isConnected), 'someone arriving redrew the hand');
  await sara.fill('#chat-input', 'your move');
  await sara.press('#chat-input', 'Enter');
  await omar.waitForFunction(() => [...document.querySelectorAll('.chat-message .chat-text')]
    .some((n) => n.textContent === 'your move'), null, { timeout: 15000 });
  assert.ok(!(await chatLines(omar)).includes('Omar holds a seven'), 'a spectator tipped a player');
  await shot(watcher, 'watching');
  const seatBefore = await omar.$eval('.mine .seat', (el) => el.dataset.seat);

  const played = await Promise.all(pages.map((page) => playToEnd(page, 'basra')));
  assert.ok(played.every((p) => p.moves > 0));
  assert.equal(await watcher.$$eval('.seat .card:not(.back)', (n) => n.length), 0, 'still face down');
  // Once the game is over, both rooms are open to everyone at the table.
  await omar.waitForFunction(() => [...document.querySelectorAll('.chat-message .chat-text')]
    .some((n) => n.textContent === 'Omar holds a seven'), null, { timeout: 15000 });

  // The rematch: Omar offers, Sara accepts, and both are taken to the same new table.
  await omar.click('[data-action="rematch"]');
  await sara.waitForSelector('.rematch[data-rematch="offered"] [data-action="rematch"]', { timeout: 15000 });
  await shot(sara, 'rematch-offered');
  await sara.click('.rematch [data-action="rematch"]');
  await Promise.all(pages.map((page) => page.waitForFunction(
    (old) => /#\/game\/\d+$/.test(location.hash) && !location.hash.endsWith(`/${old}`), ids[0], { timeout: 15000 },
  )));
  const next = pages.map((page) => Number(page.url().match(/#\/game\/(\d+)/)[1]));
  assert.equal(next[0], next[1], 'both went to the same rematch');
  await Promise.all(pages.map((page) => page.waitForSelector('.table[data-status="active"]')));
  // The new table's log says which game it follows, not that one of them alone set it up.
  const log = await omar.textContent('.log');
  assert.match(log, new RegExp(`The rematch of table ${ids[0]}`));
  assert.doesNotMatch(log, /set up the table/);
  // Every seat moved one place on.
  const seatAfter = await omar.$eval('.mine .seat', (el) => el.dataset.seat);
  assert.equal(Number(seatAfter), (Number(seatBefore) + 1) % 2);
  // The watcher is offered to follow them.
  await watcher.waitForSelector('[data-action="watch-rematch"]', { timeout: 15000 });
  assert.deepEqual([...pages, watcher].flatMap((page) => page.problems), [], 'no script errors');
  for (const page of [...pages, watcher]) await page.context().close();
});

test('a lobby list that a listing leaves unchanged is not drawn again under the pointer', async () => {
  const bob = await player(browser);
  await bob.goto(`${BASE}/#/`);
  await idle(bob);
  // What the lists show now (tournaments, or that there are none), marked on the elements.
  await bob.waitForSelector('.tournament-list > *');
  await bob.evaluate(() => {
    for (const node of document.querySelectorAll('.tournament-list > *')) node.dataset.kept = 'yes';
  });
  // Someone opens a public table: the lobby's stream brings a new listing, whose tournaments
  // are the same. The new table appears; the tournaments' elements are the ones marked.
  const response = await fetch(`${BASE}/api/v1/auth/guest`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: uniqueName('Cai') }),
  });
  const { token } = await response.json();
  const created = await apiCreate(token, {
    kind: 'basra', variant: 'standard', seats: [{}, {}], options: { target: 31 }, visibility: 'public',
  });
  await bob.waitForSelector(`.open-tables .open-table[data-game="${created.id}"]`, { timeout: 10000 });
  const kept = await bob.$$eval('.tournament-list > *', (nodes) => nodes.map((n) => n.dataset.kept || 'drawn again'));
  assert.ok(kept.length > 0);
  assert.deepEqual(kept, kept.map(() => 'yes'), 'the tournaments were drawn again though unchanged');
  await bob.context().close();
});
