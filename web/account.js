// The account: its event stream (followed while the page is open, so that "your turn", a
// challenge and its answer arrive wherever one is), the account page (#/account: personal API
// tokens, challenges, becoming a bot account), and the challenge form of a profile.

import * as api from './api.js';
import { t, when } from './i18n.js';
import { h, toast } from './ui.js';
import { problemText } from './problems.js';
import { identityPanel, ensureNamedUser, complain } from './identity.js';

/** The stream being followed: its account's token, the abort that stops it, and the id of the
 * last event read (the stream resumes after it).
 * @typedef {{ token: string, abort: AbortController, after: number | null }} Following */

/** @type {Set<(event: Api<'AccountEventOut'>) => void>} */
const listeners = new Set();
/** @type {Following | null} */
let following = null;

/** Calls `listener` with every event of the account's stream; returns the function that stops.
 * @param {(event: Api<'AccountEventOut'>) => void} listener */
export function onAccountEvent(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Follows the signed-in account's event stream (newline-delimited JSON over fetch, which can
 * send the token that an EventSource cannot), resuming after the last event on a dropped
 * connection; a new account (or none) restarts (or stops) it. */
export function followAccount() {
  const token = api.currentToken();
  if (following && following.token === token) return;
  following?.abort.abort();
  following = null;
  if (!token) return;
  /** @type {Following} */
  const current = { token, abort: new AbortController(), after: null };
  following = current;
  (async () => {
    let failures = 0;
    while (following === current) {
      try {
        const after = current.after === null ? '' : `?after=${current.after}`;
        const response = await fetch(`/api/v1/stream/events${after}`, {
          headers: { Authorization: `Bearer ${token}`, Accept: 'application/x-ndjson' },
          signal: current.abort.signal,
        });
        if (response.status === 401) return;
        if (!response.ok || !response.body) throw new Error(`stream: ${response.status}`);
        failures = 0;
        for await (const piece of api.pieces(response, '\n')) {
          const line = piece.trim();
          if (!line) continue;
          const event = /** @type {Api<'AccountEventOut'>} */ (JSON.parse(line));
          if (event.id !== undefined) current.after = event.id;
          for (const listener of [...listeners]) listener(event);
        }
      } catch (error) {
        if (api.calledOff(error)) return;
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(10000, 500 * (failures + 1))));
    }
  })();
}

/** What the account stream means wherever one is: a challenge made to you is announced; a
 * challenge of yours accepted takes you to its game (unless you are at a table). */
onAccountEvent((event) => {
  const me = (api.currentUser() || {}).name;
  // (Read only in the branches below, each of a challenge event, which always carries one.)
  const challenge = /** @type {Extract<Api<'AccountEventOut'>, { challenge: unknown }>} */ (event).challenge;
  if (event.type === 'challenge_received' && event.id !== undefined) {
    toast(t('challenge_received', { name: challenge.from, game: t(`kind_${challenge.kind}`) }));
  } else if (event.type === 'challenge_accepted' && challenge.from === me && challenge.game_id) {
    if (location.hash.startsWith('#/game/')) toast(t('challenge_accepted', { name: challenge.to || '' }));
    else location.hash = `#/game/${challenge.game_id}`;
  } else if (event.type === 'challenge_declined' && challenge.from === me) {
    toast(t('challenge_declined', { name: challenge.to || '', reason: t(`decline_${challenge.reason || 'generic'}`) }));
  }
});

/** Whether a table or challenge counts for ratings, as it stands for the one looking: a guest
 * is never rated, whatever the table.
 * @param {boolean} rated */
export function ratedText(rated) {
  const me = api.currentUser();
  if (me && me.guest) return t('guest_unrated');
  return rated ? t('rated') : t('unrated');
}

/** A list of challenges with their buttons: incoming (accept, decline) or outgoing (cancel).
 * @param {Api<'Challenge'>[]} list @param {boolean} incoming @param {() => Promise<void>} redraw */
function challengeRows(list, incoming, redraw) {
  if (!list.length) return h('p', { class: 'note empty' }, t(incoming ? 'no_challenges_in' : 'no_challenges_out'));
  return h('ul', { class: 'games challenges' }, list.map((c) => {
    const what = `${t(`kind_${c.kind}`)} · ${t(`variant_${c.kind}_${c.variant}`)}`;
    const who = incoming ? t('challenge_from', { name: c.from }) : t('challenge_to', { name: c.to || t('anyone') });
    /** @type {HTMLButtonElement[]} */
    const buttons = [];
    /** @param {string} label @param {'accept' | 'decline' | 'cancel'} action
     * @param {() => Promise<Api<'Challenge'>>} call */
    const act = (label, action, call) => {
      const button = h('button', { type: 'button', class: `button${action === 'accept' ? ' primary' : ''}`, 'data-action': `challenge-${action}` }, t(label));
      button.addEventListener('click', async () => {
        button.disabled = true;
        try {
          const answer = await call();
          if (action === 'accept' && answer.game_id) {
            location.hash = `#/game/${answer.game_id}`;
            return;
          }
          await redraw();
        } catch (error) {
          toast(problemText(error), 'error');
          await redraw();
        }
      });
      buttons.push(button);
    };
    if (incoming) {
      act('accept', 'accept', () => api.answerChallenge(c.id, 'accept', {}));
      act('decline', 'decline', () => api.answerChallenge(c.id, 'decline', { reason: 'generic' }));
    } else {
      act('cancel', 'cancel', () => api.answerChallenge(c.id, 'cancel', {}));
    }
    return h('li', { class: 'game-row challenge', 'data-challenge': String(c.id) },
      h('strong', {}, what), h('span', {}, who),
      c.from_bot && incoming ? h('span', { class: 'tag bot-account' }, t('bot_tag')) : null,
      h('span', { class: 'tag rated-tag' }, ratedText(c.rated)), ...buttons);
  }));
}

/** The lobby's and the account page's challenges panel, kept up to date by the stream. */
export async function challengesPanel() {
  const box = h('section', { class: 'panel challenges-panel' });
  const draw = async () => {
    if (!box.isConnected && box.childElementCount) {
      stop();
      return;
    }
    try {
      const list = await api.challenges();
      box.replaceChildren(h('h2', {}, t('challenges')),
        h('h3', {}, t('challenges_in')), challengeRows(list.incoming, true, draw),
        h('h3', {}, t('challenges_out')), challengeRows(list.outgoing, false, draw));
    } catch (error) {
      box.replaceChildren(h('h2', {}, t('challenges')), h('p', { class: 'error' }, problemText(error)));
    }
  };
  // (The challenges waiting when the stream opens come without ids: the panel shows them.)
  const stop = onAccountEvent((event) => {
    if (event.id !== undefined && event.type.startsWith('challenge_')) draw();
  });
  await draw();
  return box;
}

/** A profile's challenge form: the game and (when both can be rated: neither is a guest)
 * whether it is rated, sent to `name`.
 * @param {string} name @param {Api<'KindInfo'>[]} kinds @param {{ rateable?: boolean }} [settings] */
export function challengeForm(name, kinds, { rateable = true } = {}) {
  const kind = h('select', { id: 'challenge-kind' }, kinds.map((k) => h('option', { value: k.kind }, t(`kind_${k.kind}`))));
  const variant = h('select', { id: 'challenge-variant' });
  const fillVariants = () => {
    const chosen = kinds.find((k) => k.kind === kind.value) || kinds[0];
    variant.replaceChildren(...chosen.variants.map((v) => h('option', { value: v.name, selected: v.default }, t(`variant_${chosen.kind}_${v.name}`))));
  };
  kind.addEventListener('change', fillVariants);
  fillVariants();
  const rated = rateable ? h('input', { type: 'checkbox', id: 'challenge-rated', checked: true }) : null;
  const send = h('button', { type: 'submit', class: 'button primary', id: 'challenge-send' }, t('challenge_send', { name }));
  const status = h('p', { class: 'note challenge-status', role: 'status' });
  const form = h('form', { class: 'panel challenge-form' },
    h('h2', {}, t('challenge_title', { name })),
    api.currentUser() ? null : identityPanel(() => {}),
    h('div', { class: 'row' }, h('label', { for: 'challenge-kind' }, t('game')), kind),
    h('div', { class: 'row' }, h('label', { for: 'challenge-variant' }, t('variant')), variant),
    rated
      ? h('div', { class: 'row' }, rated, h('label', { for: 'challenge-rated' }, t('rated')))
      : h('p', { class: 'note' }, t('guest_unrated')),
    send, status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    send.disabled = true;
    try {
      await ensureNamedUser();
      // (The two lists offer only the catalogue's kinds and their variants.)
      const made = await api.challenge({ to: name, kind: /** @type {Api<'GameKind'>} */ (kind.value),
        variant: /** @type {Api<'VariantName'>} */ (variant.value), rated: rated ? rated.checked : false });
      status.textContent = t('challenge_sent', { name });
      form.dataset.challenge = String(made.id);
      // The account stream says when it is answered; in case it opened only after the answer,
      // the challenge itself is asked after too, while the form is shown.
      while (form.isConnected) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        if (!form.isConnected) break;
        const now = await api.getChallenge(made.id);
        if (now.status === 'accepted' && now.game_id) {
          location.hash = `#/game/${now.game_id}`;
          break;
        }
        if (now.status !== 'open') {
          status.textContent = t(`challenge_${now.status}_note`, { name });
          send.disabled = false;
          break;
        }
      }
    } catch (error) {
      complain(error);
      send.disabled = false;
    }
  });
  return form;
}

/** The account page: personal API tokens, challenges, and becoming a bot account.
 * @param {HTMLElement} root */
export async function showAccount(root) {
  const user = api.currentUser();
  if (!user) {
    root.replaceChildren(h('div', { class: 'lobby' }, h('h1', {}, t('account')),
      h('p', { class: 'note' }, t('account_sign_in'))));
    return;
  }
  const tokens = h('section', { class: 'panel tokens' });
  const bot = botPanel(user, root);
  await drawTokens(tokens, user).catch((error) => tokens.replaceChildren(h('p', { class: 'error' }, problemText(error))));
  root.replaceChildren(h('div', { class: 'lobby account' }, h('h1', {}, t('account')),
    h('p', { class: 'lead' }, t('signed_in_as', { name: user.name })),
    tokens, await challengesPanel(), bot));
}

/** Who is signed in. @typedef {NonNullable<ReturnType<typeof api.currentUser>>} User */

/** Draws the personal API tokens into `tokens`: each with its scopes and last use, a way to
 * revoke it, and a form that makes one (its secret shown once).
 * @param {HTMLElement} tokens @param {User} user @returns {Promise<void>} */
async function drawTokens(tokens, user) {
  if (user.guest) {
    tokens.replaceChildren(h('h2', {}, t('api_tokens')), h('p', { class: 'note' }, t('tokens_registered_only')));
    return;
  }
  const list = await api.tokens();
  const rows = list.tokens.map((token) => {
    const revoke = h('button', { type: 'button', class: 'button danger', 'data-revoke': String(token.id) }, t('revoke'));
    revoke.addEventListener('click', async () => {
      try {
        await api.revokeToken(token.id);
        await drawTokens(tokens, user);
      } catch (error) {
        toast(problemText(error), 'error');
      }
    });
    return h('li', { class: 'game-row token', 'data-token': String(token.id) },
      h('strong', {}, token.description), h('code', {}, `${token.prefix}…`),
      h('span', {}, token.scopes.join(', ')),
      h('span', { class: 'note' }, token.last_used_at ? t('token_used', { when: when(token.last_used_at) }) : t('token_unused')),
      revoke);
  });
  const description = h('input', { id: 'token-description', maxlength: '100', required: true, placeholder: t('token_description_placeholder') });
  const scopes = ['play', 'challenge', 'read', ...(user.role === 'admin' ? ['admin'] : [])].map((scope) =>
    h('label', { class: 'scope' }, h('input', { type: 'checkbox', name: 'scope', value: scope, checked: scope !== 'admin' }), ` ${scope}`));
  const made = h('div', { class: 'token-made' });
  const form = h('form', { class: 'token-form' },
    h('label', { for: 'token-description' }, t('token_description')), description,
    h('fieldset', {}, h('legend', {}, t('token_scopes')), ...scopes),
    h('button', { type: 'submit', class: 'button primary', id: 'token-create' }, t('token_create')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    // (The boxes' values are the scopes listed above.)
    const chosen = [.../** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll('input[name="scope"]:checked'))]
      .map((i) => /** @type {Api<'Scope'>} */ (i.value));
    try {
      const created = await api.createToken({ description: description.value, scopes: chosen });
      await drawTokens(tokens, user);
      /** @type {HTMLElement} */ (tokens.querySelector('.token-made')).replaceChildren(
        h('p', {}, t('token_once')),
        h('input', { readonly: '', class: 'token-secret', value: created.token, 'aria-label': t('token_secret') }));
    } catch (error) {
      toast(problemText(error), 'error');
    }
  });
  tokens.replaceChildren(h('h2', {}, t('api_tokens')), h('p', { class: 'note' }, t('tokens_note')),
    rows.length ? h('ul', { class: 'games' }, rows) : h('p', { class: 'note empty' }, t('no_tokens')),
    form, made);
}

/** Becoming a bot account (a registered person's choice, asked once more), or what one is.
 * @param {User} user @param {HTMLElement} root */
function botPanel(user, root) {
  const bot = h('section', { class: 'panel bot-account' }, h('h2', {}, t('bot_account')));
  if (user.bot) {
    bot.append(h('p', {}, t('is_bot_account')));
  } else if (!user.guest) {
    const become = h('button', { type: 'button', class: 'button danger', id: 'become-bot' }, t('become_bot'));
    become.addEventListener('click', async () => {
      if (!window.confirm(t('become_bot_confirm'))) return;
      try {
        const updated = await api.becomeBot();
        api.rememberUser(updated);
        showAccount(root);
      } catch (error) {
        toast(problemText(error), 'error');
      }
    });
    bot.append(h('p', { class: 'note' }, t('bot_account_note')), become);
  } else {
    bot.append(h('p', { class: 'note' }, t('tokens_registered_only')));
  }
  return bot;
}
