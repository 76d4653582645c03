// Cards drawn as SVG: crisp at any size, nothing fetched. A card code is rank + suit
// ("7D", "TC", "AS"); the text shown is "7♦", "10♣", "A♠".

import { t, num } from './i18n.js';
import { GLYPHS } from './glyphs.js';

/** A character's shape in glyphs.js: its advance `w` and its outline `d`, in a 1000-unit em.
 * @typedef {{ w: number, d: string }} Glyph */

const NS = 'http://www.w3.org/2000/svg';
/** The suits' marks by letter (looked up by a card's second character). @type {Record<string, string>} */
export const SUITS = { C: '♣', D: '♦', H: '♥', S: '♠' };
const RED = new Set(['D', 'H']);
/** @type {Record<string, string>} */
const RANK_TEXT = { T: '10' };
const ORDER = 'A23456789TJQK';
const SUIT_ORDER = 'CDHS';

/** @param {string} code */
export const rankOf = (code) => code[0];
/** @param {string} code */
export const suitOf = (code) => code[1];
/** @param {string} code */
export const rankText = (code) => RANK_TEXT[code[0]] || code[0];
/** @param {string} code */
export const cardText = (code) => rankText(code) + SUITS[code[1]];
/** @param {string} code */
export const isRed = (code) => RED.has(code[1]);

/** "seven of diamonds", in the page's language.
 * @param {string} code */
export function cardName(code) {
  return t('card_name', { rank: t(`rank_${code[0]}`), suit: t(`suit_${code[1]}`) });
}

/** Sorted by suit, then rank (ace low).
 * @param {string[]} cards @param {boolean} [aceHigh]
 * @returns {string[]} */
export function sortCards(cards, aceHigh = false) {
  /** @param {string} c */
  const rank = (c) => (aceHigh && c[0] === 'A' ? 13 : ORDER.indexOf(c[0]));
  return [...cards].sort(
    (a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || rank(a) - rank(b),
  );
}

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} name @param {Record<string, string | number>} attrs @param {string} [text]
 * @returns {SVGElementTagNameMap[K]}
 */
function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  // (setAttribute writes a number as its digits.)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, /** @type {string} */ (v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * `text` drawn as shapes (see glyphs.js), `size` units tall an em, its baseline at `y`,
 * centred on `x`; `squeeze` narrows it (a two-figure 10).
 * @param {string} text @param {number} x @param {number} y @param {number} size @param {string} cls
 * @param {number} [squeeze]
 */
function glyphText(text, x, y, size, cls, squeeze = 1) {
  // (A character glyphs.js has no shape for comes out undefined, and the filter drops it.)
  const chars = [...text].map((c) => /** @type {Record<string, Glyph>} */ (GLYPHS)[c]).filter(Boolean);
  const width = chars.reduce((sum, g) => sum + g.w, 0);
  const k = size / 1000;
  const g = el('g', { class: cls, transform: `translate(${x - (width * k * squeeze) / 2} ${y}) scale(${k * squeeze} ${k})` });
  let at = 0;
  for (const glyph of chars) {
    g.append(el('path', { d: glyph.d, transform: at ? `translate(${at} 0)` : '' }));
    at += glyph.w;
  }
  return g;
}

/** The SVG drawing of a card face (or its back when `code` is null): a picture, every mark on
 * it a shape (its name is the element's label).
 * @param {string | null} code */
export function cardSvg(code) {
  const svg = el('svg', { viewBox: '0 0 60 84', class: 'card-svg', 'aria-hidden': 'true', focusable: 'false' });
  if (!code) {
    svg.append(
      el('rect', { x: 1, y: 1, width: 58, height: 82, rx: 5, class: 'back' }),
      el('rect', { x: 6, y: 6, width: 48, height: 72, rx: 3, class: 'back-inner' }),
      el('path', { d: 'M30 20 L44 42 L30 64 L16 42 Z', class: 'back-mark' }),
    );
    return svg;
  }
  const colour = isRed(code) ? 'red' : 'black';
  svg.classList.add(colour);
  const rank = rankText(code);
  const suit = SUITS[suitOf(code)];
  const wide = rank.length > 1;
  svg.append(el('rect', { x: 1, y: 1, width: 58, height: 82, rx: 5, class: 'face' }));
  /** @param {string} transform */
  const corner = (transform) => {
    const g = el('g', transform ? { transform } : {});
    g.append(glyphText(rank, 8, 17, 13, 'corner-rank', wide ? 0.72 : 1), glyphText(suit, 8, 29, 11, 'corner-suit'));
    return g;
  };
  svg.append(corner(''), corner('rotate(180 30 42)'));
  if ('JQK'.includes(rankOf(code))) {
    svg.append(
      el('rect', { x: 15, y: 17, width: 30, height: 50, rx: 3, class: 'court' }),
      glyphText(rank, 30, 44, 22, 'court-rank'),
      glyphText(suit, 30, 61, 16, 'court-suit'),
    );
  } else {
    svg.append(glyphText(suit, 30, 54, 30, 'pip'));
  }
  return svg;
}

/**
 * A card as an element. With `onPlay` it is a button (keyboard and pointer); without, an inert
 * picture. `marks` are extra class names (e.g. 'legal', 'selected', 'taken').
 * @param {string | null} code The card, or null for its back.
 * @param {object} [options]
 * @param {(code: string | null) => void} [options.onPlay]
 * @param {string} [options.label] The name read out (the card's own name without it).
 * @param {string[]} [options.marks]
 * @param {boolean} [options.small]
 * @returns {HTMLButtonElement | HTMLSpanElement}
 */
export function cardEl(code, { onPlay, label, marks = [], small = false } = {}) {
  const node = document.createElement(onPlay ? 'button' : 'span');
  node.className = ['card', small ? 'small' : '', code ? '' : 'back', ...marks].filter(Boolean).join(' ');
  if (code) node.dataset.card = code;
  node.append(cardSvg(code));
  // Marks that are not colour alone: a tick on a selected card, a return arrow on the card
  // just taken (which cannot be thrown straight back).
  if (marks.includes('selected')) node.append(badge('check', '✓'));
  if (marks.includes('taken')) node.append(badge('taken-badge', '↩'));
  const name = label || (code ? cardName(code) : t('card_back'));
  if (onPlay) {
    // (With `onPlay` the node was made a button.)
    /** @type {HTMLButtonElement} */ (node).type = 'button';
    node.setAttribute('aria-label', name);
    node.addEventListener('click', () => onPlay(code));
  } else {
    node.setAttribute('role', 'img');
    node.setAttribute('aria-label', name);
  }
  return node;
}

/** @param {string} kind @param {string} text */
function badge(kind, text) {
  const node = document.createElement('span');
  node.className = `badge ${kind}`;
  node.setAttribute('aria-hidden', 'true');
  node.textContent = text;
  return node;
}

/** A row of face-down cards standing for `count` cards in someone's hand.
 * @param {number} count @param {{ max?: number }} [options] */
export function backs(count, { max = 8 } = {}) {
  const row = document.createElement('span');
  row.className = 'backs';
  row.setAttribute('role', 'img');
  row.setAttribute('aria-label', t('cards_count', { n: count }));
  for (let i = 0; i < Math.min(count, max); i++) {
    const back = cardEl(null, { small: true });
    back.removeAttribute('role');
    back.removeAttribute('aria-label');
    row.append(back);
  }
  const badge = document.createElement('span');
  badge.className = 'count';
  badge.textContent = num(count);
  row.append(badge);
  return row;
}

/** Inline text of cards for messages: "7♦ 10♣", kept left to right inside Arabic sentences
 * (isolated, so that the bidirectional algorithm cannot reorder "10♣" or the list).
 * @param {string[] | null | undefined} cards */
export function cardsText(cards) {
  const text = (cards || []).map(cardText).join(' ');
  return text ? `\u2066${text}\u2069` : '';
}

/** A hand: its cards in one row, overlapping as much as the width needs (CSS reads `--n`).
 * @param {HTMLElement[]} cards @param {string} label */
export function handRow(cards, label) {
  const row = document.createElement('div');
  row.className = 'hand';
  row.setAttribute('aria-label', label);
  row.setAttribute('role', 'group');
  row.style.setProperty('--n', String(Math.max(1, cards.length)));
  // Right to left, each card lies under the one before it, so that the index in its top-left
  // corner stays in view however much they overlap (as a fan of real cards shows it).
  if (document.documentElement.dir === 'rtl') {
    cards.forEach((card, i) => card.style.setProperty('--z', String(cards.length - i)));
  }
  row.append(...cards);
  return row;
}
