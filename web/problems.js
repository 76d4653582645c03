// A refusal in words: every problem `code` the API answers turned into a sentence in the page's
// language (the problem's English `detail` is for programs). A few codes read differently where
// they happen: `unauthorized` on the sign-in form is a wrong name or password.

import { t, has, language, clock } from './i18n.js';
import { ApiError, calledOff } from './api.js';

/** @typedef {import('./api.js').ProblemBody} ProblemBody */

/**
 * The sentence for `error` (an ApiError, or anything thrown). `context` names where it
 * happened (`sign_in`, `game`, `tournament`, `manage`) for the codes that read differently
 * there. In English, a refused value or move keeps the server's own precise sentence.
 * @param {unknown} error
 * @param {string} [context]
 * @returns {string}
 */
export function problemText(error, context) {
  if (!error || calledOff(error)) return '';
  // (A refusal's code; the page's own errors may carry one too, as the name form's does.)
  const code = error instanceof ApiError ? error.code
    : typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : null;
  if (!code || code === 'error') return t('problem_error');
  /** @type {ProblemBody} */
  const problem = error instanceof ApiError ? error.problem : {};
  if (code === 'muted' && typeof problem.muted_until === 'string') {
    return t('problem_muted_until', { time: clock(problem.muted_until) });
  }
  if (context && has(`problem_${code}_${context}`)) return t(`problem_${code}_${context}`);
  const precise = ['validation_failed', 'illegal_move'].includes(code) && problem.detail;
  if (language() === 'en' && precise) return sentence(precise);
  return has(`problem_${code}`) ? t(`problem_${code}`) : t('problem_error');
}

/** The server's detail as a sentence: a capital first and a full stop at the end.
 * @param {unknown} text */
function sentence(text) {
  const trimmed = String(text).trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
