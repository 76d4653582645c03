// A tournament through the page, in English and in Arabic: a person finds it in the lobby,
// joins, is taken to their table when the round starts, plays it out, and the standings move
// on the tournament's page — live, on a watcher's page that never reloads.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, player, idle, playToEnd, shot, uniqueName, signedInGuest, BASE,
} from './harness.mjs';

const PASSWORD = process.env.CARDROOM_TEST_ADMIN_PASSWORD || 'browser admin passphrase';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function call(method, path, token, body) {
  const response = await fetch(`${BASE}/api/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Plays `token`'s turns at game `id` (first legal move, dealing when asked) until it ends. */
async function opponent(token, id) {
  for (let i = 0; i < 20000; i++) {
    const { body: view } = await call('GET', `/games/${id}`, token);
    if (view.status === 'finished') return;
    if (view.status === 'hand_over') await call('POST', `/games/${id}/deal`, token, { expected_version: view.version });
    else if (view.status === 'active' && view.to_act === view.your_seat) {
      await call('POST', `/games/${id}/moves`, token, { expected_version: view.version, move: view.legal_moves[0] });
    } else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the opponent never finished');
}

for (const [lang, viewport] of [['en', { width: 1280, height: 900 }], ['ar', { width: 390, height: 844 }]]) {
  test(`a person joins a tournament from the lobby, plays their round and sees the standings (${lang})`, async () => {
    const admin = (await call('POST', '/auth/login', null, { name: 'root', password: PASSWORD })).body.token;
    const name = `Cup ${lang} ${uniqueName('')}`;
    const made = await call('POST', '/tournaments', admin, {
      name, format: 'swiss', kind: 'basra', rounds: 1, options: { target: 31 }, starts_in: 20,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;

    // A watcher follows the tournament's page from before the start.
    const watcher = await player(browser, { lang, viewport });
    await signedInGuest(watcher, uniqueName('Watcher'));
    await watcher.goto(`${BASE}/#/tournament/${id}`);
    await idle(watcher);
    await watcher.waitForSelector(`.tournament[data-status="upcoming"]`);

    // The person finds it in the lobby and joins.
    const page = await player(browser, { lang, viewport });
    await signedInGuest(page, uniqueName('Nour'));
    await page.goto(`${BASE}/#/`);
    await idle(page);
    const row = `.tournaments .tournament-row[data-id="${id}"] a`;
    await page.waitForSelector(row, { timeout: 10000 });
    await shot(page, `tournament-lobby-${lang}`);
    await page.click(row);
    await page.waitForURL(new RegExp(`#/tournament/${id}$`));
    await idle(page);
    assert.match(await page.textContent('.countdown'), /\d:\d\d/, 'a countdown before the start');
    await page.click('#tournament-join');
    await page.waitForSelector('#tournament-withdraw');
    await shot(page, `tournament-joined-${lang}`);
    // The watcher's page hears of the entrant without a reload.
    await watcher.waitForSelector('.standings tbody tr', { timeout: 10000 });

    // A second entrant, over the API, plays the other seat.
    const rival = (await call('POST', '/auth/guest', null, { name: uniqueName('Rival') })).body.token;
    assert.equal((await call('POST', `/tournaments/${id}/join`, rival, {})).status, 200);

    // The round starts: the page takes the person to their table.
    await page.waitForURL(/#\/game\/\d+$/, { timeout: 40000 });
    const game = Number(page.url().match(/#\/game\/(\d+)/)[1]);
    await page.waitForSelector('.table[data-status="active"], .table[data-status="hand_over"]');
    // The table's header names the tournament and round, and leads back to it.
    const link = await page.$eval('.table-head .tournament-link', (a) => [a.getAttribute('href'), a.textContent]);
    assert.equal(link[0], `#/tournament/${id}`);
    assert.ok(link[1].includes(name) && link[1].includes('1'), link[1]);
    await shot(page, `tournament-table-${lang}`);
    const [played] = await Promise.all([playToEnd(page, 'basra'), opponent(rival, game)]);
    assert.ok(played.moves > 0);

    // The watcher's page, never reloaded, shows the round over and both entrants' game.
    await watcher.waitForSelector('.tournament[data-status="finished"]', { timeout: 20000 });
    const games = await watcher.$$eval('.standings tbody tr td:nth-child(4)', (cells) => cells.map((c) => c.textContent));
    assert.deepEqual(games, ['1', '1']);
    // A table of two: first place is worth 1, second 0 (a shared first place ½ each).
    const points = await watcher.$$eval('.standings tbody tr td.points', (cells) => cells.map((c) => Number(c.textContent)));
    assert.equal(points[0] + points[1], 1, String(points));
    await watcher.waitForSelector(`.table-result[data-game="${game}"]`);
    await shot(watcher, `tournament-finished-${lang}`);
    assert.equal(await watcher.evaluate(() => document.documentElement.dir), lang === 'ar' ? 'rtl' : 'ltr');
    assert.deepEqual([...page.problems, ...watcher.problems], [], 'no script errors');
    await page.context().close();
    await watcher.context().close();
  });
}

/** Waits until tournament `id` is at `status` (over the API, as `token`; `seconds` at most). */
async function reached(token, id, status, seconds = 20) {
  for (let i = 0; i < seconds * 10; i++) {
    const { body } = await call('GET', `/tournaments/${id}`, token);
    if (body.status === status) return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`tournament ${id} never became ${status}`);
}

test('the tournament page in every format and state, as an entrant, an outsider and by a private link, in English and Arabic', async () => {
  const admin = (await call('POST', '/auth/login', null, { name: 'root', password: PASSWORD })).body.token;
  const make = async (token, body) => {
    const made = await call('POST', '/tournaments', token, { name: `States ${uniqueName('')}`, ...body });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return made.body;
  };
  const guest = async () => (await call('POST', '/auth/guest', null, { name: uniqueName('Entrant') })).body;
  const enter = async (id, token, code) => assert.equal((await call('POST', `/tournaments/${id}/join`, token, code ? { code } : {})).status, 200);

  // Finished: a team match of Tarneeb, five guests who never move — after one 5-second timeout
  // each a computer player takes their seat — so its one round plays itself out: two teams (a
  // three and a two, computer players in the empty seats), two tables, the board's result.
  const finishedTeams = await make(admin, {
    format: 'duplicate', teams: true, kind: 'tarneeb', options: { target: 31 }, rounds: 1, fill: 'easy',
    turn: { seconds: 5, takeover_after: 1 }, starts_in: 1,
  });
  for (let i = 0; i < 5; i++) await enter(finishedTeams.id, (await guest()).token);
  // Upcoming: an arena starting in ten minutes (a countdown, Join).
  const upcoming = await make(admin, { format: 'arena', kind: 'basra', minutes: 30, starts_in: 600 });
  // Cancelled: nobody entered.
  const cancelled = await make(admin, { format: 'swiss', kind: 'thirty_one', starts_in: 1 });
  // Running: a duplicate of Tarneeb and an arena of Rummy, two entrants each with computer
  // players completing the tables (matchpoints, streaks, your table).
  const duplicate = await make(admin, { format: 'duplicate', kind: 'tarneeb', rounds: 2, fill: 'easy', starts_in: 2 });
  const arena = await make(admin, { format: 'arena', kind: 'rummy', variant: 'classic', minutes: 5, fill: 'easy', starts_in: 2 });
  // Running: a team match of five, the entrant among them (teams, a match's two tables).
  const teams = await make(admin, { format: 'duplicate', teams: true, kind: 'tarneeb', rounds: 2, fill: 'easy', starts_in: 2 });
  const entrant = await guest();
  for (const t of [duplicate, arena]) {
    await enter(t.id, entrant.token);
    await enter(t.id, (await guest()).token);
  }
  await enter(teams.id, entrant.token);
  for (let i = 0; i < 4; i++) await enter(teams.id, (await guest()).token);
  // Private, made by a registered player: reached through its link only.
  const owner = (await call('POST', '/auth/register', null, { name: uniqueName('Owner'), password: 'a long passphrase' })).body.token;
  const hidden = await make(owner, { format: 'swiss', kind: 'rummy', private: true, starts_in: 600 });
  await reached(admin, cancelled.id, 'cancelled');
  await reached(admin, duplicate.id, 'running');
  await reached(admin, arena.id, 'running');
  await reached(admin, teams.id, 'running');
  await reached(admin, finishedTeams.id, 'finished', 180);

  const cells = [
    ['upcoming arena', upcoming.id, 'upcoming', null],
    ['cancelled swiss', cancelled.id, 'cancelled', null],
    ['running duplicate, entrant', duplicate.id, 'running', entrant],
    ['running duplicate, outsider', duplicate.id, 'running', null],
    ['running arena, entrant', arena.id, 'running', entrant],
    ['running team match, entrant', teams.id, 'running', entrant],
    ['finished team match', finishedTeams.id, 'finished', null],
    ['private swiss by its link', `${hidden.id}/${hidden.code}`, 'upcoming', null],
  ];
  for (const [lang, viewport] of [['en', { width: 1280, height: 900 }], ['ar', { width: 390, height: 844 }]]) {
    for (const [label, path, status, who] of cells) {
      const page = await player(browser, { lang, viewport });
      if (who) {
        await page.context().addInitScript(([tk, u]) => {
          localStorage.setItem('cardroom.token', tk);
          localStorage.setItem('cardroom.user', u);
        }, [who.token, JSON.stringify(who.user)]);
      } else {
        await signedInGuest(page, uniqueName('Visitor'));
      }
      await page.goto(`${BASE}/#/tournament/${path}`);
      await idle(page);
      await page.waitForSelector(`.tournament[data-status="${status}"]`);
      const faults = await page.evaluate(() => {
        const out = [];
        const text = document.body.innerText;
        const bad = text.match(/\b(null|undefined|NaN)\b|\[object Object\]/);
        if (bad) out.push(`shows "${bad[0]}"`);
        const root = document.documentElement;
        if (root.scrollWidth > root.clientWidth + 1) {
          // (The skip link waits off screen until focused: not what is wide.)
          const wide = [...document.body.querySelectorAll('*')].reverse().find((e) => {
            const box = e.getBoundingClientRect();
            return !e.matches('.skip') && box.width > 0 && (box.left < -1 || box.right > root.clientWidth + 1);
          });
          out.push(`scrolls sideways: ${root.scrollWidth}px in ${root.clientWidth}px (${wide ? `${wide.tagName}.${wide.className}: ${wide.textContent.slice(0, 80)}` : '?'})`);
        }
        return out;
      });
      assert.deepEqual(faults, [], `${label} (${lang})`);
      const has = async (selector) => (await page.$$(selector)).length > 0;
      assert.equal(await has('#tournament-join'), status === 'upcoming', `${label} (${lang}): Join`);
      assert.equal(await has('#your-table'), who !== null, `${label} (${lang}): your table`);
      if (status === 'running') assert.ok(await has('.round .table-result'), `${label} (${lang}): the round's tables`);
      if (label.includes('arena') && status === 'running') assert.ok(await has('.standings'), label);
      if (label.includes('team match')) {
        // The teams as drawn, and the round as matches of two tables each.
        assert.equal((await page.$$('.teams .team-list li')).length, 2, `${label} (${lang}): two teams`);
        const tables = await page.$$eval('.team-match', (ms) => ms.map((m) => m.querySelectorAll('.table-result').length));
        assert.deepEqual(tables, [2], `${label} (${lang}): one match of two tables`);
        const board = await page.$eval('.team-match .board-result', (e) => e.textContent);
        if (status === 'finished') {
          // Each team's result on the board, opposite numbers.
          const results = [...board.matchAll(/([+−]?)(\d+)/g)].filter((m, i) => i % 2 === 1)
            .map(([, sign, n]) => (sign === '−' ? -Number(n) : Number(n)));
          assert.equal(results.length, 2, `${label} (${lang}): ${board}`);
          assert.equal(results[0] + results[1], 0, `${label} (${lang}): ${board}`);
        } else {
          assert.ok(!/\d/.test(board), `${label} (${lang}): not played yet: ${board}`);
        }
      }
      await shot(page, `tournament-${label.replace(/[^a-z]+/g, '-')}-${lang}`);
      assert.deepEqual(page.problems, [], `${label} (${lang}): no script errors`);
      await page.context().close();
    }
  }
});

/** An upcoming tournament's page, open in a browser signed in with a personal API token (which
 * can be revoked; a session cannot), with the time of every request for the tournament's stream. */
async function readerWithApiToken(label) {
  const admin = (await call('POST', '/auth/login', null, { name: 'root', password: PASSWORD })).body.token;
  const made = await call('POST', '/tournaments', admin, {
    name: `${label} ${uniqueName('')}`, format: 'swiss', kind: 'basra', rounds: 1, options: { target: 31 }, starts_in: 600,
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  const registered = await call('POST', '/auth/register', null, { name: uniqueName('Reader'), password: 'a long passphrase' });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  const session = registered.body.token;
  const minted = await call('POST', '/account/tokens', session, { description: 'the page', scopes: ['read', 'play'] });
  assert.equal(minted.status, 201, JSON.stringify(minted.body));
  const page = await player(browser);
  await page.context().addInitScript(([tk, u]) => {
    localStorage.setItem('cardroom.token', tk);
    localStorage.setItem('cardroom.user', u);
  }, [minted.body.token, JSON.stringify(registered.body.user)]);
  const isStream = (request) => new URL(request.url()).pathname === `/api/v1/tournaments/${id}`
    && (request.headers().accept || '').includes('text/event-stream');
  const streams = [];
  page.on('request', (request) => {
    if (isStream(request)) streams.push(Date.now());
  });
  const revoke = async () => {
    const listed = await call('GET', '/account/tokens', session);
    const revoked = await fetch(`${BASE}/api/v1/account/tokens/${listed.body.tokens[0].id}`, {
      method: 'DELETE', headers: { Authorization: `Bearer ${session}` },
    });
    assert.equal(revoked.status, 204);
  };
  return { id, page, streams, isStream, revoke };
}

test('a tournament page whose token is revoked stops following the tournament, asking nothing more', async () => {
  const { id, page, streams, revoke } = await readerWithApiToken('Revoked');
  await page.goto(`${BASE}/#/tournament/${id}`);
  await idle(page);
  await page.waitForSelector('.tournament[data-status="upcoming"]');
  const deadline = Date.now() + 10000;
  while (streams.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(streams.length, 1, 'the page follows the tournament on one stream');

  const revokedAt = Date.now();
  await revoke();
  // The stream ends within a recheck (a second) with `stream_end`; a page that asked again would
  // do so two seconds after, and be refused.
  await new Promise((resolve) => setTimeout(resolve, 6000));
  assert.deepEqual(streams.filter((at) => at > revokedAt), [], 'no stream asked for after the revocation');
  await page.context().close();
});

test('a tournament page whose stream is refused at opening (token revoked) does not ask again', async () => {
  const { id, page, streams, isStream, revoke } = await readerWithApiToken('Refused');
  // The token is revoked just as the page asks for the stream, after the page itself was read
  // with it: the real server then refuses the stream with a 401.
  const statuses = [];
  page.on('response', (response) => {
    if (isStream(response.request())) statuses.push(response.status());
  });
  let revoked = false;
  await page.route(`**/api/v1/tournaments/${id}`, async (route) => {
    if (isStream(route.request()) && !revoked) {
      revoked = true;
      await revoke();
    }
    await route.continue();
  });
  await page.goto(`${BASE}/#/tournament/${id}`);
  await idle(page);
  await page.waitForSelector('.tournament[data-status="upcoming"]');
  const deadline = Date.now() + 10000;
  while (statuses.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(statuses, [401], 'the stream was refused at opening');
  // A page that treated the refusal as a dropped stream would ask again two seconds later.
  await new Promise((resolve) => setTimeout(resolve, 6000));
  assert.equal(streams.length, 1, 'no stream asked for after the refusal');
  // (The browser reports the refused request itself as a failed load; nothing else may fail.)
  assert.deepEqual(page.problems.filter((p) => !/status of 401/.test(p)), [], 'no script errors');
  await page.context().close();
});
