// What a person reads, in their language and on their screen: refusals in words (never the
// server's English detail), a mute said with until when in the reader's own clock, an invitation
// that says what it invites to and whose partner or opponent one would be, the admin replay
// told in words, a touch screen's hint, and targets a finger can hit.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, player, idle, createGame, shot, signedInGuest, uniqueName, BASE,
} from './harness.mjs';

const PASSWORD = process.env.CARDROOM_TEST_ADMIN_PASSWORD || 'browser admin passphrase';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function call(token, method, path, body) {
  const response = await fetch(`${BASE}/api/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const adminToken = async () => (await call(null, 'POST', '/auth/login', { name: 'root', password: PASSWORD })).body.token;

test('a refusal is said in the page\'s language: a wrong password in Arabic', async () => {
  const page = await player(browser, { lang: 'ar' });
  await page.goto(`${BASE}/#/`);
  await idle(page);
  await page.click('.identity summary');
  await page.fill('#player-name', uniqueName('Nobody'));
  await page.fill('#player-password', 'not the password');
  await page.click('.identity details .button >> nth=0');
  await page.waitForSelector('#toast.shown');
  const said = await page.textContent('#toast');
  assert.equal(said, 'الاسم أو كلمة المرور غير صحيحة.');
  assert.doesNotMatch(said, /[a-z]{3}/, 'no English in an Arabic page');
  await page.context().close();
});

test('a muted person reads until when, in their own clock and language; what they typed stays', async () => {
  const page = await player(browser, { lang: 'ar' });
  const name = uniqueName('Loud');
  const token = await signedInGuest(page, name);
  const created = await call(token, 'POST', '/games', { kind: 'basra', seats: [{}, { bot: 'easy' }] });
  await page.goto(`${BASE}/#/game/${created.body.id}`);
  await idle(page);
  // The admin mutes them while their page is open, then they write.
  const muted = await call(await adminToken(), 'POST', `/admin/users/${name}/mute`, { muted: true, minutes: 30 });
  assert.equal(muted.status, 200, JSON.stringify(muted.body));
  await page.fill('#chat-input', 'can you hear me');
  await page.press('#chat-input', 'Enter');
  await page.waitForSelector('.chat-muted-note:not([hidden])');
  const note = await page.textContent('.chat-muted-note');
  // The time as this browser's Arabic writes it, in its own time zone: never the ISO string.
  const local = await page.evaluate((until) => new Intl.DateTimeFormat('ar-u-nu-arab', { timeStyle: 'short' }).format(new Date(until)), muted.body.muted_until);
  assert.ok(note.includes(local), `"${note}" says ${local}`);
  assert.doesNotMatch(note, /\d{4}-\d\d-\d\dT/);
  assert.equal(await page.inputValue('#chat-input'), 'can you hear me', 'nothing typed vanished');
  assert.ok(await page.isDisabled('#chat-input'), 'the box is closed while the mute lasts');
  // A page opened later says it before anything is typed.
  await page.reload();
  await page.waitForSelector('.chat-muted-note:not([hidden])');
  assert.ok(await page.isDisabled('#chat-input'));
  await shot(page, 'muted-ar');
  await call(await adminToken(), 'POST', `/admin/users/${name}/mute`, { muted: false });
  await page.context().close();
});

test('an invitation says the game, who invites, the house rules, and places a friend as a partner or an opponent', async () => {
  const host = await player(browser);
  const hostName = uniqueName('Host');
  // Tarneeb: seat 2 (an opponent) and seat 3 (the partner) kept for friends.
  await createGame(host, { name: hostName, kind: 'tarneeb', variant: 'standard', seats: { 1: '', 2: '', 3: 'easy' } });
  const links = await host.$$eval('.invite-links li', (items) => items.map((li) => [li.querySelector('span').textContent, li.querySelector('input').value]));
  assert.deepEqual(links.map(([label]) => label), ['An opponent (seat 2)', 'Your partner (seat 3)']);
  const partnerLink = links[1][1];

  const friend = await player(browser, { lang: 'en' });
  await friend.goto(partnerLink);
  await friend.waitForSelector('.invitation');
  await idle(friend);
  assert.equal(await friend.textContent('.invitation h1'), `${hostName} invites you`);
  assert.match(await friend.textContent('.invitation .lead'), /Tarneeb · Standard/);
  assert.match(await friend.textContent('.invite-role'), new RegExp(`seat 3: ${hostName}’s partner`));
  assert.match(await friend.textContent('.invite-rules'), /Points to win: 41/);
  assert.match(await friend.textContent('.invite-details'), /1 min a move|No timer/);
  // Both open seats, each with what it makes the friend; the one the link kept is chosen.
  assert.deepEqual(await friend.$$eval('.seat-choice label', (l) => l.map((x) => x.textContent.trim())), [
    `Seat 2 · against ${hostName}`, `Seat 3 · ${hostName}’s partner`,
  ]);
  assert.ok(await friend.isChecked('#invite-seat-2'));
  await friend.fill('#player-name', uniqueName('Friend'));
  await friend.click('#join');
  await friend.waitForURL(/#\/game\/\d+$/);
  await friend.waitForSelector('.table');
  assert.equal(await friend.$eval('.mine .seat', (el) => el.dataset.seat), '2', 'seated as the partner');
  assert.deepEqual([...host.problems, ...friend.problems], []);
  await host.context().close();
  await friend.context().close();
});

test('the admin replay tells every step in words, numbers seats as the page does, and filters in words', async () => {
  const guest = await player(browser);
  const token = await signedInGuest(guest);
  // (A deal can end its hand at once, a 31 dealt: then another table, so that there are moves
  // to tell.)
  let id;
  for (let tries = 0; tries < 10; tries++) {
    const created = await call(token, 'POST', '/games', { kind: 'thirty_one', variant: 'classic', seats: [{}, { bot: 'easy' }] });
    id = created.body.id;
    if ((await call(token, 'GET', `/games/${id}`)).body.status === 'active') break;
  }
  for (let i = 0; i < 6; i++) {
    const { body: view } = await call(token, 'GET', `/games/${id}`);
    if (view.to_act !== view.your_seat || view.status !== 'active') break;
    const mv = view.legal_moves.find((m) => m.type !== 'knock') || view.legal_moves[0];
    await call(token, 'POST', `/games/${id}/moves`, { expected_version: view.version, move: mv });
  }
  const page = await player(browser);
  await page.goto(`${BASE}/admin#/history`);
  await page.fill('#admin-name', 'root');
  await page.fill('#admin-password', PASSWORD);
  await page.click('#admin-sign-in');
  await page.waitForSelector('#filters');
  assert.deepEqual(await page.$$eval('#filters select[name="kind"] option', (o) => o.map((x) => x.textContent)), ['any', 'Basra', '31', 'Rummy', 'Tarneeb']);
  assert.ok((await page.$$eval('#filters select[name="status"] option', (o) => o.map((x) => x.textContent))).includes('Hand over'));
  await page.goto(`${BASE}/admin#/replay/${id}`);
  await page.waitForSelector('#step-label');
  const steps = [];
  await page.click('[data-action="first"]');
  for (let i = 0; i < 8; i++) {
    steps.push(await page.textContent('#step-action'));
    await page.click('[data-action="next"]');
  }
  for (const step of steps) assert.doesNotMatch(step, /[{}]|"type"/, `told in words: ${step}`);
  assert.ok(steps.some((s) => /draws|discards|takes/.test(s)), steps.join(' | '));
  assert.match(await page.textContent('.replay-seat[data-seat="0"] h3'), /^Seat 1 \(/);
  const controls = await page.textContent('.replay-controls');
  assert.doesNotMatch(controls, /[\u23EE\u23ED]/, 'no symbol a plain font lacks');
  assert.deepEqual(page.problems, []);
  await guest.context().close();
  await page.context().close();
});

test('a touch screen is told to tap, and every target is big enough to hit', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.addInitScript(() => localStorage.setItem('cardroom.speed', 'instant'));
  const page = await context.newPage();
  const token = await (async () => {
    const made = await call(null, 'POST', '/auth/guest', { name: uniqueName('Thumb') });
    await context.addInitScript(([tk, u]) => {
      localStorage.setItem('cardroom.token', tk);
      localStorage.setItem('cardroom.user', u);
    }, [made.body.token, JSON.stringify(made.body.user)]);
    return made.body.token;
  })();
  const created = await call(token, 'POST', '/games', { kind: 'basra', seats: [{}, { bot: 'easy' }] });
  await page.goto(`${BASE}/#/game/${created.body.id}`);
  await page.waitForSelector('.status-line .your-turn');
  const prompt = await page.textContent('.status-line .your-turn');
  assert.doesNotMatch(prompt, /Point at/, 'no pointer on a touch screen');
  assert.match(prompt, /tap/);
  // WCAG 2.5.8: every target at least 24×24 px; the main controls 44 px high.
  const small = await page.evaluate(() => [...document.querySelectorAll('a, button, select, input:not([type="hidden"])')]
    .filter((el) => el.offsetParent !== null && !el.closest('.hand, .felt, .skip'))
    .map((el) => ({ el, box: el.getBoundingClientRect() }))
    .filter(({ box }) => box.height < 24 || box.width < 24)
    .map(({ el, box }) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || el.value || '').trim().slice(0, 20)}" ${Math.round(box.width)}×${Math.round(box.height)}`));
  assert.deepEqual(small, [], 'targets under 24 px');
  const main = await page.evaluate(() => [...document.querySelectorAll('.chat-form .button, .status-line .button, .lobby .button.primary')]
    .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < 44)
    .map((el) => `${el.textContent.trim()} ${Math.round(el.getBoundingClientRect().height)}`));
  assert.deepEqual(main, [], 'main controls under 44 px');
  await context.close();
});

test('a hand that ends on another\'s move is told whole and scored, at the pace one chose', async () => {
  // The page shows others' moves one by one at the "normal" pace, while the other player (over
  // the API) is quicker: the hand ends before the page has shown everything.
  const page = await player(browser, { speed: 'normal' });
  const a = await signedInGuest(page, uniqueName('Slow'));
  const b = (await call(null, 'POST', '/auth/guest', { name: uniqueName('Quick') })).body.token;
  const made = (await call(a, 'POST', '/games', { kind: 'thirty_one', variant: 'standard', seats: [{}, {}, { bot: 'easy' }] })).body;
  await call(b, 'POST', `/games/${made.id}/join`, { invite_code: made.invite_code });
  await page.goto(`${BASE}/#/game/${made.id}`);
  await idle(page);
  for (let i = 0; i < 300; i++) {
    const seen = await Promise.all([a, b].map(async (token) => (await call(token, 'GET', `/games/${made.id}`)).body));
    if (seen[0].status === 'hand_over') break;
    const mover = seen.find((v) => v.status === 'active' && v.to_act === v.your_seat);
    if (!mover) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    const token = mover === seen[0] ? a : b;
    const move = mover.legal_moves.find((m) => m.type === (token === b ? 'knock' : 'draw')) || mover.legal_moves.find((m) => m.type !== 'knock') || mover.legal_moves[0];
    await call(token, 'POST', `/games/${made.id}/moves`, { expected_version: mover.version, move });
  }
  await page.waitForSelector('.table[data-status="hand_over"] .hand-summary', { timeout: 20000 });
  const log = await page.textContent('.log');
  assert.match(log, /Showdown/, 'the showdown is told');
  assert.match(log, /Hand 1 scored/, 'the hand is scored in the log');
  assert.doesNotMatch(await page.textContent('.sheet'), /No hand has been scored yet/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
