// The page's entry point: a hash router (#/, #/new/KIND/VARIANT, #/game/ID, #/join/ID/CODE[/SEAT],
// #/help/KIND/VARIANT, #/player/NAME, #/leaderboard/KIND/POOL, #/account,
// #/tournament/ID[/CODE]), the language and
// speed switches, and the account's event stream while someone is signed in.

import { t, setLanguage, language, onLanguageChange } from './i18n.js';
import { currentUser, onAccountChange, ApiError, refusalStatus } from './api.js';
import { problemText } from './problems.js';
import { showLobby, leaveLobby } from './lobby.js';
import { showInvitation } from './invitation.js';
import { openTable, closeTable } from './table.js';
import { h, setBusy, SPEEDS, SPEED_KEY } from './ui.js';
import { showHelp } from './help.js';
import { showProfile, showLeaderboard } from './players.js';
import { followAccount, showAccount } from './account.js';
import { showTournament, leaveTournament } from './tournaments.js';
import './seating.js';

// (Every element looked up by id here is in index.html: the page's header and its <main>.)

/** Sets the header's words, the speed choices and the language switch in the page's language. */
function chrome() {
  /** @type {HTMLElement} */ (document.getElementById('brand')).textContent = t('brand');
  /** @type {HTMLElement} */ (document.getElementById('nav-help')).textContent = t('rules');
  /** @type {HTMLElement} */ (document.getElementById('nav-boards')).textContent = t('leaderboards');
  /** @type {HTMLElement} */ (document.getElementById('nav-account')).textContent = t('account');
  /** @type {HTMLElement} */ (document.getElementById('speed-label')).textContent = t('speed');
  /** @type {HTMLElement} */ (document.getElementById('skip')).textContent = t('skip');
  const speed = /** @type {HTMLSelectElement} */ (document.getElementById('speed'));
  const chosen = localStorage.getItem(SPEED_KEY) || 'normal';
  speed.replaceChildren(...Object.keys(SPEEDS).map((name) =>
    h('option', { value: name, selected: name === chosen }, t(`speed_${name}`))));
  const lang = /** @type {HTMLButtonElement} */ (document.getElementById('lang'));
  const other = language() === 'ar' ? 'en' : 'ar';
  lang.textContent = other === 'ar' ? 'العربية' : 'English';
  lang.setAttribute('lang', other);
  lang.dataset.lang = other;
  const user = currentUser();
  /** @type {HTMLElement} */ (document.getElementById('who')).textContent = user ? t('signed_in_as', { name: user.name }) : '';
}

/** Shows the page the address names. */
async function route() {
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));
  const hash = location.hash;
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  chrome();
  leaveLobby();
  leaveTournament();
  followAccount();
  setBusy(true);
  try {
    if (parts[0] === 'game' && /^\d+$/.test(parts[1] || '')) {
      await openTable(app, Number(parts[1]));
    } else if (['game', 'tournament'].includes(parts[0]) && parts[1] && !/^\d+$/.test(parts[1])) {
      // (A link with no number where a table's or tournament's belongs names nothing.)
      closeTable();
      throw new ApiError(404, { code: 'not_found' });
    } else {
      closeTable();
      if (parts[0] === 'join' && /^\d+$/.test(parts[1] || '') && parts[2]) await showInvitation(app, Number(parts[1]), parts[2], parts[3]);
      else if (parts[0] === 'help') showHelp(app, parts[1], parts[2]);
      else if (parts[0] === 'player' && parts[1]) await showProfile(app, parts[1]);
      else if (parts[0] === 'leaderboard') await showLeaderboard(app, parts[1], parts[2]);
      else if (parts[0] === 'account') await showAccount(app);
      else if (parts[0] === 'tournament' && /^\d+$/.test(parts[1] || '')) await showTournament(app, Number(parts[1]), parts[2]);
      else if (parts[0] === 'new') await showLobby(app, { kind: parts[1], variant: parts[2] });
      else await showLobby(app, {});
    }
  } catch (error) {
    app.replaceChildren(unreachable(parts[0], error));
  } finally {
    setBusy(false);
    // A new address starts at the top of its page (the form that made a table may have been
    // scrolled far down; a phone would land on the chat).
    if (location.hash === hash && document.body.dataset.shown !== hash) window.scrollTo(0, 0);
    // Which address the page now shows (see harness.mjs `idle`): the address bar changes
    // before the hashchange handler has even started.
    if (location.hash === hash) document.body.dataset.shown = hash;
  }
}

/** What the page says in place of a table or tournament it cannot show: in words, why (not
 * there, not public, private, not yours), and what to do; anything else as a problem.
 * @param {string} what @param {unknown} error @returns {HTMLDivElement} */
function unreachable(what, error) {
  /** @type {Record<string, Record<number, string>>} */
  const reasons = {
    game: { 404: 'table_not_found', 403: 'table_not_yours', 401: 'table_not_public' },
    tournament: { 404: 'tournament_not_found', 403: 'tournament_private', 401: 'tournament_private' },
  };
  // (Anything thrown but a refusal from the API names no reason.)
  const status = refusalStatus(error);
  const reason = status === null ? undefined : (reasons[what] || {})[status];
  return h('div', { class: `panel error${reason ? ' not-yours' : ''}`, 'data-reason': reason || 'error' },
    h('h1', {}, t(reason || 'something_wrong')),
    h('p', {}, reason ? t(`${reason}_note`) : problemText(error)),
    h('a', { href: '#/', class: 'button' }, t('lobby')));
}

/** Sets the page going: the switches, the router, and following the account. */
function start() {
  setLanguage(language());
  /** @type {HTMLSelectElement} */ (document.getElementById('speed')).addEventListener('change', (event) => {
    localStorage.setItem(SPEED_KEY, /** @type {HTMLSelectElement} */ (event.target).value);
  });
  /** @type {HTMLButtonElement} */ (document.getElementById('lang')).addEventListener('click', (event) => {
    // (chrome() names the other language on the switch before it can be clicked.)
    setLanguage(/** @type {string} */ (/** @type {HTMLButtonElement} */ (event.currentTarget).dataset.lang));
  });
  onLanguageChange(() => {
    chrome();
    if (!location.hash.startsWith('#/game/')) route();
  });
  // Whoever signs in (a guest made on any page included) is followed at once: a tournament
  // table that seats them reaches them wherever they are.
  onAccountChange(() => {
    chrome();
    followAccount();
  });
  window.addEventListener('hashchange', route);
  route();
}

start();
