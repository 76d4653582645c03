// Every game played to the end through the page, clicking only what it marks as legal; a
// Basra game between two browsers joined by an invite link; the Arabic layout.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, player, createGame, playToEnd, shot, idle, uniqueName, signedInGuest, apiCreate, deckWith, BASE,
} from './harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function finishedCleanly(page, name) {
  await idle(page);
  const outcome = await page.textContent('.status-line .outcome');
  assert.ok(outcome && outcome.length > 3, 'the end of the game is announced');
  assert.ok(await page.isVisible('[data-action="again"]'), 'there is a Play again button');
  const sheet = await page.$$eval('.sheet-table tbody tr', (rows) => rows.length);
  await shot(page, `${name}-finished`);
  assert.deepEqual(page.problems, [], 'no script errors');
  return { outcome, sheet };
}

test('Basra (standard) against the computer, to the end', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'basra', variant: 'standard', options: { target: 31 } });
  // Hovering a card shows what it would take; every card of the hand is playable in Basra.
  const cards = await page.$$('.hand button.card.legal');
  assert.equal(cards.length, 4);
  assert.equal(await page.$$eval('.hand .card:not(.legal)', (n) => n.length), 0);
  const stats = await playToEnd(page, 'basra', { shotName: 'basra' });
  const { sheet } = await finishedCleanly(page, 'basra');
  assert.ok(stats.moves >= 12, `played ${stats.moves} cards`);
  assert.ok(sheet >= 1);
  await page.context().close();
});

test('Basra (classic44) against the computer, to the end', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'basra', variant: 'classic44', options: { target: 31 } });
  const stats = await playToEnd(page, 'basra', { shotName: 'basra44' });
  await finishedCleanly(page, 'basra44');
  assert.ok(stats.moves > 0);
  await page.context().close();
});

test('31 (standard) against two computer players, to the end', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'thirty_one', variant: 'standard', players: 3 });
  // At the start of a turn the hand is inert: draw first.
  if (await page.$('.status-line .your-turn')) {
    assert.equal(await page.$$eval('.hand button.card', (n) => n.length), 0);
  }
  const stats = await playToEnd(page, 'thirty_one', { shotName: 'thirty-one' });
  await finishedCleanly(page, 'thirty-one');
  assert.ok(stats.hands >= 2, `${stats.hands} hands`);
  await page.context().close();
});

test('Rummy (classic) against the computer, melding through the page', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'rummy', variant: 'classic', options: { rounds: 2 } });
  const stats = await playToEnd(page, 'rummy', { shotName: 'rummy-classic' });
  await finishedCleanly(page, 'rummy-classic');
  assert.ok(stats.moves > 0);
  await page.context().close();
});

test('Rummy (standard) against the computer, to 100', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'rummy', variant: 'standard' });
  const stats = await playToEnd(page, 'rummy', { shotName: 'rummy' });
  await finishedCleanly(page, 'rummy');
  assert.ok(stats.moves > 0);
  await page.context().close();
});

test('Tarneeb (standard) with three computer players, to the end', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'tarneeb', variant: 'standard', options: { target: 31 } });
  const stats = await playToEnd(page, 'tarneeb', { shotName: 'tarneeb' });
  await finishedCleanly(page, 'tarneeb');
  assert.ok(stats.moves >= 13);
  await page.context().close();
});

test('Tarneeb (classic) bids with denominations', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'tarneeb', variant: 'classic' });
  await page.waitForSelector('.bid-row', { timeout: 30000 }).catch(() => null);
  await shot(page, 'tarneeb-classic-auction');
  await page.context().close();
});

test('two people play Basra in two browsers through an invite link', async () => {
  const ann = await player(browser);
  const bob = await player(browser);
  await createGame(ann, { kind: 'basra', variant: 'standard', seats: { 1: '' }, options: { target: 31 } });
  await ann.waitForSelector('.table[data-status="waiting"]');
  const link = await ann.inputValue('.invite-link');
  assert.match(link, /#\/join\/\d+\/\w+/);
  await shot(ann, 'invite-waiting');
  await bob.goto(link);
  await idle(bob);
  await bob.fill('#player-name', uniqueName('Bob'));
  await bob.click('#join');
  await bob.waitForSelector('.table[data-status="active"]');
  // Ann's page learns of the join and the deal through the events endpoint, without a reload.
  await ann.waitForSelector('.table[data-status="active"]', { timeout: 10000 });
  assert.equal(await ann.$$eval('.hand .card', (n) => n.length), 4);
  assert.equal(await bob.$$eval('.hand .card', (n) => n.length), 4);
  // Neither sees the other's cards: the opponent's seat shows backs only.
  assert.equal(await ann.$$eval('.others .card:not(.back)', (n) => n.length), 0);
  const [a, b] = await Promise.all([playToEnd(ann, 'basra'), playToEnd(bob, 'basra')]);
  assert.ok(a.moves > 0 && b.moves > 0);
  const outcomes = await Promise.all([ann, bob].map((p) => p.textContent('.status-line .outcome')));
  assert.ok(outcomes.every(Boolean));
  const totals = await Promise.all([ann, bob].map((p) => p.$$eval('.scores dd', (n) => n.map((d) => d.textContent))));
  assert.deepEqual(totals[0], totals[1], 'both see the same scores');
  await shot(bob, 'invite-finished');
  assert.deepEqual([...ann.problems, ...bob.problems], []);
  await ann.context().close();
  await bob.context().close();
});

test('Arabic lays the page out right to left, and a card plays from the keyboard', async () => {
  const page = await player(browser, { lang: 'ar' });
  await page.goto(`${BASE}/#/`);
  await idle(page);
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ar');
  assert.equal(await page.textContent('#create'), 'أنشئ اللعبة');
  await shot(page, 'arabic-lobby');
  await createGame(page, { kind: 'basra', variant: 'standard' });
  assert.equal(await page.$eval('.hand', (el) => getComputedStyle(el).direction), 'rtl');
  // Right to left: the hand's first card is drawn to the right of its last.
  const xs = await page.$$eval('.hand .card', (cards) => cards.map((c) => c.getBoundingClientRect().x));
  assert.ok(xs[0] > xs[xs.length - 1], `first card at ${xs[0]}, last at ${xs[xs.length - 1]}`);
  assert.match(await page.textContent('.status-line'), /العب ورقة/);
  await shot(page, 'arabic-table');
  // Keyboard: focus a playable card and press Enter.
  const before = await page.$eval('.table', (el) => Number(el.dataset.version));
  await page.focus('.hand button.card.legal');
  await page.keyboard.press('Enter');
  await page.waitForFunction((v) => Number(document.querySelector('.table').dataset.version) > v, before);
  await idle(page);
  assert.equal(await page.$$eval('.hand .card', (n) => n.length), 3);
  // Switching back to English redraws the table in place.
  await page.click('#lang');
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'ltr');
  assert.match(await page.textContent('.status-line'), /Play a card/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the table fits a phone', async () => {
  const page = await player(browser, { viewport: { width: 390, height: 844 } });
  await createGame(page, { kind: 'tarneeb', variant: 'standard' });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the page is ${overflow}px wider than the phone`);
  await shot(page, 'phone-tarneeb');
  await page.context().close();
});

test('the rules of every variant are one click from the table, in both languages', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'rummy', variant: 'classic' });
  await page.click('.table-head a[href^="#/help/rummy/classic"]');
  await page.waitForSelector('#rules-rummy-classic');
  assert.match(await page.textContent('#rules-rummy-classic'), /compulsory exchange/);
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  assert.match(await page.textContent('#rules-rummy-classic'), /تبديل إجباري/);
  await page.goto(`${BASE}/#/help`);
  for (const id of ['basra-standard', 'basra-classic44', 'basra-cse231', 'thirty_one-standard', 'thirty_one-classic', 'rummy-standard', 'rummy-classic', 'tarneeb-standard', 'tarneeb-classic']) {
    assert.ok(await page.$(`#rules-${id} li`), `rules of ${id}`);
  }
  await page.context().close();
});

test('Basra classic44: a card with overlapping sums offers each capture, drawn with its cards', async () => {
  const page = await player(browser);
  const token = await signedInGuest(page);
  // Seat 0 gets the even cards, seat 1 the odd ones, then four go to the floor: 3♣ 6♣ 5♣ A♣.
  // 9♦ can take 3+6 or 3+5+A (both use the 3): the player chooses.
  const top = ['9D', '2H', '2D', '4H', '4D', '8H', '8D', 'TH', 'TD', '2S', '3C', '6C', '5C', 'AC'];
  const game = await apiCreate(token, {
    kind: 'basra', variant: 'classic44', seats: [{}, { bot: 'greedy' }], deck: deckWith(top, 'A23456789TJ'),
  });
  await page.goto(`${BASE}/#/game/${game.id}`);
  await page.waitForSelector('.table[data-status="active"]');
  await idle(page);
  assert.equal(await page.textContent('.table-head .tag'), 'Practice');
  // Pointing at 9♦ lights up the floor cards it could take.
  await page.hover('.hand [data-card="9D"]');
  assert.deepEqual(await page.$$eval('.floor .card.target', (n) => n.map((c) => c.dataset.card).sort()), ['3C', '5C', '6C', 'AC']);
  await page.click('.hand [data-card="9D"]');
  const choices = await page.$$eval('.choices button.legal', (n) => n.map((b) => [...b.querySelectorAll('.card')].map((c) => c.dataset.card).sort().join(' ')));
  assert.deepEqual(choices.sort(), ['3C 5C AC', '3C 6C']);
  await shot(page, 'basra44-choice');
  await page.click('.choices button.legal:has([data-card="6C"])');
  await idle(page);
  // The chosen cards left the floor; 5♣ and A♣ stayed (unless the computer took them since).
  // (Card lists are isolated left to right with U+2066…U+2069, invisible; the text without them.)
  const log = (await page.textContent('.log')).replace(/[\u2066-\u2069]/g, '');
  assert.match(log, /You play 9♦ and take (3♣ 6♣|6♣ 3♣)/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Rummy: the Meld button lights up only for a meld, and says why not', async () => {
  const page = await player(browser);
  const token = await signedInGuest(page);
  // Two players, ten cards each dealt one at a time from seat 0: seat 0 holds three sevens.
  const mine = ['7C', '7D', '7H', '2S', '3S', '4S', '9D', 'JD', 'QH', 'KC'];
  const theirs = ['AC', '3C', '5C', '8C', 'TC', 'AD', '3D', '5D', '8D', 'TD'];
  const top = mine.flatMap((card, i) => [card, theirs[i]]);
  const game = await apiCreate(token, { kind: 'rummy', variant: 'standard', seats: [{}, { bot: 'greedy' }], deck: deckWith(top) });
  await page.goto(`${BASE}/#/game/${game.id}`);
  await page.waitForSelector('.table[data-status="active"]');
  await idle(page);
  // First draw: the hand is inert until then.
  assert.equal(await page.$$eval('.hand button.card', (n) => n.length), 0);
  await page.click('.felt [data-pile="stock"].legal');
  await idle(page);
  await page.click('.hand [data-card="7C"]');
  await page.click('.hand [data-card="7D"]');
  assert.ok(await page.isDisabled('[data-action="meld"]'));
  assert.match(await page.textContent('.status-line'), /is not a meld yet/);
  await page.click('.hand [data-card="7H"]');
  assert.ok(await page.isEnabled('[data-action="meld"]'));
  await shot(page, 'rummy-meld-selected');
  await page.click('[data-action="meld"]');
  await idle(page);
  assert.deepEqual(await page.$$eval('.melds .meld .card', (n) => n.map((c) => c.dataset.card).sort()), ['7C', '7D', '7H']);
  // The run 2♠ 3♠ 4♠ is offered too.
  for (const card of ['2S', '3S', '4S']) await page.click(`.hand [data-card="${card}"]`);
  await page.click('[data-action="meld"]');
  await idle(page);
  assert.equal(await page.$$eval('.melds .meld', (n) => n.length), 2);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('resigning asks first, then ends a two-player game', async () => {
  const page = await player(browser);
  await createGame(page, { kind: 'thirty_one', variant: 'classic' });
  await page.click('[data-action="resign"]');
  assert.ok(await page.isVisible('[data-action="resign-yes"]'));
  await page.click('[data-action="resign-yes"]');
  await page.waitForSelector('.table[data-status="finished"]');
  assert.match(await page.textContent('.status-line .outcome'), /won the game/);
  await page.click('[data-action="again"]');
  await page.waitForSelector('#new-game');
  assert.equal(await page.$eval('#kind-thirty_one', (el) => el.checked), true);
  assert.equal(await page.$eval('#variant', (el) => el.value), 'classic');
  await page.context().close();
});

test('computer moves arrive one at a time, each announced while it is thought over', async () => {
  const page = await player(browser, { speed: 'fast' });
  // A fixed seed, so that the hand reaches the person's turn (a random deal can end the hand
  // before it: a dealt 31).
  await page.goto(`${BASE}/#/new/thirty_one/standard`);
  await idle(page);
  await page.fill('#player-name', uniqueName());
  await page.selectOption('#seat-count', '3');
  await page.click('.practice summary');
  await page.fill('#seed', '5eed'.repeat(16));
  await page.click('#create');
  await page.waitForURL(/#\/game\/\d+/);
  await page.waitForSelector('.status-line .your-turn');
  const logBefore = await page.$$eval('.log li', (n) => n.length);
  await page.click('.felt [data-pile="stock"].legal');
  await idle(page);
  // The two computer players' turns are shown in turn: first "is thinking…" at one seat, and
  // while it is, the page is busy (inert, no card to click). All three are read by an observer
  // in the page, in the instant the words appear: a computer move at the fast speed lasts
  // 300 ms, less than a screenshot or a round trip takes on a loaded machine.
  await page.evaluate(() => {
    const observer = new MutationObserver(() => {
      const words = [...document.querySelectorAll('.seat .thinking')]
        .find((el) => el.textContent.includes('is thinking'));
      if (!words) return;
      observer.disconnect();
      window.firstThinking = {
        thinker: words.closest('.seat').dataset.seat,
        state: document.body.dataset.state,
        cards: document.querySelectorAll('.hand button.card').length,
      };
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.click('.hand button.card.legal');
  const seen = await page.waitForFunction(() => window.firstThinking);
  const { thinker, state, cards } = await seen.jsonValue();
  assert.equal(state, 'busy');
  assert.equal(cards, 0);
  await idle(page);
  await shot(page, 'thirty-one-after-computers');
  const lines = await page.$$eval('.log li', (n) => n.map((li) => li.textContent));
  assert.ok(lines.length >= logBefore + 4, lines.join('\n'));
  assert.ok(['1', '2'].includes(thinker));
  await page.context().close();
});
