// English and Arabic. t(key, {vars}) looks a string up in the chosen language (falling back to
// English, then to the key itself) and fills in {vars}, numbers written as the language writes
// them (Arabic-Indic digits in Arabic); tn() picks a plural form; num(), when() and clock()
// write numbers, dates and times in the page's language. Arabic switches the page to
// right-to-left. The choice is kept in localStorage. The words are in strings/en.js and
// strings/ar.js.

import en from './strings/en.js';
import ar from './strings/ar.js';

/** @type {Record<string, Record<string, string>>} */
export const STRINGS = { en, ar };
/** English, every key the page uses (the language any other falls back to).
 * @type {Record<string, string>} */
const english = en;
const KEY = 'cardroom.lang';
/** @type {Set<(lang: string) => void>} */
const listeners = new Set();

function stored() {
  try {
    return globalThis.localStorage ? localStorage.getItem(KEY) : null;
  } catch {
    return null;
  }
}

/** @type {string} */
let current = stored() ?? 'en';
if (!STRINGS[current]) current = 'en';

export function language() {
  return current;
}

/** The locale Intl writes numbers, dates and plurals in: Arabic with Arabic-Indic digits (as the
 * page's own Arabic words write them), or the browser's own English (British English when the
 * browser's language is not English). */
export function locale() {
  if (current === 'ar') return 'ar-u-nu-arab';
  const browser = globalThis.navigator?.language || 'en-GB';
  return browser.toLowerCase().startsWith('en') ? browser : 'en-GB';
}

/** @type {Map<string, unknown>} */
const formats = new Map();
/**
 * One Intl formatter per locale, kind and options, made once.
 * @template T
 * @param {string} kind @param {object} options @param {() => T} make
 * @returns {T}
 */
function format(kind, options, make) {
  const key = `${locale()}|${kind}|${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, make());
  return /** @type {T} */ (formats.get(key));
}

/** A number as the page's language writes it ("1,234.5", "١٬٢٣٤٫٥").
 * @param {number} n @param {Intl.NumberFormatOptions} [options] */
export function num(n, options = {}) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return String(n);
  return format('number', options, () => new Intl.NumberFormat(locale(), options)).format(n);
}

/** A signed number: "+15", "−3", "0" (in the page's digits).
 * @param {number} n */
export function signedNum(n) {
  if (n > 0) return `+${num(n)}`;
  if (n < 0) return `−${num(-n)}`;
  return num(0);
}

/** A moment (an ISO time) as a date and time in the page's language, in the reader's own time
 * zone ("28 Nov 2026, 21:46"); "" for none.
 * @param {string | null | undefined} iso @param {Intl.DateTimeFormatOptions} [options] */
export function when(iso, options = { dateStyle: 'medium', timeStyle: 'short' }) {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return format('date', options, () => new Intl.DateTimeFormat(locale(), options)).format(date);
}

/** A moment's time of day alone ("21:46"), or with its date when it is not today.
 * @param {string | null | undefined} iso */
export function clock(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const today = new Date();
  const sameDay = date.toDateString() === today.toDateString();
  return when(iso, sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' });
}

/** The digits of a text in the page's language: "3:05" → "٣:٠٥" in Arabic.
 * @param {string | number} text */
export function digits(text) {
  if (current !== 'ar') return String(text);
  return String(text).replace(/[0-9]/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]);
}

/** Whether `key` has words (in this language or in English).
 * @param {string} key */
export function has(key) {
  return key in words() || key in english;
}

/** The words of the page's language. */
function words() {
  return STRINGS[current] ?? english;
}

/** The words for `key` in the page's language, `{name}` filled in from `vars`.
 * @param {string} key @param {Record<string, unknown>} [vars] */
export function t(key, vars) {
  let text = words()[key] ?? english[key] ?? key;
  if (vars) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) => {
      if (!(name in vars)) return whole;
      const value = vars[name];
      return typeof value === 'number' ? num(value) : String(value);
    });
  }
  return text;
}

/** The plural form of `key` for `n` (`key_one`, `key_two`, `key_few`, `key_many`, `key_zero`,
 * as the language has them, else `key_other`), with `{n}` filled in.
 * @param {string} key @param {number} n @param {Record<string, unknown>} [vars] */
export function tn(key, n, vars = {}) {
  const rule = format('plural', {}, () => new Intl.PluralRules(locale())).select(n);
  const known = words();
  const exact = n === 0 && known[`${key}_zero`] !== undefined ? `${key}_zero` : `${key}_${rule}`;
  return t(known[exact] !== undefined ? exact : `${key}_other`, { ...vars, n });
}

let titled = '';
/** The page's title: the brand, after `prefix` while something waits for the reader ("▶ Your
 * table is ready"). */
export function setTitle(prefix = '') {
  titled = prefix;
  document.title = prefix ? `${prefix} · ${t('brand')}` : t('brand');
}

/** @param {string} lang */
export function setLanguage(lang) {
  current = STRINGS[lang] ? lang : 'en';
  try {
    localStorage.setItem(KEY, current);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  document.documentElement.lang = current;
  document.documentElement.dir = current === 'ar' ? 'rtl' : 'ltr';
  setTitle(titled);
  for (const listener of [...listeners]) listener(current);
}

/** Uses `lang` on this page without keeping it as the reader's choice (the admin pages are in
 * English whatever the play page was last read in).
 * @param {string} lang */
export function pinLanguage(lang) {
  current = STRINGS[lang] ? lang : 'en';
}

/** Calls `listener` after every language change; returns the function that stops it.
 * @param {(lang: string) => void} listener */
export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
