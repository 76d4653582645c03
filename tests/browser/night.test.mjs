// A club's tournament night, through the page alone (no API call in the test): an admin makes
// a Swiss of three rounds with the form on /admin; three newcomers arrive at the lobby for the
// first time, find it, type their names and join; the admin brings its start forward to now
// with the form's Change; every round takes each of them to their
// table, and a finished table says what comes next; they play to the end and see the winner; a
// visitor who opened the tournament before the start watches it end without reloading; each
// player opens the analysis of a game and walks through their mistakes. Then a fresh visitor
// opens a public game's link, the tournament's link, and a link to a game that is not there.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, player, idle, playToEnd, shot, uniqueName, BASE } from './harness.mjs';

const PASSWORD = process.env.CARDROOM_TEST_ADMIN_PASSWORD || 'browser admin passphrase';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The night's tournament, for the visitor who opens its link afterwards. */
let night = null;

const gameOf = (page) => Number((page.url().match(/#\/game\/(\d+)$/) || [])[1]);

/**
 * Notes every address `page` is taken to from now on, as it is taken there (a table can be
 * played out inside one call of playToEnd when the next round takes the page on before it
 * looks). Begun before the start: the first round can take the page to its table at once.
 */
async function noteTables(page) {
  await page.evaluate(() => {
    const note = () => {
      const visited = JSON.parse(sessionStorage.getItem('visited') || '[]');
      sessionStorage.setItem('visited', JSON.stringify([...visited, location.hash]));
    };
    note();
    window.addEventListener('hashchange', note);
  });
}

/**
 * Plays every table the tournament gives `page`, as the page takes it there, until a finished
 * table says the tournament is over; returns the games it was taken to (see noteTables).
 */
async function playTheNight(page) {
  const visited = async () => new Set((await page.evaluate(() => JSON.parse(sessionStorage.getItem('visited') || '[]')))
    .map((hash) => Number((hash.match(/^#\/game\/(\d+)$/) || [])[1])).filter(Boolean));
  const played = new Set();
  for (let guard = 0; guard < 12; guard++) {
    // Taken to a table (the first round, or the next from the last finished table).
    await page.waitForFunction((seen) => {
      const id = Number((location.hash.match(/^#\/game\/(\d+)$/) || [])[1]);
      const over = document.querySelector('.tournament-next[data-status="finished"]');
      return over || (id && !seen.includes(id) && document.querySelector('.table'));
    }, [...played], { timeout: 90000 });
    if (await page.$('.tournament-next[data-status="finished"]')) return visited();
    const id = gameOf(page);
    await idle(page);
    await playToEnd(page, 'thirty_one');
    // (If the next round took the page on already, its table is played next time round: a
    // table already over is played out at once.)
    played.add(id);
    // The finished table says what comes next (unless the next round took the page on first,
    // to a table still being played).
    await page.waitForFunction(() => document.querySelector('.tournament-next .next-step')
      || document.querySelector('.table:not([data-status="finished"])'), null, { timeout: 20000 });
  }
  throw new Error('the night did not end');
}

/** The page's local time `seconds` from now, as a datetime-local field takes it. */
async function localTime(page, seconds) {
  return page.evaluate((ahead) => {
    const at = new Date(Date.now() + ahead * 1000);
    const pad = (n) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  }, seconds);
}

test('a tournament night: made with the form, joined by newcomers, played round by round, won, analysed', async () => {
  const name = `Friday ${uniqueName('')}`;
  // The admin makes a Swiss of three rounds of 31 at tables of three, starting in an hour (and
  // brings the start forward once everyone is in, below).
  const admin = await player(browser);
  await admin.goto(`${BASE}/admin#/tournaments`);
  await admin.fill('#admin-name', 'root');
  await admin.fill('#admin-password', PASSWORD);
  await admin.click('#admin-sign-in');
  await admin.click('#admin-make-tournament');
  await admin.fill('#tf-name', name);
  await admin.check('#tf-format-swiss');
  await admin.selectOption('#tf-kind', 'thirty_one');
  await admin.selectOption('#tf-variant', 'standard');
  await admin.selectOption('#tf-seats', '3');
  await admin.fill('#tf-rounds', '3');
  await admin.fill('#tf-start', await localTime(admin, 3600));
  // Before confirming, the form says what an entrant gets.
  const preview = await admin.textContent('#tf-preview');
  assert.match(preview, /Swiss tournament of 3 rounds/);
  assert.match(preview, /31 · Standard, at tables of 3/);
  assert.match(preview, /Public: listed in every lobby/);
  await shot(admin, 'night-form');
  await admin.click('#tf-submit');
  await admin.waitForSelector(`#tournament-list tr[data-tournament] >> text=${name}`);

  // A visitor opens the lobby, finds it, and watches its page from before the start.
  const visitor = await player(browser);
  await visitor.goto(`${BASE}/#/`);
  await idle(visitor);
  await visitor.click(`.tournaments .tournament-row a >> text=${name}`);
  await visitor.waitForSelector('.tournament[data-status="upcoming"]');
  const id = Number(visitor.url().match(/#\/tournament\/(\d+)/)[1]);
  night = id;

  // Three newcomers arrive for the first time, type their names and join from its page.
  const names = ['Amira', 'Basel', 'Celine'].map((n) => uniqueName(n));
  const people = [];
  for (const person of names) {
    const page = await player(browser);
    await page.goto(`${BASE}/#/`);
    await idle(page);
    await page.click(`.tournaments .tournament-row a >> text=${name}`);
    await page.waitForSelector('.tournament[data-status="upcoming"]');
    await idle(page);
    // With no name typed, the page asks for one rather than make a nameless guest.
    await page.click('#tournament-join');
    await page.waitForSelector('#player-name[aria-invalid="true"]');
    await page.fill('#player-name', person);
    await page.click('#tournament-join');
    await page.waitForSelector('#tournament-withdraw');
    await noteTables(page);
    people.push(page);
  }
  // Each entered under the name they typed; the visitor's page says so without a reload.
  await visitor.waitForFunction((n) => document.querySelectorAll('.entrants li').length === n, names.length, { timeout: 15000 });
  assert.deepEqual((await visitor.$$eval('.entrants li bdi', (l) => l.map((e) => e.textContent))).sort(), [...names].sort());
  assert.equal(await visitor.evaluate(() => localStorage.getItem('cardroom.token')), null, 'looking made no account');
  await shot(people[0], 'night-joined');
  // Everyone is in: the admin changes its start to now, from the list of tournaments (a time
  // five minutes gone is refused; the present moment is not).
  await admin.click(`#tournament-list [data-edit="${id}"]`);
  await admin.fill('#tf-start', await localTime(admin, -300));
  await admin.click('#tf-submit');
  assert.equal(await admin.$eval('#tf-start', (el) => el.validity.rangeUnderflow), true, 'the field refuses a past start');
  assert.ok(await admin.$('.tournament-editor form'), 'the form stays open, nothing sent');
  await admin.fill('#tf-start', await localTime(admin, 0));
  await admin.click('#tf-submit');
  await admin.waitForSelector('#toast.shown:has-text("is changed")');

  // The night: every round takes each to their table, until the last finished table says
  // who won.
  const nights = await Promise.all(people.map((page) => playTheNight(page))).catch(async (error) => {
    for (const [i, page] of people.entries()) await shot(page, `night-stuck-${i}`);
    throw error;
  });
  for (const played of nights) assert.ok(played.size >= 3, `three rounds played: ${[...played]}`);
  const said = await people[0].textContent('.tournament-next .next-step');
  assert.match(said, /The tournament is over\. .* (won the tournament|share first place)/, said);
  await shot(people[0], 'night-over');

  // The visitor, never reloaded, sees it finished, with a winner, a podium and every round.
  await visitor.waitForSelector('.tournament[data-status="finished"]', { timeout: 30000 });
  assert.match(await visitor.textContent('.winner-text'), /won the tournament|share first place/);
  assert.ok((await visitor.$$('.podium li')).length >= 1);
  assert.equal((await visitor.$$('.round')).length, 3, 'three rounds listed');
  await shot(visitor, 'night-finished');

  // Each opens the analysis of their last game and walks through their mistakes.
  for (const page of people) {
    await page.click('.tournament-next [data-action="to-tournament"]');
    await page.waitForSelector(`.tournament[data-id="${id}"]`);
    await idle(page);
    await page.click('.round[data-round="3"] .table-result a');
    await page.waitForSelector('.table[data-status="finished"]');
    await page.waitForSelector('.analysis[data-analysis="done"]', { timeout: 90000 });
    await page.click('[data-action="walk-mistakes"]');
    const walk = await page.waitForSelector('.mistakes-walk, .your-mistakes-none');
    if (await walk.evaluate((el) => el.classList.contains('mistakes-walk'))) {
      const of = Number((await page.textContent('#walk-title')).match(/of (\d+)/)[1]);
      for (let i = 1; i < of; i++) {
        assert.ok(await page.$('.walk-played .card, .walk-played .move-text'), 'what was played, shown');
        assert.ok(await page.$('.walk-best .card, .walk-best .move-text'), 'what was better, shown');
        await page.click('[data-action="walk-next"]');
        await page.waitForFunction((n) => document.querySelector('#walk-title').textContent.includes(`Mistake ${n} of`), i + 1);
      }
      assert.ok(await page.$('[data-action="walk-next"][disabled]'), 'the walk ends at the last mistake');
    }
  }
  await shot(people[0], 'night-analysis');
  for (const page of [admin, visitor, ...people]) assert.deepEqual(page.problems, [], 'no script errors');
  for (const page of [admin, visitor, ...people]) await page.context().close();
});

test('a fresh visitor opens a public game, a tournament and a missing game by their links', async () => {
  // A public game being played, made through the page by someone else.
  const host = await player(browser);
  await host.goto(`${BASE}/#/new/basra/standard`);
  await idle(host);
  await host.fill('#player-name', uniqueName('Host'));
  await host.selectOption('#visibility', 'public');
  await host.click('#create');
  await host.waitForSelector('.table');
  const game = gameOf(host);

  const visitor = await player(browser, { lang: 'ar', viewport: { width: 390, height: 844 } });
  await visitor.goto(`${BASE}/#/game/${game}`);
  await visitor.waitForSelector('.table .tag.watching');
  await idle(visitor);
  assert.equal(await visitor.$$eval('.seat .card:not(.back)', (n) => n.length), 0, 'every hand face down');
  // The visitor may chat once they give a name; until then the chat says how.
  assert.ok(await visitor.isVisible('.chat-read-only'));
  assert.equal(await visitor.evaluate(() => localStorage.getItem('cardroom.token')), null, 'watching made no account');
  await shot(visitor, 'visitor-watches');

  // A move made at the table reaches the visitor's page.
  const before = await visitor.$eval('.table', (el) => Number(el.dataset.version));
  await host.click('.hand button.card.legal');
  await visitor.waitForFunction((v) => Number(document.querySelector('.table').dataset.version) > v, before, { timeout: 15000 });

  // A link to a game that is not there says so in words.
  await visitor.goto(`${BASE}/#/game/99999999`);
  await idle(visitor);
  await visitor.waitForSelector('.not-yours[data-reason="table_not_found"]');
  assert.match(await visitor.textContent('.not-yours h1'), /لا توجد طاولة كهذه/);
  assert.doesNotMatch(await visitor.textContent('main'), /token|Bearer/);
  // The night's tournament opens from its link with no account either: finished, its winner.
  assert.ok(night, 'the night ran first');
  await visitor.goto(`${BASE}/#/tournament/${night}`);
  await visitor.waitForSelector('.tournament[data-status="finished"]');
  await idle(visitor);
  assert.ok((await visitor.textContent('.winner-text')).trim(), 'its winner, in Arabic');
  assert.ok(!(await visitor.$('.share')), 'no share link once nobody can join');
  assert.equal(await visitor.evaluate(() => localStorage.getItem('cardroom.token')), null, 'still no account');
  assert.deepEqual(visitor.problems.filter((p) => !/status of 404/.test(p)), [], 'no script errors');
  await host.context().close();
  await visitor.context().close();
});

test('a round that seats someone busy at another game of theirs says so, in the title too, with the way there', async () => {
  const call = async (method, path, token, body) => {
    const response = await fetch(`${BASE}/api/v1${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const admin = (await call('POST', '/auth/login', null, { name: 'root', password: PASSWORD })).body.token;
  // It starts once both are in and the person is at their own game (a start a few seconds
  // ahead raced the steps before it on a busy machine).
  const terms = { name: `Busy ${uniqueName('')}`, format: 'swiss', kind: 'basra', rounds: 1, options: { target: 31 } };
  const made = await call('POST', '/tournaments', admin, { ...terms, starts_in: 3600 });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const page = await player(browser);
  await page.goto(`${BASE}/#/tournament/${made.body.id}`);
  await idle(page);
  await page.fill('#player-name', uniqueName('Busy'));
  await page.click('#tournament-join');
  await page.waitForSelector('#tournament-withdraw');
  const rival = (await call('POST', '/auth/guest', null, { name: uniqueName('Rival') })).body.token;
  assert.equal((await call('POST', `/tournaments/${made.body.id}/join`, rival, {})).status, 200);
  // Meanwhile they start a game against the computer, and are at it when the round begins.
  await page.goto(`${BASE}/#/new/thirty_one/classic`);
  await idle(page);
  await page.click('#create');
  await page.waitForSelector('.table[data-status="active"]');
  const own = gameOf(page);
  const started = await call('PUT', `/tournaments/${made.body.id}`, admin, { ...terms, starts_in: 0 });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  await page.waitForSelector('#notice:not([hidden]) [data-action="notice-go"]', { timeout: 30000 });
  assert.equal(gameOf(page), own, 'not pulled away from their own game');
  assert.match(await page.textContent('#notice'), /Round 1 of your tournament: your table is ready/);
  assert.match(await page.title(), /^▶ Your table is ready/);
  await page.click('[data-action="notice-go"]');
  await page.waitForFunction((id) => /^#\/game\/\d+$/.test(location.hash) && !location.hash.endsWith(`/${id}`), own);
  await page.waitForSelector('.table .tournament-link');
  assert.doesNotMatch(await page.title(), /▶/, 'the title is itself again');
  assert.ok(await page.isHidden('#notice'));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a registered player makes a private tournament from the lobby and a friend enters by its link', async () => {
  const maker = await player(browser);
  await maker.goto(`${BASE}/#/`);
  await idle(maker);
  // A guest is told that registering makes private tournaments possible.
  assert.match(await maker.textContent('.make-tournament'), /Registered players can make a private tournament/);
  await maker.click('.identity summary');
  await maker.fill('#player-name', uniqueName('Organiser'));
  await maker.fill('#player-password', 'a long enough passphrase');
  await maker.click('.identity details .button >> nth=1');
  await maker.waitForSelector('#make-private-tournament');
  await maker.click('#make-private-tournament');
  await maker.fill('#tf-name', 'Cousins');
  await maker.check('#tf-format-arena');
  await maker.selectOption('#tf-kind', 'rummy');
  await maker.fill('#tf-minutes', '45');
  const preview = await maker.textContent('#tf-preview');
  assert.doesNotMatch(await maker.textContent('#tournament-form'), /null|undefined/);
  assert.match(preview, /An arena of 45 minutes/);
  assert.match(preview, /Private: only people with its link/);
  assert.equal(await maker.$('#tf-private'), null, 'a player\'s is private, no choice');
  await maker.click('#tf-submit');
  await maker.waitForSelector('.tournament[data-status="upcoming"] .share .invite-link');
  const link = await maker.inputValue('.share .invite-link');
  assert.match(link, /#\/tournament\/\d+\/[a-z0-9]+$/);
  assert.ok(await maker.$('#tournament-change'), 'its maker may change it');

  // A friend with the link (and no account) enters; without the code it says it is private.
  const friend = await player(browser, { lang: 'ar', viewport: { width: 390, height: 844 } });
  await friend.goto(link.replace(/\/[a-z0-9]+$/, ''));
  await friend.waitForSelector('.not-yours[data-reason="tournament_private"]');
  await friend.goto(link);
  await friend.waitForSelector('.tournament[data-status="upcoming"]');
  await idle(friend);
  await friend.fill('#player-name', uniqueName('Cousin'));
  await friend.click('#tournament-join');
  await friend.waitForSelector('#tournament-withdraw');
  await maker.waitForFunction(() => document.querySelectorAll('.entrants li').length === 1);
  // Called off by its maker, with a reason the friend reads.
  await maker.click('#tournament-cancel');
  await maker.fill('#tc-reason', 'Grandma is visiting');
  await maker.click('#tc-confirm');
  await friend.waitForSelector('.tournament[data-status="cancelled"]');
  assert.match(await friend.textContent('.cancelled-reason'), /Grandma is visiting/);
  assert.ok(!(await friend.$('.share')), 'no share link once nobody can join');
  assert.deepEqual(maker.problems, []);
  assert.deepEqual(friend.problems.filter((p) => !/status of 403/.test(p)), []);
  await maker.context().close();
  await friend.context().close();
});
