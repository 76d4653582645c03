// A tournament's page in every cell: format (Swiss, arena, duplicate, team matches) × state
// (upcoming, running, between rounds, finished, cancelled) × reader (an entrant, its maker, an
// admin, a spectator with its link, a stranger with its link), in English at 1280×900 and in
// Arabic at 390×844 — and a private tournament opened without its code. Every cell must hold
// what cells.mjs checks (no script error or failed request, no "null", no sideways scroll,
// axe-core clean) and its state's own assertions; its screenshot lands in the contact sheet
// (target/browser-artifacts/tournaments/index.html).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { LOOKS, watchedPage, visit, writeContactSheet, useSheet, readAs } from './cells.mjs';
import { tournamentStates, STATES, FORMATS } from './tournament_states.mjs';

const ADMIN_PASSWORD = process.env.CARDROOM_TEST_ADMIN_PASSWORD || 'browser admin passphrase';
const ROLES = ['entrant', 'maker', 'admin', 'spectator', 'stranger'];

let browser;
let world;

before(async () => {
  useSheet('tournaments', 'tournament pages in every state',
    'Every format × state × reader of a tournament, in English at 1280×900 and Arabic at 390×844.');
  browser = await launch();
  world = await tournamentStates(ADMIN_PASSWORD);
});

after(async () => {
  const { cells, failed } = writeContactSheet();
  console.log(`tournament matrix: ${cells} cells checked, ${failed} failing; contact sheet: tournaments/index.html`);
  await browser?.close();
});

// ---- what each cell must show ----------------------------------------------------------------

const count = async (page, selector) => (await page.$$(selector)).length;
const text = async (page, selector) => ((await page.$(selector)) ? page.textContent(selector) : '');

/** The problems of one cell: `tournament` in its state, read by `role`, in `look`. */
async function expectations(page, { tournament, role, look }) {
  const out = [];
  const present = async (selector, what, yes = true) => {
    const found = (await count(page, selector)) > 0;
    if (found !== yes) out.push(`${what} (${selector}) ${yes ? 'is missing' : 'should not be there'}`);
  };
  const { state, format } = tournament;
  const manages = role === 'maker' || role === 'admin';
  const joinable = state === 'upcoming' || (state === 'running' && format === 'arena') || (state === 'between' && format === 'arena');
  await present('.tournament h1', 'its name');
  if (state === 'upcoming') {
    if (!/\d|[٠-٩]/.test(await text(page, '.countdown'))) out.push('no countdown before the start');
    await present('.entrants-panel', 'the entrants');
  }
  if (look.lang === 'ar') {
    // Dates, times and numbers as Arabic writes them, with Arabic punctuation.
    const when = await text(page, '.tournament .when');
    if (/[0-9]/.test(when)) out.push(`Latin digits in "${when}"`);
    const rounds = await text(page, '.rounds');
    if (/, /.test(rounds)) out.push('a Latin comma among the results');
  }
  await present('#tournament-join', 'Join', joinable && role !== 'entrant');
  await present('#tournament-withdraw', 'Withdraw', role === 'entrant' && ['upcoming', 'running', 'between'].includes(state));
  await present('#player-name', 'a name to join under', joinable && role === 'stranger');
  await present('.share .invite-link', 'the share link', joinable);
  await present('#tournament-change', 'Change the terms', manages && state === 'upcoming');
  await present('#tournament-cancel', 'Call it off', manages && ['upcoming', 'running', 'between'].includes(state));
  if (state === 'running' && role === 'entrant' && format !== 'arena') await present('#your-table', 'your table');
  if (state === 'between' && role === 'entrant') {
    await present('#your-table', 'your table', false);
    const next = await text(page, '.next-step');
    const says = format === 'arena' ? /seated again|ستجلس/ : /starts when|final when|تبدأ الجولة|يصير الترتيب/;
    if (!says.test(next)) out.push(`between rounds, the entrant is not told what comes next: "${next}"`);
  }
  // (A duplicate round is one board: its tables side by side, each linked.)
  const tables = format === 'duplicate' ? '.records.board tr[data-game]' : '.round .table-result';
  if (['running', 'between'].includes(state)) await present(tables, "the round's tables");
  if (state === 'finished') {
    if (!(await text(page, '.winner-text')).trim()) out.push('no winner named');
    await present('.podium li', 'the podium');
    await present(`${tables} a[href^="#/game/"]`, "every round's games, linked");
    if (format === 'duplicate') await present('.records.board', "each board's results side by side");
    if (format === 'teams') {
      const boards = await page.$$eval('.board-result', (nodes) => nodes.map((n) => JSON.parse(n.dataset.boards || '[]')));
      // (Each team of people has its result; two teams' results are opposite numbers.)
      const wrong = (b) => b.length === 0 || (b.length === 2 && b[0] + b[1] !== 0);
      if (!boards.length || boards.some(wrong)) out.push(`each match's board results, opposite: ${JSON.stringify(boards)}`);
    }
  }
  if (state === 'cancelled') {
    const why = await text(page, '.cancelled-reason');
    const expected = { swiss: /club is closed/, duplicate: /storm/, arena: /too few|لم يشترك/, teams: /too few|لم يشترك/ }[format];
    if (!expected.test(why)) out.push(`the reason it was cancelled is not said: "${why}"`);
  }
  return out;
}

/** The page each reader reads with: their own account, or none. */
function reader(role, tournament) {
  if (role === 'entrant') return tournament.entrant;
  if (role === 'maker') return tournament.maker;
  if (role === 'admin') return world.admin;
  if (role === 'spectator') return world.spectator;
  return null;
}

for (const look of LOOKS) {
  test(`a tournament's page in every format, state and reader (${look.name})`, async () => {
    const failing = [];
    // A page for each reader, which reads as the reader of each cell in turn (cells.mjs readAs).
    const pages = {};
    for (const role of ROLES) pages[role] = await watchedPage(browser, look, {});
    for (const tournament of world.tournaments) {
      for (const role of ROLES) {
        const who = reader(role, tournament);
        const page = pages[role];
        await readAs(page, who ? { token: who.token, user: who.user } : null);
        const label = `${tournament.format} · ${tournament.state} · ${role} · ${look.name}`;
        const problems = await visit(page, look, {
          label,
          where: `/#/tournament/${tournament.id}/${tournament.code}`,
          ready: `.tournament[data-id="${tournament.id}"]`,
          expect: async (p) => {
            const found = await expectations(p, { tournament, role, look });
            // (Checked on the cell itself: visit leaves it for a blank page, which has no storage.)
            if (role === 'stranger' && (await p.evaluate(() => localStorage.getItem('cardroom.token')))) {
              found.push('reading the tournament made an account');
            }
            return found;
          },
          first: [],
        });
        if (problems.length) failing.push(`${label}:\n    ${problems.join('\n    ')}`);
      }
    }
    for (const page of Object.values(pages)) await page.context().close();
    // A private tournament without its code: it says it is private, and to ask its maker.
    const page = await watchedPage(browser, look, {});
    const [one] = world.tournaments;
    const problems = await visit(page, look, {
      label: `private, without its code · stranger · ${look.name}`,
      where: `/#/tournament/${one.id}`,
      ready: '.not-yours[data-reason="tournament_private"]',
      allow: [/failed request: 403 GET \/api\/v1\/tournaments\/\d+$/, /console: Failed to load resource: .*403/],
      first: [],
    });
    if (problems.length) failing.push(`private without its code (${look.name}):\n    ${problems.join('\n    ')}`);
    await page.context().close();
    assert.deepEqual(failing, [], 'cells that do not hold');
  });
}

test('the tournament matrix covered every format and state', () => {
  const covered = new Set(world.tournaments.map((t) => `${t.format}/${t.state}`));
  for (const format of Object.keys(FORMATS)) for (const state of STATES) assert.ok(covered.has(`${format}/${state}`), `${format}/${state}`);
});
