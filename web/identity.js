// Who the reader is: the identity box (a name to play under as a guest, or sign in or register
// with a password), and the one way the page makes a guest — under the name typed, never a
// nameless one: with no name typed it asks for one beside the field.

import * as api from './api.js';
import { t } from './i18n.js';
import { h, toast } from './ui.js';
import { problemText } from './problems.js';

/** The identity box: a name for a guest, or sign in / register with a password. `onChange`
 * runs after signing in or out; `lead`, a line said above the name.
 * @param {() => void} onChange @param {{ lead?: string }} [settings]
 * @returns {HTMLElement} */
export function identityPanel(onChange, { lead } = {}) {
  const user = api.currentUser();
  if (user) {
    const out = h('button', { type: 'button', class: 'link' }, t('sign_out'));
    out.addEventListener('click', () => {
      api.signOut();
      onChange();
    });
    return h('section', { class: 'panel identity' },
      h('p', {}, t('signed_in_as', { name: user.name }), ' ', out));
  }
  const name = h('input', {
    id: 'player-name', name: 'name', maxlength: '32', autocomplete: 'nickname', placeholder: t('your_name_placeholder'),
    'aria-describedby': 'player-name-note player-name-error',
  });
  name.addEventListener('input', () => nameProblem(null));
  const password = h('input', { id: 'player-password', type: 'password', autocomplete: 'current-password' });
  const signIn = h('button', { type: 'button', class: 'button' }, t('sign_in'));
  const register = h('button', { type: 'button', class: 'button' }, t('register'));
  /** @param {boolean} isNew */
  const account = async (isNew) => {
    try {
      await api.login(name.value.trim(), password.value, isNew);
      onChange();
    } catch (error) {
      toast(problemText(error, 'sign_in'), 'error');
    }
  };
  signIn.addEventListener('click', () => account(false));
  register.addEventListener('click', () => account(true));
  return h('section', { class: 'panel identity' },
    lead ? h('p', { class: 'lead' }, lead) : null,
    h('label', { for: 'player-name' }, t('your_name')), name,
    h('p', { class: 'field-error', id: 'player-name-error', role: 'alert', hidden: true }),
    h('p', { class: 'note', id: 'player-name-note' }, t('guest_note')),
    h('details', {}, h('summary', {}, t('have_account')),
      h('label', { for: 'player-password' }, t('password')), password, signIn, register));
}

/** Says what is wrong with the name typed, beside the field (null: nothing).
 * @param {string | null} text @returns {boolean} */
function nameProblem(text) {
  const field = document.getElementById('player-name');
  const box = document.getElementById('player-name-error');
  if (!field || !box) return false;
  box.textContent = text || '';
  box.hidden = !text;
  if (text) field.setAttribute('aria-invalid', 'true');
  else field.removeAttribute('aria-invalid');
  return true;
}

/** An error already said beside its field.
 * @param {string} code */
function shown(code) {
  return Object.assign(new Error(t('name_needed')), { code, shown: true });
}

/**
 * Makes sure there is a user: the one signed in, or a guest under the name typed in the
 * identity box. With no name typed, or one that cannot be had, it says so beside the field,
 * which takes the focus, and throws an error marked `shown`.
 * @returns {Promise<Api<'UserInfo'>>}
 */
export async function ensureNamedUser() {
  const user = api.currentUser();
  if (user && api.currentToken()) return user;
  // (The field, when there, is the identity box's input.)
  const field = /** @type {HTMLInputElement | null} */ (document.getElementById('player-name'));
  const name = field ? field.value.trim() : '';
  if (!name) {
    if (field) {
      nameProblem(t('name_needed'));
      field.focus();
    }
    throw shown('name_needed');
  }
  try {
    return await api.ensureUser(name);
  } catch (error) {
    if (field && error instanceof api.ApiError && (error.code === 'name_taken' || error.status === 422)) {
      nameProblem(t(error.code === 'name_taken' ? 'name_taken_inline' : 'name_rules'));
      field.focus();
      error.shown = true;
    }
    throw error;
  }
}

/** Says an error in words unless it was said beside its field already.
 * @param {unknown} error @param {string} [context] */
export function complain(error, context) {
  const said = typeof error === 'object' && error !== null && 'shown' in error && error.shown === true;
  if (!said && !api.calledOff(error)) toast(problemText(error, context), 'error');
}
