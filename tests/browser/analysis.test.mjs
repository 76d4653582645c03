// A finished game explains itself on the page: the analysis appears under the table once the
// background job has made it, with the marks on the cards, in English and in Arabic; the admin
// replay shows each move's judgement at its step.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, player, idle, shot, signedInGuest, apiCreate, BASE } from './harness.mjs';

const ADMIN_PASSWORD = process.env.CARDROOM_TEST_ADMIN_PASSWORD || 'browser admin passphrase';

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
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function move(token, id, mv) {
  const { body: view } = await call(token, 'GET', `/games/${id}`);
  const answer = await call(token, 'POST', `/games/${id}/moves`, { expected_version: view.version, move: mv });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/**
 * A Tarneeb practice deal in which the declarer (seat 0, the person) holds twelve top trumps
 * and the ♥A, and seat 1 holds the only other trump with no heart: any spade first takes all
 * thirteen tricks, the ♥A first is ruffed. Dealt one card at a time from seat 0.
 */
function ruffDeck() {
  const hands = [
    'AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH',
    '2S AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C',
    'KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H 2C',
    'AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D',
  ].map((hand) => hand.split(' '));
  const deck = [];
  for (let i = 0; i < 13; i++) for (const hand of hands) deck.push(hand[i]);
  return deck;
}

/** Bids 13, names spades, leads the ♥A into the ruff, then resigns: a finished game. */
async function throwATrick(token) {
  const game = await apiCreate(token, {
    kind: 'tarneeb',
    seats: [{}, { bot: 'greedy' }, { bot: 'greedy' }, { bot: 'greedy' }],
    deck: ruffDeck(),
  });
  await move(token, game.id, { type: 'bid', tricks: 13 });
  await move(token, game.id, { type: 'trump', suit: 'S' });
  await move(token, game.id, { type: 'play', card: 'AH' });
  const resigned = await call(token, 'POST', `/games/${game.id}/resign`, {});
  assert.equal(resigned.status, 200, JSON.stringify(resigned.body));
  return game.id;
}

for (const lang of ['en', 'ar']) {
  test(`a finished Tarneeb hand shows the trick the ♥A threw away, with the spades that kept it (${lang})`, async () => {
    // (Arabic on a phone: the players' table fits, or says that it scrolls.)
    const page = await player(browser, { lang, viewport: lang === 'ar' ? { width: 390, height: 844 } : undefined });
    const token = await signedInGuest(page);
    const id = await throwATrick(token);
    await page.goto(`${BASE}/#/game/${id}`);
    await idle(page);
    await page.waitForSelector('.analysis[data-analysis="done"]', { timeout: 120000 });
    const mistake = page.locator('.decision[data-grade="mistake"]');
    assert.equal(await mistake.count(), 1, 'one mistake, the heart lead');
    assert.equal(await mistake.locator('.card[data-card="AH"]').count(), 1, 'marked on the ♥A');
    // (Without the isolation marks that keep a list of cards in order inside Arabic text.)
    const text = (await mistake.innerText()).replace(/[\u2066-\u2069]/g, '');
    if (lang === 'en') {
      assert.match(text, /mistake/);
      assert.match(text, /better: A♠ 3♠ 4♠/);
      assert.match(text, /costs 1 trick\)/);
      assert.match(await page.innerText('.analysis .note'), /perfect play/);
    } else {
      assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
      assert.match(text, /خطأ/);
      assert.match(await page.innerText('.analysis h2'), /التحليل/);
    }
    // The declarer's line: one mistake, accuracy below 100%; the hand against its par.
    const mine = page.locator('.analysis-players tr[data-seat="0"]');
    assert.notEqual(await mine.locator('[data-field="accuracy"]').innerText(), '100%');
    assert.equal(await page.locator('.analysis-hands li[data-hand="1"]').count(), 1);
    // Its figures in words: what the declarers took of what they could make, and what par is.
    const hand = (await page.innerText('.analysis-hands li[data-hand="1"]')).replace(/[\u2066-\u2069]/g, '');
    if (lang === 'en') {
      assert.match(hand, /The declarers took \d+ tricks?(: every trick|, of \d+ tricks? their cards could make)/);
      assert.match(hand, /Par — the contract both sides playing perfectly would reach/);
    }
    assert.ok((await page.innerText('.analysis-hands + .note')).length > 40, 'what the figures mean');
    const fits = await page.$eval('.analysis-scroll', (el) => el.scrollWidth <= el.clientWidth + 1);
    assert.ok(fits || (await page.isVisible('.scroll-hint')), 'the table fits, or says that it scrolls');
    // A blunder's mark is shown whole ("??", not cut to "?"), as the page draws any decision.
    const badge = await page.evaluate(async () => {
      const { decisionItem } = await import('/assets/analysis.js');
      const item = decisionItem({ unit: 'tricks' }, {
        version: 1, hand: 1, seat: 0, grade: 'blunder', loss: 3, best_value: 13, played_value: 10,
        played: { type: 'play', card: 'AH' }, best: [{ type: 'play', card: 'AS' }],
      }, () => 'You');
      document.querySelector('.analysis').append(item);
      const mark = item.querySelector('.badge.grade-mark');
      return { text: mark.textContent, whole: mark.scrollWidth <= mark.clientWidth + 0.5 };
    });
    assert.deepEqual(badge, { text: '??', whole: true });
    // A sampled decision says what it rests on: its deals and its error, or that it was within
    // the noise (then good, with no better move named).
    const sampled = await page.evaluate(async () => {
      const { decisionItem } = await import('/assets/analysis.js');
      const base = {
        version: 2, hand: 1, seat: 0, played: { type: 'draw', from: 'stock' },
        best: [{ type: 'knock' }], best_value: 0.5, played_value: 0.2,
      };
      const sure = decisionItem({ unit: 'lives' }, {
        ...base, grade: 'mistake', loss: 0.3, samples: 128, best_error: 0.031, played_error: 0.02,
        loss_low: 0.26, loss_high: 0.34, within_noise: false,
      }, () => 'You');
      const noise = decisionItem({ unit: 'lives' }, {
        ...base, grade: 'good', loss: 0.3, samples: 1024, best_error: 0.2, played_error: 0.2,
        loss_low: 0, loss_high: 0.7, within_noise: true,
      }, () => 'You');
      const { num } = await import('/assets/i18n.js');
      return {
        written: [num(128), num(1024)],
        estimate: sure.querySelector('.estimate')?.textContent ?? '',
        noise: noise.querySelector('.noise')?.textContent ?? '',
        named: noise.querySelector('.better') !== null,
      };
    });
    // (Numbers are written as the page's language writes them.)
    assert.ok(sampled.estimate.includes(sampled.written[0]), sampled.estimate);
    assert.ok(sampled.noise.includes(sampled.written[1]), sampled.noise);
    assert.equal(sampled.named, false, 'no better move named within the noise');
    if (lang === 'en') {
      assert.match(sampled.estimate, /128 sampled deals, ± 0\.03 lives/);
      assert.match(sampled.noise, /Within the noise of 1,024 sampled deals/);
    }
    // Every decision on demand: as many as the API's.
    const { body } = await call(token, 'GET', `/games/${id}/analysis`);
    await page.click('[data-action="all-decisions"]');
    assert.equal(await page.locator('.decisions .decision').count(), body.analysis.decisions.length);
    await shot(page, `analysis-tarneeb-${lang}`);
    assert.deepEqual(page.problems, [], 'no script errors');
    await page.context().close();
  });
}

test('the admin replay marks the move at its step, and holds the whole analysis', async () => {
  const page = await player(browser);
  const token = await signedInGuest(page);
  const id = await throwATrick(token);
  const login = await fetch(`${BASE}/api/v1/auth/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'root', password: ADMIN_PASSWORD }),
  });
  const admin = await login.json();
  const admin_page = await player(browser);
  await admin_page.context().addInitScript(([tk, u]) => {
    localStorage.setItem('cardroom.token', tk);
    localStorage.setItem('cardroom.user', u);
  }, [admin.token, JSON.stringify(admin.user)]);
  // Wait for the analysis before opening the replay (which reads it once).
  for (let i = 0; i < 600; i++) {
    const { body } = await call(admin.token, 'GET', `/games/${id}/analysis`);
    if (body.status === 'done') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await admin_page.goto(`${BASE}/admin#/replay/${id}`);
  await admin_page.waitForSelector('#step-label');
  await admin_page.waitForSelector('.analysis[data-analysis="done"]');
  // Step to the ♥A: its judgement is shown with it.
  await admin_page.click('[data-action="first"]');
  for (let i = 0; i < 40; i++) {
    if (await admin_page.locator('.step-decision .card[data-card="AH"]').count()) break;
    await admin_page.click('[data-action="next"]');
  }
  assert.equal(await admin_page.locator('.step-decision .decision[data-grade="mistake"] .card[data-card="AH"]').count(), 1);
  assert.deepEqual(admin_page.problems, [], 'no script errors');
  await page.context().close();
  await admin_page.context().close();
});
