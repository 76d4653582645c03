// Presence, measured with real browsers (run by scripts/bench-presence, not by the test
// command): how long after a person closes the table, or opens it again, the other player's
// page shows it; how long after a spectator opens or closes it the "watching" count follows.
// The observer's page is on replica A (CARDROOM_URL_A), the others' on replica B
// (CARDROOM_URL_B): the same server when both name it.
//
//   node bench/presence.mjs [ROUNDS]

import { launch } from '../chromium.mjs';

const A = process.env.CARDROOM_URL_A;
const B = process.env.CARDROOM_URL_B || A;
const ROUNDS = Number(process.argv[2] || 10);

async function guest(name) {
  const response = await fetch(`${A}/api/v1/auth/guest`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }),
  });
  return response.json();
}

async function api(token, method, path, body) {
  const response = await fetch(`${A}/api/v1${path}`, {
    method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

/** A browser page signed in as `account`, at `base`. */
async function pageOf(browser, account) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(([tk, u]) => {
    localStorage.setItem('cardroom.token', tk);
    localStorage.setItem('cardroom.user', u);
    localStorage.setItem('cardroom.speed', 'instant');
  }, [account.token, JSON.stringify(account.user)]);
  return context.newPage();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  // Two browsers: the observer's, and the one the others use.
  const first = await launch();
  const second = await launch();
  const tag = Math.random().toString(36).slice(2, 6);
  const [observer, other, watcher] = await Promise.all(['Obs', 'Oth', 'Wat'].map((n) => guest(`${n}${tag}`)));
  const created = await api(observer.token, 'POST', '/games', { kind: 'basra', seats: [{}, {}], visibility: 'public' });
  await api(other.token, 'POST', `/games/${created.id}/join`, { invite_code: created.invite_code });
  const table = `/#/game/${created.id}`;
  const watching = await pageOf(first, observer);
  await watching.goto(`${A}${table}`);
  await watching.waitForSelector('.table[data-status="active"]');
  const seen = (expression, arg) => watching.waitForFunction(expression, arg, { polling: 10, timeout: 60000 });
  const dot = (on) => seen((want) => {
    const node = document.querySelector('.others .presence');
    return node && node.classList.contains(want ? 'on' : 'off');
  }, on);
  const count = (n) => seen((want) => Number(document.querySelector('.tag.spectators')?.dataset.spectators || 0) === want, n);

  const gone = [];
  const back = [];
  const counted = [];
  const uncounted = [];
  let selfOffline = 0;
  let page = await pageOf(second, other);
  await page.goto(`${B}${table}`);
  await dot(true);
  for (let round = 0; round < ROUNDS; round++) {
    // The other closes the page (its streams end), and opens it again.
    await page.waitForTimeout(1500);
    let t0 = Date.now();
    await page.context().close();
    await dot(false);
    gone.push(Date.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    page = await pageOf(second, other);
    t0 = Date.now();
    await page.goto(`${B}${table}`);
    await dot(true);
    back.push(Date.now() - t0);
    // Never offline to oneself: the first drawing of one's own seat.
    if (await page.$('.mine .presence.off')) selfOffline += 1;
    // A spectator arrives, and leaves.
    const spectator = await pageOf(second, watcher);
    t0 = Date.now();
    await spectator.goto(`${B}${table}`);
    await count(1);
    counted.push(Date.now() - t0);
    await spectator.waitForTimeout(1000);
    t0 = Date.now();
    await spectator.context().close();
    await count(0);
    uncounted.push(Date.now() - t0);
  }
  const line = (what, xs, goal) => console.log(`${what.padEnd(44)} median ${String(median(xs)).padStart(5)} ms, max ${String(Math.max(...xs)).padStart(5)} ms (goal ${goal})`);
  console.log(`${ROUNDS} rounds; observer on ${A}, the others on ${B}`);
  line('closed the page: shown gone', gone, '≤ 2 s');
  line('opened it again: shown back', back, '≤ 1 s');
  line('a spectator opened it: counted', counted, '≤ 1 s');
  line('the spectator closed it: uncounted', uncounted, '≤ 2 s');
  console.log(`seen offline by oneself: ${selfOffline} of ${ROUNDS} reopenings`);
  await first.close();
  await second.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
