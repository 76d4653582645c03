// Tournaments: the lobby's list (upcoming, running, finished — kept current by the lobby's
// stream, with a way for a registered player to make a private one) and a tournament's page
// (#/tournament/ID or #/tournament/ID/CODE) in every state, for everyone who reads it: the
// countdown and the entrants, Join (under the name typed) and Withdraw, your table, what comes
// next between rounds, the standings and every round's tables, the podium at the end, why it
// was cancelled; for its maker and admins, changing its terms and calling it off. Reading it
// makes no account. It follows the tournament's event stream.

import * as api from './api.js';
import { t, digits, clock as timeOfDay, onLanguageChange } from './i18n.js';
import { h, toast } from './ui.js';
import { identityPanel, ensureNamedUser, complain } from './identity.js';
import { tournamentForm, cancelForm } from './tournament_form.js';
import {
  gameName, shape, standingsTable, entrantsList, teamsList, roundsList,
  podium, winnerText, cancelledText, nextText, startsText, termsLines, termsOf,
} from './tournament_views.js';
import { soundOn, setSound } from './sound.js';

/** Joins (with a private one's code) or withdraws the reader, and draws the answer.
 * @typedef {(path: 'join' | 'withdraw', body?: Api<'JoinTournament'>) => Promise<void>} Act */

/** The stream the page follows now (one tournament at a time).
 * @type {AbortController | null} */
let following = null;

export function leaveTournament() {
  following?.abort();
  following = null;
}

/** "in 3:05" until `iso`, or "" once it has passed (digits in the page's language).
 * @param {string} iso */
function countdown(iso) {
  const left = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
  if (left <= 0) return '';
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, '0');
  const clock = hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
  return t('starts_in', { clock: digits(clock) });
}

/** A tournament's line in the lobby's list.
 * @param {Api<'TournamentSummary'>} tournament */
function tournamentRow(tournament) {
  return h('li', { class: 'game-row tournament-row', 'data-status': tournament.status, 'data-id': String(tournament.id) },
    h('a', { href: `#/tournament/${tournament.id}` }, h('strong', {}, h('bdi', {}, tournament.name))),
    h('span', {}, gameName(tournament)),
    h('span', { class: 'note' }, shape(tournament)),
    h('span', { class: 'tag' }, t(`tournament_${tournament.status}`)),
    tournament.status === 'upcoming' ? h('time', { datetime: tournament.starts_at }, startsText(tournament)) : null);
}

/** The lobby's tournaments panel; `draw(list)` fills it (the lobby's listing carries them). A
 * registered player may make a private tournament from it. */
export function tournamentsPanel() {
  const list = h('div', { class: 'tournament-list' });
  const user = api.currentUser();
  const maker = h('div', { class: 'make-tournament' });
  if (user && !user.guest) {
    const open = h('button', { type: 'button', class: 'button', id: 'make-private-tournament' }, t('make_private_tournament'));
    open.addEventListener('click', async () => {
      open.hidden = true;
      try {
        maker.append(await tournamentForm({
          admin: false,
          onDone: (made) => {
            location.hash = `#/tournament/${made.id}/${made.code}`;
          },
        }));
        /** @type {HTMLInputElement | null} */ (maker.querySelector('#tf-name'))?.focus();
      } catch (error) {
        complain(error);
        open.hidden = false;
      }
    });
    maker.append(open);
  } else {
    maker.append(h('p', { class: 'note' }, t('make_tournament_registered')));
  }
  const box = h('section', { class: 'panel tournaments' },
    h('h2', {}, t('tournaments')), h('p', { class: 'note' }, t('tournaments_note')), list, maker);
  /** A status and its tournaments.
   * @typedef {[string, Api<'TournamentSummary'>[]]} Group */
  /** @param {Api<'TournamentSummary'>[]} tournaments */
  const draw = (tournaments) => {
    const groups = ['running', 'upcoming', 'finished']
      .map((status) => /** @type {Group} */ ([status, tournaments.filter((x) => x.status === status)]))
      .filter(([, items]) => items.length);
    list.replaceChildren(...(groups.length
      ? groups.flatMap(([status, items]) => [
        h('h3', {}, t(`tournaments_${status}`)),
        h('ul', { class: 'games' }, items.map(tournamentRow))])
      : [h('p', { class: 'note empty' }, t('no_tournaments'))]));
  };
  return { box, draw };
}

/** Join (a name asked for first when there is no account) and Withdraw, while it takes
 * entrants; and the sound that says a table is ready, for an entrant. `identity` is the name
 * box, kept from one drawing to the next so that what is being typed stays.
 * @param {Api<'Tournament'>} tournament @param {string | undefined} code @param {Act} act
 * @param {() => HTMLElement} identity */
function entry(tournament, code, act, identity) {
  const box = h('section', { class: 'panel entry' });
  if (tournament.joined) {
    const leave = h('button', { type: 'button', class: 'button ghost', id: 'tournament-withdraw' }, t('withdraw'));
    leave.addEventListener('click', () => act('withdraw'));
    const sound = h('input', { type: 'checkbox', id: 'tournament-sound', checked: soundOn() });
    sound.addEventListener('change', () => setSound(sound.checked));
    box.append(h('p', { class: 'you-are-in' }, t('you_are_in')),
      ['upcoming', 'running'].includes(tournament.status) ? leave : '',
      h('p', { class: 'row' }, sound, h('label', { for: 'tournament-sound' }, t('sound_when_ready'))));
    return box;
  }
  if (!tournament.joinable) return null;
  const join = h('button', { type: 'button', class: 'button primary', id: 'tournament-join' }, t('join_tournament'));
  join.addEventListener('click', async () => {
    join.disabled = true;
    try {
      await ensureNamedUser();
      await act('join', code ? { code } : {});
    } catch (error) {
      complain(error, 'tournament');
    } finally {
      join.disabled = false;
    }
  });
  // (Node.append would write a null out as text.)
  if (!api.currentUser()) box.append(identity());
  box.append(join);
  return box;
}

/** What an entrant gets, in sentences (as the form that made it said it), until it starts.
 * @param {Api<'Tournament'>} tournament @param {Api<'Catalogue'> | null} catalogue */
function terms(tournament, catalogue) {
  const kind = catalogue?.kinds.find((k) => k.kind === tournament.kind);
  const variant = kind?.variants.find((v) => v.name === tournament.variant);
  return h('section', { class: 'panel terms', 'aria-labelledby': 'terms-title' },
    h('h2', { id: 'terms-title' }, t('tf_preview')),
    h('ul', {}, termsLines(tournament, variant).map((line) => h('li', {}, line))));
}

/** For its maker and admins: change its terms before it starts, call it off until it is over.
 * @param {Api<'Tournament'>} tournament @param {(id: number) => void} redraw */
function management(tournament, redraw) {
  if (!tournament.manageable || !['upcoming', 'running'].includes(tournament.status)) return null;
  const box = h('section', { class: 'panel manage', 'aria-labelledby': 'manage-title' },
    h('h2', { id: 'manage-title' }, t('manage_tournament')));
  const place = h('div');
  /** @param {HTMLFormElement} form */
  const show = (form) => {
    place.replaceChildren(form);
    form.querySelector('input')?.focus();
  };
  if (tournament.status === 'upcoming') {
    const change = h('button', { type: 'button', class: 'button', id: 'tournament-change' }, t('change_terms'));
    change.addEventListener('click', async () => show(await tournamentForm({
      existing: tournament, admin: true, onDone: (summary) => {
        toast(t('terms_changed'));
        redraw(summary.id);
      },
    })));
    box.append(change);
  }
  const cancel = h('button', { type: 'button', class: 'button danger', id: 'tournament-cancel' }, t('call_off'));
  cancel.addEventListener('click', () => show(cancelForm(tournament, (summary) => redraw(summary.id))));
  box.append(cancel, place);
  return box;
}

/**
 * Draws tournament `tournament` into `root`, all of it, for whoever reads it.
 * @param {HTMLElement} root @param {Api<'Tournament'>} tournament @param {string | undefined} code
 * @param {Act} act @param {() => Promise<void>} refetch @param {() => HTMLElement} identity
 * @param {Api<'Catalogue'> | null} catalogue
 */
function page(root, tournament, code, act, refetch, identity, catalogue) {
  const me = /** @type {Partial<Api<'UserInfo'>>} */ (api.currentUser() || {}).name;
  const status = tournament.status;
  const clock = h('p', { class: 'countdown', 'aria-live': 'off' });
  const tick = () => {
    if (!clock.isConnected && clock.dataset.shown) return;
    clock.dataset.shown = '1';
    clock.textContent = status === 'upcoming' ? countdown(tournament.starts_at) || t('starting_now') : '';
    if (status === 'upcoming') setTimeout(tick, 1000);
  };
  tick();
  const next = nextText(tournament, me);
  const yours = tournament.your_table
    ? h('section', { class: 'panel your-table' },
      h('h2', {}, t('your_table')),
      h('p', {}, t('your_table_ready', { n: tournament.your_table.round })),
      h('a', { href: `#/game/${tournament.your_table.game_id}`, class: 'button primary', id: 'your-table' }, t('go_to_table')))
    : null;
  const shareCode = tournament.code || code;
  const share = tournament.private && shareCode && tournament.joinable
    ? h('p', { class: 'note share' }, t('tournament_link'), ' ',
      h('input', { readonly: '', class: 'invite-link', value: `${location.origin}/#/tournament/${tournament.id}/${shareCode}`, 'aria-label': t('tournament_link') }))
    : null;
  const over = status === 'finished';
  root.replaceChildren(h('div', { class: 'tournament', 'data-status': status, 'data-id': String(tournament.id) },
    h('h1', {}, h('bdi', {}, tournament.name)),
    h('p', { class: 'lead' }, gameName(tournament), ' · ', shape(tournament)),
    h('p', { class: 'when' }, h('span', { class: 'tag status' }, t(`tournament_${status}`)),
      tournament.private ? h('span', { class: 'tag' }, t('private')) : null, ' ',
      status === 'upcoming' ? startsText(tournament) : null,
      status === 'running' && tournament.ends_at ? t('ends_at', { time: timeOfDay(tournament.ends_at) }) : null),
    clock,
    status === 'cancelled' ? h('p', { class: 'panel cancelled-reason', role: 'note' }, cancelledText(tournament)) : null,
    over ? h('section', { class: 'panel winner' }, h('h2', {}, t('final_result')), h('p', { class: 'winner-text' }, winnerText(tournament)), podium(tournament)) : null,
    share,
    entry(tournament, code, act, identity),
    yours,
    !over && status !== 'cancelled' && next && !tournament.your_table ? h('p', { class: 'panel next-step', role: 'status' }, next) : null,
    status === 'upcoming' ? terms(tournament, catalogue) : null,
    management(tournament, refetch),
    tournament.teams && tournament.players.some((p) => p.team)
      ? h('section', { class: 'panel teams' }, h('h2', {}, t('teams')), teamsList(tournament, me))
      : null,
    status === 'upcoming'
      ? h('section', { class: 'panel entrants-panel' }, h('h2', {}, t('entrants')), entrantsList(tournament, me))
      : h('section', { class: 'panel' }, h('h2', {}, t(over ? 'final_standings' : 'standings')),
        tournament.standings.length ? standingsTable(tournament, me) : h('p', { class: 'note empty' }, t('no_entrants'))),
    tournament.round_tables.length
      ? h('section', { class: 'panel rounds' }, h('h2', {}, t('pairings')), roundsList(tournament))
      : null,
    h('p', {}, h('a', { href: '#/', class: 'button' }, t('lobby')))));
}

/**
 * Follows tournament `id`'s event stream (SSE over fetch, which can send the token — or none,
 * for a visitor): each `tournament` event calls `redraw`. Ends when `stop` is aborted, or when
 * the token is no longer good (the stream's `stream_end`, or a 401 on opening).
 * @param {number} id @param {string | null | undefined} code @param {AbortController} stop
 * @param {(tournament: Api<'Tournament'>) => void} redraw
 */
function stream(id, code, stop, redraw) {
  const query = code ? `?code=${encodeURIComponent(code)}` : '';
  (async () => {
    while (!stop.signal.aborted) {
      try {
        const token = api.currentToken();
        const response = await fetch(`/api/v1/tournaments/${id}${query}`, {
          headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), Accept: 'text/event-stream' },
          signal: stop.signal,
        });
        // (The token expired or was revoked, which also ends a stream: nothing to follow with.)
        if (response.status === 401) return;
        if (!response.ok || !response.body) throw new Error(`stream: ${response.status}`);
        for await (const block of api.pieces(response, '\n\n')) {
          const lines = block.split('\n');
          const kind = (lines.find((l) => l.startsWith('event:')) || '').slice(6).trim();
          const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          if (!stop.signal.aborted && kind === 'tournament' && data) redraw(/** @type {Api<'Tournament'>} */ (JSON.parse(data)));
          // (Its token is no longer good: asking again would only be refused.)
          if (kind === 'stream_end') return;
        }
      } catch (error) {
        if (api.calledOff(error)) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
}

/** Tournament `id`'s page (`code`: a private one's, from its link), kept current by its stream.
 * @param {HTMLElement} root @param {number} id @param {string} [code] */
export async function showTournament(root, id, code) {
  const shown = location.hash;
  /** @type {Api<'Tournament'> | null} */
  let last = null;
  /** @type {string | null} */
  let lastJson = null;
  /** @type {number | null} */
  let seenTable = null;
  /** @type {HTMLElement | null} */
  let nameBox = null;
  const identity = () => {
    nameBox ??= identityPanel(() => {}, { lead: t('tournament_join_lead') });
    return nameBox;
  };
  const catalogue = await api.knownCatalogue().catch(() => null);
  /** @type {string | null} */
  let lastTerms = null;
  /** @param {Api<'Tournament'>} tournament */
  const redraw = (tournament) => {
    // (An answer that comes after the address changed belongs to no page now.)
    if (location.hash !== shown) return;
    const json = JSON.stringify(tournament);
    if (json === lastJson) return;
    lastJson = json;
    last = tournament;
    // New terms from its organiser are said, not slipped in.
    const termsNow = termsOf(tournament);
    if (lastTerms !== null && termsNow !== lastTerms && tournament.status === 'upcoming' && !tournament.manageable) {
      toast(t('terms_changed_notice'));
    }
    lastTerms = termsNow;
    // A round that seats the reader takes them to their table (the account stream says so
    // too; this holds if its news was missed).
    const table = tournament.your_table?.game_id;
    if (table && seenTable !== null && table !== seenTable) {
      location.hash = `#/game/${table}`;
      return;
    }
    seenTable = table ?? 0;
    const typing = document.activeElement?.id;
    page(root, tournament, code, act, refetch, identity, catalogue);
    // (A redraw keeps the focus where it was: the name being typed, say.)
    if (typing) document.getElementById(typing)?.focus();
  };
  const refetch = async () => redraw(await api.tournament(id, code));
  /** @type {Act} */
  const act = async (path, body) => {
    try {
      redraw(await (path === 'join'
        ? api.call('POST', '/tournaments/{id}/join', { path: { id }, body: body ?? {} })
        : api.call('POST', '/tournaments/{id}/withdraw', { path: { id } })));
      // (A first join may have made the account: its stream follows from now on.)
      follow();
    } catch (error) {
      complain(error, 'tournament');
    }
  };
  const follow = () => {
    leaveTournament();
    following = new AbortController();
    stream(id, code, following, redraw);
  };
  redraw(await api.tournament(id, code));
  follow();
  const unlisten = onLanguageChange(() => {
    if (location.hash !== shown) unlisten();
    else if (last) {
      nameBox = null;
      page(root, last, code, act, refetch, identity, catalogue);
    }
  });
}

/**
 * For a finished table of a tournament: what comes next, in a sentence kept current by the
 * tournament's stream ("round 3 starts when the last 2 tables finish"), and the way back to
 * its page. Stops following once it leaves the page.
 * @param {Api<'GameTournament'>} mark
 */
export function tournamentNextBox(mark) {
  const text = h('p', { class: 'next-step', role: 'status' }, t('tournament_next_loading'));
  // The way to a table that already waits (the page takes one there too).
  const go = h('a', { class: 'button primary', 'data-action': 'next-table', hidden: true }, t('go_to_table'));
  const box = h('section', { class: 'panel tournament-next', 'data-tournament': String(mark.id) },
    h('h2', {}, mark.name ? t('tournament_round', { name: mark.name, n: mark.round }) : t('a_tournament_round', { n: mark.round })),
    text, go,
    h('a', { href: `#/tournament/${mark.id}`, class: 'button', 'data-action': 'to-tournament' }, t('back_to_tournament')));
  const stop = new AbortController();
  const me = /** @type {Partial<Api<'UserInfo'>>} */ (api.currentUser() || {}).name;
  /** @param {Api<'Tournament'>} tournament */
  const draw = (tournament) => {
    if (!box.isConnected && box.dataset.drawn) {
      stop.abort();
      return;
    }
    box.dataset.drawn = '1';
    box.dataset.status = tournament.status;
    text.textContent = nextText(tournament, me) || t('tournament_next_wait');
    const waiting = tournament.your_table;
    go.hidden = !waiting;
    if (waiting) go.setAttribute('href', `#/game/${waiting.game_id}`);
  };
  // The stream's first item is the tournament as it is when the stream opens, and each later
  // one newer: a read sent at the same time only draws if the stream has not yet (its answer
  // can come second and be older: "the last results are being counted" after the end).
  let streamed = false;
  api.tournament(mark.id).then((tournament) => {
    if (!streamed) draw(tournament);
  }, () => {
    if (!streamed) text.textContent = t('tournament_next_wait');
  });
  stream(mark.id, null, stop, (tournament) => {
    streamed = true;
    draw(tournament);
  });
  return box;
}

