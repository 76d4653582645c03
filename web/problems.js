// A refusal in words: every problem `code` the API answers turned into a sentence in the page's
// language (the problem's English `detail` is for programs). A few codes read differently where
// they happen: `unauthorized` on the sign-in form is a wrong name or password.

import { t, has, language, clock } from './i18n.js';

/** What may be thrown, as read here: an ApiError (api.js) has a `code` and the `problem` the
 * server answered (any of whose fields may be missing); an abort is named `AbortError`. (Read
 * as `Required<Thrown>` where the problem was checked to be there just before.)
 * @typedef {{ name?: string, code?: string, problem?: Partial<Api<'Problem'>> }} Thrown */

/**
 * The sentence for `error` (an ApiError, or anything thrown). `context` names where it
 * happened (`sign_in`, `game`, `tournament`, `manage`) for the codes that read differently
 * there. In English, a refused value or move keeps the server's own precise sentence.
 * @param {unknown} error
 * @param {string} [context]
 * @returns {string}
 */
export function problemText(error, context) {
  if (!error || /** @type {Thrown} */ (error).name === 'AbortError') return '';
  const code = /** @type {Thrown} */ (error).code;
  if (!code || code === 'error') return t('problem_error');
  if (code === 'muted' && /** @type {Thrown} */ (error).problem?.muted_until) {
    return t('problem_muted_until', { time: clock(/** @type {Required<Thrown>} */ (error).problem.muted_until) });
  }
  if (context && has(`problem_${code}_${context}`)) return t(`problem_${code}_${context}`);
  const precise = ['validation_failed', 'illegal_move'].includes(code) && /** @type {Thrown} */ (error).problem?.detail;
  if (language() === 'en' && precise) return sentence(/** @type {Required<Thrown>} */ (error).problem.detail);
  return has(`problem_${code}`) ? t(`problem_${code}`) : t('problem_error');
}

/** The server's detail as a sentence: a capital first and a full stop at the end.
 * @param {unknown} text */
function sentence(text) {
  const trimmed = String(text).trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
