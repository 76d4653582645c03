// The page at every seam: every game and variant, driven over the API to every state a table
// can be in (waiting as its creator and as an invitee, the auction, mid-hand on one's own turn
// and on another's, the hand over, the game over by play and by resignation, a rematch offered,
// a turn timer running), seen by a seated player, a spectator and an admin's replay, each in
// English at 1280×900 and in Arabic at 390×844. Every cell must hold what cells.mjs checks, and
// its state's own assertions; each cell's screenshot lands in the contact sheet
// (target/browser-artifacts/matrix/index.html). MATRIX_KINDS ("rummy tarneeb", "basra thirty_one")
// checks only those games (scripts/browser-test runs the matrix as two lanes so), its contact
// sheet in matrix-KIND-KIND/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { Client, playUntil, twoPeople } from './states.mjs';
import { LOOKS, watchedPage, visit, writeContactSheet, useSheet } from './cells.mjs';

/** A Rummy deck whose first hand ends the game: each player is dealt three sets and no run
 * (one K K K Q Q Q T T T T, 100 points; the other J J J J 9 9 9 7 7 7, 88), so whoever plays
 * first draws the 2♣, melds everything, discards the 2♣ and goes out in one turn, scoring the
 * other hand doubled — past 100. (Played to 100 at random it is a thousand moves and more.)
 * Dealt one card at a time from the top: the hands alternate; then the face-up card, then the
 * stock. */
const RUMMY_ONE_HAND = (() => {
  const one = ['KS', 'KH', 'KD', 'QS', 'QH', 'QD', 'TS', 'TH', 'TD', 'TC'];
  const other = ['JS', 'JH', 'JD', 'JC', '9S', '9H', '9D', '7S', '7H', '7D'];
  const top = [...one.flatMap((card, i) => [card, other[i]]), '5C', '2C'];
  const rest = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K']
    .flatMap((rank) => ['C', 'D', 'H', 'S'].map((suit) => rank + suit))
    .filter((card) => !top.includes(card));
  return [...top, ...rest];
})();

const EVERY_VARIANT = [
  { kind: 'basra', variant: 'standard', seats: 2, options: { target: 31 }, long: { target: 501 }, waiting: 4 },
  { kind: 'basra', variant: 'classic44', seats: 2, options: { target: 31 }, long: { target: 501 }, waiting: 2 },
  { kind: 'basra', variant: 'cse231', seats: 2, options: {}, waiting: 2, oneHand: true },
  { kind: 'thirty_one', variant: 'standard', seats: 3, options: {}, waiting: 4 },
  { kind: 'thirty_one', variant: 'classic', seats: 2, options: {}, waiting: 2 },
  { kind: 'rummy', variant: 'standard', seats: 2, options: {}, waiting: 3, endDeck: RUMMY_ONE_HAND },
  { kind: 'rummy', variant: 'classic', seats: 2, options: { rounds: 2 }, waiting: 3 },
  { kind: 'tarneeb', variant: 'standard', seats: 4, options: { target: 31 }, long: { target: 61 }, waiting: 4, auction: true },
  { kind: 'tarneeb', variant: 'classic', seats: 4, options: {}, waiting: 4, auction: true },
];

const ONLY = (process.env.MATRIX_KINDS || '').split(/\s+/).filter(Boolean);
for (const kind of ONLY) {
  if (!EVERY_VARIANT.some((v) => v.kind === kind)) throw new Error(`MATRIX_KINDS names no game of the matrix: ${kind}`);
}
const VARIANTS = ONLY.length ? EVERY_VARIANT.filter((v) => ONLY.includes(v.kind)) : EVERY_VARIANT;

const ADMIN_PASSWORD = process.env.CARDROOM_TEST_ADMIN_PASSWORD || 'browser admin passphrase';

let browser;
let people;
/** For each look: a page per identity (a, b: players; c: a spectator; admin). */
const pages = new Map();
let checked = 0;

before(async () => {
  if (ONLY.length) {
    useSheet(`matrix-${ONLY.join('-')}`, `the page's state matrix: ${ONLY.join(', ')}`,
      'Every variant × state × role of these games, in English at 1280×900 and Arabic at 390×844.');
  }
  browser = await launch();
  const tag = Math.random().toString(36).slice(2, 7);
  people = {
    a: await Client.guest(`Amal${tag}`),
    b: await Client.guest(`Badr${tag}`),
    c: await Client.guest(`Carim${tag}`),
    admin: await Client.login('root', ADMIN_PASSWORD),
  };
  for (const look of LOOKS) {
    const set = {};
    for (const [who, client] of Object.entries(people)) set[who] = await watchedPage(browser, look, client);
    pages.set(look.name, set);
  }
});

after(async () => {
  const { cells, failed } = writeContactSheet();
  console.log(`state matrix: ${cells} cells checked, ${failed} failing; contact sheet: ${ONLY.length ? `matrix-${ONLY.join('-')}` : 'matrix'}/index.html`);
  await browser?.close();
});

// ---- what each state must show, beside what every cell must hold ---------------------------

const has = (selector, what) => async (page) => ((await page.$(selector)) ? [] : [`${what} (${selector}) is missing`]);
const all = (...checks) => async (page) => (await Promise.all(checks.map((check) => check(page)))).flat();
const lacks = (selector, what) => async (page) => ((await page.$(selector)) ? [`${what} (${selector}) is shown`] : []);
const visibleText = (page) => page.evaluate(() => document.body.innerText.replace(/[\u2066-\u2069]/g, ''));
const englishSays = (pattern, what) => async (page) => {
  if ((await page.evaluate(() => document.documentElement.lang)) !== 'en') return [];
  return pattern.test(await visibleText(page)) ? [] : [`does not say ${what} (${pattern})`];
};
const englishNever = (pattern, what) => async (page) => {
  if ((await page.evaluate(() => document.documentElement.lang)) !== 'en') return [];
  const text = await visibleText(page);
  const found = text.match(pattern);
  return found ? [`says ${what}: "${found[0]}"`] : [];
};
/** Arabic pages say nothing in English but names (the log retold, the options' notes…). */
const arabicThroughout = async (page) => {
  if ((await page.evaluate(() => document.documentElement.lang)) !== 'ar') return [];
  const text = await visibleText(page);
  const english = text.match(/\b(the|and|plays|takes|deals|Hand|Seat|Waiting|You|won|resigned|easy|medium|hard|greedy)\b/);
  return english ? [`an Arabic page says "${english[0]}" in English: …${text.slice(Math.max(0, english.index - 30), english.index + 30).replace(/\s+/g, ' ')}…`] : [];
};
const neverYouTwice = englishNever(/You won the game! \(You\)|Waiting for You/, 'a sentence no player would write');

const STATES = {
  waitingCreator: all(has('.table[data-status="waiting"]', 'the waiting table'), has('.invite-link', 'the invite link'),
    has('.waiting-center', 'who is there and who is awaited'), lacks('.hand', 'a hand before the deal'), arabicThroughout),
  waitingInvitee: all(has('.table[data-status="waiting"]', 'the waiting table'), has('.waiting-center', 'who is there'), arabicThroughout),
  invitation: all(has('#join', 'the Take my seat button'), arabicThroughout),
  myTurn: all(has('.status-line .your-turn', 'your turn'), has('.hand', 'the hand'), neverYouTwice, arabicThroughout),
  otherTurn: all(has('.status-line [data-turn="other"]', 'whose turn it is'), lacks('.status-line .your-turn', 'your turn'),
    has('.mine .presence.on', 'oneself connected'), neverYouTwice, arabicThroughout),
  auction: all(has('.auction', 'the auction'), englishNever(/No bid yet\.[\s\S]*No bid yet\./, 'No bid yet twice'), arabicThroughout),
  auctionMine: all(has('.bid-grid, [data-action="pass"]', 'the bids'), englishNever(/No bid yet\.[\s\S]*No bid yet\./, 'No bid yet twice'), arabicThroughout),
  handOver: all(has('[data-action="deal"]', 'Deal next hand'), has('.hand-summary', 'the hand\'s scoring'), arabicThroughout),
  overByPlay: all(has('.status-line .outcome', 'the outcome'), has('[data-action="rematch"]', 'the rematch offer'),
    has('.rematch-note', 'what a rematch is'), neverYouTwice, arabicThroughout),
  rematchOffered: all(has('.rematch[data-rematch="offered"] [data-action="rematch"]', 'Accept the rematch'), arabicThroughout),
  resignedWinner: all(has('.status-line .outcome', 'the outcome'), englishSays(/resigned\. You (and .+ )?won the game!/, 'who resigned and who won'),
    englishSays(/Decided by resignation/, 'that the score did not decide it'), arabicThroughout),
  resignedLoser: all(has('.status-line .outcome', 'the outcome'), englishSays(/You resigned\./, 'that you resigned'), arabicThroughout),
  timer: all(has('.countdown', 'the countdown'), has('.status-line .your-turn', 'your turn'), arabicThroughout),
  spectator: all(has('.tag.watching', 'the Watching tag'), lacks('.hand-area', 'a hand for a spectator'), arabicThroughout),
  notYours: all(has('.not-yours', 'that the table is not open to them'), has('a[href="#/"]', 'the way back to the lobby'), arabicThroughout),
  stayed: all(has('.seat .tag.away, .seat', 'the seats'), englishSays(/A computer player took seat 2|is away/, 'that a computer took the seat'), arabicThroughout),
  replay: all(has('#step-label', 'the replay\'s step'), lacks('.error', 'an error')),
};

// ---- the states of one variant, and its cells ----------------------------------------------

/** Sets up every state of `spec` and returns its cells: [label, identity, address, options]. */
async function statesOf(spec) {
  const { a, b } = people;
  const { kind, variant } = spec;
  const cells = [];
  const add = (state, who, where, options = {}) => cells.push({ spec, state, who, where, ...options });
  // A cell whose state lasts only until the game moves on: checked in every look at once.
  const now = async (state, who, where, options) => {
    add(state, who, where, options);
    await checkCells(cells.filter((c) => !c.done));
  };
  const seat = (n) => Array.from({ length: n }, () => ({}));
  const bots = (n, open) => Array.from({ length: n }, (_, i) => (i === 0 || i <= open ? {} : { bot: 'easy' }));

  // Waiting: the creator, with one seat for a person still open.
  const lone = await a.create({ kind, variant, seats: bots(spec.waiting, 1), options: spec.options });
  add('waiting, creator', 'a', `/#/game/${lone.id}`, { check: STATES.waitingCreator, ready: '.table' });
  // Waiting: an invitee — at a table of three or more who took a seat while another is open,
  // or, at a table of two, on the invitation itself.
  if (spec.waiting >= 3) {
    const table = await a.create({ kind, variant, seats: bots(spec.waiting, 2), options: spec.options });
    await b.join(table.id, table.invite_code);
    add('waiting, invitee seated', 'b', `/#/game/${table.id}`, { check: STATES.waitingInvitee, ready: '.table' });
  }
  add('waiting, invitee at the link', 'b', `/#/join/${lone.id}/${lone.invite_code}`, { check: STATES.invitation, ready: '#join' });

  // Two people and computer players, public, playing long: the auction, the turns, a
  // spectator, a hand's end.
  const both = { 0: a, 1: b };
  let id = await twoPeople(a, b, { kind, variant, seats: spec.seats, options: spec.long || spec.options });
  const names = (view) => (view.to_act === 0 ? ['a', 'b'] : ['b', 'a']);
  const auctionOver = (v) => v.status !== 'active' || (v.table && v.table.phase !== 'bidding');
  if (spec.auction) {
    const view = await playUntil(both, id, (v) => v.status === 'active' && [0, 1].includes(v.to_act) && !auctionOver(v));
    const [mine, other] = names(view);
    await now('auction, own call', mine, `/#/game/${id}`, { check: STATES.auctionMine, hand: true, ready: '.table' });
    await now('auction, another\'s call', other, `/#/game/${id}`, { check: STATES.auction, ready: '.table' });
  }
  const playing = await playUntil(both, id, (v) => v.status === 'active' && [0, 1].includes(v.to_act) && (!spec.auction || auctionOver(v)));
  const [mine, other] = names(playing);
  await now('mid-hand, own turn', mine, `/#/game/${id}`, { check: STATES.myTurn, hand: true, ready: '.hand' });
  await now('mid-hand, another\'s turn', other, `/#/game/${id}`, { check: STATES.otherTurn, hand: true, ready: '.hand' });
  await now('mid-hand, spectator', 'c', `/#/game/${id}`, { check: STATES.spectator, ready: '.tag.watching' });
  if (!spec.oneHand) {
    // (A game may end with its first hand, as Rummy's can: then another.)
    for (let attempt = 1; ; attempt++) {
      try {
        await playUntil(both, id, (v) => v.status === 'hand_over');
        break;
      } catch (error) {
        if (attempt >= 4) throw error;
        id = await twoPeople(a, b, { kind, variant, seats: spec.seats, options: spec.long || spec.options });
      }
    }
    await now('hand over', 'a', `/#/game/${id}`, { check: STATES.handOver, hand: false, ready: '[data-action="deal"]' });
  }
  // Played to its end (to a near target, or from a deck that ends it in one hand): the outcome,
  // the admin's replay, a rematch.
  if (spec.long) id = await twoPeople(a, b, { kind, variant, seats: spec.seats, options: spec.options });
  if (spec.endDeck) id = await twoPeople(a, b, { kind, variant, seats: spec.seats, options: spec.options, deck: spec.endDeck });
  await playUntil(both, id, (v) => v.status === 'finished');
  await now('over by play', 'a', `/#/game/${id}`, { check: STATES.overByPlay, ready: '.outcome' });
  await now('admin replay of the finished game', 'admin', `/admin#/replay/${id}`, { check: STATES.replay, ready: '#step-label', first: ['#step-label'] });
  await a.ok('POST', `/games/${id}/rematch`, { accept: true });
  await now('rematch offered', 'b', `/#/game/${id}`, { check: STATES.rematchOffered, ready: '.rematch' });

  // The end by resignation: the other side resigns at once (two sides: with more, a computer
  // would take the seat and the game go on).
  const sides = kind === 'tarneeb' ? 4 : 2;
  const resigned = await twoPeople(a, b, { kind, variant, seats: sides, options: spec.options, visibility: 'unlisted' });
  await b.ok('POST', `/games/${resigned}/resign`);
  add('over by resignation, winner', 'a', `/#/game/${resigned}`, { check: STATES.resignedWinner, ready: '.outcome' });
  add('over by resignation, loser', 'b', `/#/game/${resigned}`, { check: STATES.resignedLoser, ready: '.outcome' });

  // Leaving a table of three or more: a computer takes the seat and the game goes on without
  // the one who left, who may no longer see it (an unlisted table).
  if (kind !== 'tarneeb' && (spec.seats >= 3 || spec.waiting >= 3)) {
    const left = await twoPeople(a, b, { kind, variant, seats: Math.max(3, spec.seats), options: spec.options, visibility: 'unlisted' });
    await b.ok('POST', `/games/${left}/resign`);
    add('left a table of three, who left', 'b', `/#/game/${left}`, { check: STATES.notYours, ready: '.not-yours', allow: [/403 GET \/api\/v1\/games\/\d+$/, /status of 403/] });
    add('left a table of three, who stayed', 'a', `/#/game/${left}`, { check: STATES.stayed, hand: true, ready: '.hand' });
  }

  // A turn timer running on one's own turn (against computer players). A deal may end its hand
  // at once (a 31 dealt to a computer player): then another table, so the cell is what it names.
  let timed;
  for (let tries = 0; tries < 10; tries++) {
    timed = await a.create({ kind, variant, seats: [{}, ...seat(spec.seats - 1).map(() => ({ bot: 'easy' }))], options: spec.options, turn: { seconds: 600 } });
    const view = await a.view(timed.id);
    if (view.status === 'active' && view.to_act === view.your_seat) break;
  }
  add('turn timer running', 'a', `/#/game/${timed.id}`, { check: STATES.timer, hand: true, ready: '.countdown' });
  return cells;
}

const failures = [];

async function checkCells(list) {
  for (const cell of list) {
    cell.done = true;
    for (const look of LOOKS) {
      const page = pages.get(look.name)[cell.who];
      const label = `${cell.spec.kind} ${cell.spec.variant} · ${cell.state} · ${look.name}`;
      const problems = await visit(page, look, {
        label, where: cell.where, ready: cell.ready, expect: cell.check, hand: cell.hand, allow: cell.allow,
        first: cell.first || (cell.hand ? ['.status-line'] : ['.status-line, .panel']),
      });
      checked += 1;
      if (problems.length) failures.push(`${label}:\n    ${problems.join('\n    ')}`);
    }
  }
}

for (const spec of VARIANTS) {
  test(`the page in every state: ${spec.kind} ${spec.variant}`, async () => {
    const before = failures.length;
    const cells = await statesOf(spec);
    // (Cells checked as they were reached are done; the rest hold still.)
    await checkCells(cells.filter((c) => !c.done));
    const mine = failures.slice(before);
    console.log(`${spec.kind} ${spec.variant}: ${cells.length} states × ${LOOKS.length} looks, ${mine.length} failing`);
    assert.deepEqual(mine, [], `cells that do not hold:\n  ${mine.join('\n  ')}`);
  });
}

test('the state matrix covered every cell', () => {
  assert.ok(checked >= VARIANTS.length * 10 * LOOKS.length, `${checked} cells checked`);
});
