// A tournament's round seats you: said wherever you are. From any page but a game of your own
// still being played, the page takes you to the new table at once; from such a game, a notice
// that cannot be missed (and the page's title) says the table is ready, with the way to it.
// An optional chime, if you turned it on.

import { onAccountEvent } from './account.js';
import { currentTable } from './table.js';
import { notice, clearNotice, toast } from './ui.js';
import { t, setTitle } from './i18n.js';
import { chime } from './sound.js';

const KEY = 'tournament-table';
/** The table the notice points to, while it is not visited.
 * @type {number | null} */
let waiting = null;

onAccountEvent((/** @type {Api<'AccountEventOut'>} */ event) => {
  // (What waits for the account when its stream opens comes without an id: not news.)
  if (event.type !== 'tournament_game' || event.id === undefined) return;
  const target = `#/game/${event.game_id}`;
  if (location.hash === target) return;
  chime();
  const here = currentTable();
  // A table of the same tournament is over whatever the page has caught up with yet (its next
  // round waits for it): only another game of one's own still being played keeps one there.
  const playing = here && here.seated && here.id !== event.game_id && here.tournament !== event.tournament_id
    && ['waiting', 'active', 'hand_over'].includes(here.status);
  if (playing) {
    waiting = event.game_id;
    setTitle(t('title_table_ready'));
    notice({
      key: KEY,
      text: t('tournament_table_ready', { round: event.round }),
      action: { label: t('go_to_table'), href: target },
      dismiss: t('later'),
    });
  } else {
    location.hash = target;
    toast(t('tournament_table_ready', { round: event.round }));
  }
});

window.addEventListener('hashchange', () => {
  if (waiting !== null && location.hash === `#/game/${waiting}`) {
    waiting = null;
    setTitle('');
    clearNotice(KEY);
  }
});
