// One cell of the page's state matrix: a page in a language and a size, at an address, in a
// state; what must hold in every cell (no script error, no unexpected failed request, no
// "null" shown, no sideways scrolling, on a phone the hand and whose turn it is in the first
// screen, no serious accessibility violation), a screenshot, and the contact sheet of them all.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ARTIFACTS, BASE, POLL } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Where the cells' screenshots and their contact sheet go (a folder of the artifacts). */
let SHEET = path.join(ARTIFACTS, 'matrix');
mkdirSync(SHEET, { recursive: true });
let TITLE = 'the page\'s state matrix';
let SUBTITLE = 'Every game × variant × state × role, in English at 1280×900 and Arabic at 390×844.';

/** Puts this run's cells in `folder` of the artifacts, under a contact sheet titled `title`. */
export function useSheet(folder, title, subtitle) {
  SHEET = path.join(ARTIFACTS, folder);
  mkdirSync(SHEET, { recursive: true });
  TITLE = title;
  SUBTITLE = subtitle;
}

/** The sizes and languages every cell is checked in. */
export const LOOKS = [
  { name: 'en-desktop', lang: 'en', viewport: { width: 1280, height: 900 } },
  { name: 'ar-phone', lang: 'ar', viewport: { width: 390, height: 844 }, phone: true },
];

/**
 * A page that keeps a record of what went wrong on it: script errors, console errors, failed
 * requests (answers of 400 and above, and requests that failed but for those the page itself
 * abandoned on leaving).
 */
export async function watchedPage(browser, look, { token, user } = {}) {
  const context = await browser.newContext({ viewport: look.viewport, isMobile: Boolean(look.phone), hasTouch: Boolean(look.phone) });
  await context.addInitScript(([lang, tk, u]) => {
    localStorage.setItem('cardroom.lang', lang);
    localStorage.setItem('cardroom.speed', 'instant');
    if (tk) {
      localStorage.setItem('cardroom.token', tk);
      localStorage.setItem('cardroom.user', u);
    }
  }, [look.lang, token || null, user ? JSON.stringify(user) : null]);
  const page = await context.newPage();
  page.record = [];
  page.on('pageerror', (error) => page.record.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') page.record.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) page.record.push(`failed request: ${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText || '';
    // A long-poll or stream the page abandons when it leaves (or a new cell loads) is no failure.
    if (reason !== 'net::ERR_ABORTED') page.record.push(`request failed: ${reason} ${request.method()} ${new URL(request.url()).pathname}`);
  });
  return page;
}

/**
 * Makes `page` read as `who` ({ token, user }, or none: a stranger) from its next load: its
 * origin's storage emptied and the account put in, as a browser of its own would hold it. (A
 * page reused this way keeps its browser's cache: a context for each cell cost a new renderer
 * and every script compiled again, the most of a cell's time.)
 */
export async function readAs(page, who) {
  await page.goto(`${BASE}/favicon.svg`);
  await page.evaluate(([tk, u]) => {
    localStorage.clear();
    if (tk) {
      localStorage.setItem('cardroom.token', tk);
      localStorage.setItem('cardroom.user', u);
    }
  }, [who?.token || null, who?.user ? JSON.stringify(who.user) : null]);
}

/** Waits until the page has drawn its address and has nothing in flight (see harness `idle`). */
async function settled(page) {
  await page.waitForFunction(
    () => document.body.dataset.state === 'idle' && document.body.dataset.shown === location.hash,
    null,
    POLL,
  );
}

let cells = [];

/**
 * Visits one cell and checks it: `where` is the address (from the root, e.g. `/#/game/4`),
 * `ready` a selector that says the state is drawn, `expect(page)` the state's own assertions
 * (it returns a list of problems), `allow` the failed requests the state expects (regexps).
 * Returns the problems found (none: the cell holds).
 */
export async function visit(page, look, { label, where, ready, expect, allow = [], hand = false, first = ['.status-line'] }) {
  page.record.length = 0;
  const problems = [];
  try {
    await page.goto('about:blank');
    page.record.length = 0;
    await page.goto(`${BASE}${where}`);
    await settled(page);
    if (ready) await page.waitForSelector(ready, { timeout: 15000 });
    await settled(page);
    // Let what follows the first drawing (the first long-poll's answer, a presence change) land.
    await page.waitForTimeout(150);
    await settled(page);
    if (expect) problems.push(...(await expect(page)));
    problems.push(...(await pageFaults(page, look, { hand, first })));
    problems.push(...(await accessibility(page)));
  } catch (error) {
    problems.push(`could not reach the state: ${error.message.split('\n')[0]}`);
  }
  const file = `${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`;
  await page.screenshot({ path: path.join(SHEET, file), fullPage: true }).catch(() => {});
  problems.push(...page.record.filter((line) => !allow.some((re) => re.test(line))));
  // The page is left on a blank one until its next cell: a table left open keeps its streams
  // and draws every event of its game, and the matrix holds a page for each reader.
  await page.goto('about:blank').catch(() => {});
  cells.push({ label, file, problems });
  return problems;
}

/** What must hold in every cell of the page, whatever its state. */
async function pageFaults(page, look, { hand, first }) {
  const found = await page.evaluate(([checkHand, firstScreen]) => {
    const out = [];
    const text = document.body.innerText;
    // (Also glued to the next word, as a null appended as text is: "nullJoin".)
    const bad = text.match(/(?<![a-z])(null|undefined|NaN)(?![a-z])|\[object Object\]/);
    if (bad) out.push(`shows "${bad[0]}": …${text.slice(Math.max(0, bad.index - 40), bad.index + 40).replace(/\s+/g, ' ')}…`);
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) out.push(`scrolls sideways: ${root.scrollWidth}px wide in ${root.clientWidth}px`);
    if (window.scrollY > 0) out.push(`starts scrolled down by ${window.scrollY}px`);
    const inFirstScreen = (selector) => {
      const node = document.querySelector(selector);
      if (!node) return `${selector} is missing`;
      const box = node.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight + 1) return `${selector} is not in the first screen (${Math.round(box.top)}–${Math.round(box.bottom)} of ${window.innerHeight})`;
      return null;
    };
    for (const selector of [...firstScreen, ...(checkHand ? ['.hand'] : [])]) {
      const problem = inFirstScreen(selector);
      if (problem) out.push(problem);
    }
    if (checkHand) {
      // One row: every card of the hand at the same height (the selected one lifts a little).
      const tops = [...document.querySelectorAll('.hand > .card')].map((c) => c.getBoundingClientRect().top);
      if (tops.length && Math.max(...tops) - Math.min(...tops) > 30) out.push('the hand wraps onto a second row');
    }
    return out;
  }, [hand && Boolean(look.phone), look.phone ? first : []]);
  return found;
}

/** axe-core's serious and critical violations on the page as it stands. */
async function accessibility(page) {
  const injected = await page.evaluate(() => typeof window.axe === 'object');
  if (!injected) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
  });
  return violations.map((v) => `axe: ${v}`);
}

/** Writes the contact sheet: every cell's screenshot, labelled, failures first. */
export function writeContactSheet() {
  const sorted = [...cells].sort((a, b) => Number(b.problems.length > 0) - Number(a.problems.length > 0));
  const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  const figures = sorted.map((cell) => `<figure class="${cell.problems.length ? 'bad' : 'good'}">
<a href="${cell.file}"><img src="${cell.file}" loading="lazy" alt="${escape(cell.label)}"></a>
<figcaption>${cell.problems.length ? '✖' : '✔'} ${escape(cell.label)}${cell.problems.length ? `<ul>${cell.problems.map((p) => `<li>${escape(p)}</li>`).join('')}</ul>` : ''}</figcaption>
</figure>`);
  const failed = cells.filter((c) => c.problems.length).length;
  writeFileSync(path.join(SHEET, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cardroom: ${escape(TITLE)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1rem; }
main { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 0.8rem; }
figure { margin: 0; border: 2px solid #9c9; border-radius: 6px; padding: 0.3rem; background: #fafafa; }
figure.bad { border-color: #c33; }
img { width: 100%; height: 260px; object-fit: cover; object-position: top; display: block; }
figcaption { font-size: 0.8rem; overflow-wrap: anywhere; }
</style></head><body>
<h1>Cardroom, ${escape(TITLE)}: ${cells.length} cells, ${failed} failing</h1>
<p>${escape(SUBTITLE)} Click a cell for its full screenshot.</p>
<main>
${figures.join('\n')}
</main></body></html>
`);
  return { cells: cells.length, failed };
}

/** Forgets the cells recorded (a new run). */
export function resetCells() {
  cells = [];
}
