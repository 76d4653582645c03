// The page's entry point: a hash router (#/, #/new/KIND/VARIANT, #/game/ID, #/join/ID/CODE,
// #/help/KIND/VARIANT, #/player/NAME, #/leaderboard/KIND/POOL, #/account,
// #/tournament/ID[/CODE]), the language and
// speed switches, and the account's event stream while someone is signed in.

import { t, setLanguage, language, onLanguageChange } from './i18n.js';
import { currentUser } from './api.js';
import { showLobby, showJoin, leaveLobby } from './lobby.js';
import { openTable, closeTable } from './table.js';
import { h, setBusy, SPEEDS, SPEED_KEY } from './ui.js';
import { showHelp } from './help.js';
import { showProfile, showLeaderboard } from './players.js';
import { followAccount, showAccount } from './account.js';
import { showTournament, leaveTournament } from './tournaments.js';

function chrome() {
  document.getElementById('brand').textContent = t('brand');
  document.getElementById('nav-help').textContent = t('rules');
  document.getElementById('nav-boards').textContent = t('leaderboards');
  document.getElementById('nav-account').textContent = t('account');
  document.getElementById('speed-label').textContent = t('speed');
  document.getElementById('skip').textContent = t('skip');
  const speed = document.getElementById('speed');
  const chosen = localStorage.getItem(SPEED_KEY) || 'normal';
  speed.replaceChildren(...Object.keys(SPEEDS).map((name) =>
    h('option', { value: name, selected: name === chosen }, t(`speed_${name}`))));
  const lang = document.getElementById('lang');
  const other = language() === 'ar' ? 'en' : 'ar';
  lang.textContent = other === 'ar' ? 'العربية' : 'English';
  lang.setAttribute('lang', other);
  lang.dataset.lang = other;
  const user = currentUser();
  document.getElementById('who').textContent = user ? t('signed_in_as', { name: user.name }) : '';
}

async function route() {
  const app = document.getElementById('app');
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
    } else {
      closeTable();
      if (parts[0] === 'join' && parts[1] && parts[2]) await showJoin(app, Number(parts[1]), parts[2]);
      else if (parts[0] === 'help') showHelp(app, parts[1], parts[2]);
      else if (parts[0] === 'player' && parts[1]) await showProfile(app, parts[1]);
      else if (parts[0] === 'leaderboard') await showLeaderboard(app, parts[1], parts[2]);
      else if (parts[0] === 'account') await showAccount(app);
      else if (parts[0] === 'tournament' && /^\d+$/.test(parts[1] || '')) await showTournament(app, Number(parts[1]), parts[2]);
      else if (parts[0] === 'new') await showLobby(app, { kind: parts[1], variant: parts[2] });
      else await showLobby(app, {});
    }
  } catch (error) {
    // A table one may not see (or that is not there) says so in words; anything else as it came.
    const known = ['game', 'tournament'].includes(parts[0]) && (error.status === 403 || error.status === 404);
    app.replaceChildren(h('div', { class: `panel error${known ? ' not-yours' : ''}` },
      h('h1', {}, known ? t(error.status === 403 ? 'table_not_yours' : 'table_not_found') : t('something_wrong')),
      known ? h('p', {}, t('table_not_yours_note')) : h('p', {}, error.message || String(error)),
      h('a', { href: '#/', class: 'button' }, t('lobby'))));
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

function start() {
  setLanguage(language());
  document.getElementById('speed').addEventListener('change', (event) => {
    localStorage.setItem(SPEED_KEY, event.target.value);
  });
  document.getElementById('lang').addEventListener('click', (event) => {
    setLanguage(event.currentTarget.dataset.lang);
  });
  onLanguageChange(() => {
    chrome();
    if (!location.hash.startsWith('#/game/')) route();
  });
  window.addEventListener('hashchange', route);
  route();
}

start();
