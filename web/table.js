// The table: loads a game's view, shows it through the game's renderer, sends moves, and
// follows the events endpoint so other players' moves appear one by one as they happen.

import * as api from './api.js';
import { t, tn, num, signedNum, digits, onLanguageChange } from './i18n.js';
import { cardsText } from './cards.js';
import { h, toast, delayFor, setBusy } from './ui.js';
import { narrate, RENDERERS } from './narrate.js';
import { playerLink } from './players.js';
import { ChatPanel } from './chat.js';
import { analysisPanel } from './analysis.js';
import { levelName, timerText, sidesOf, relation } from './names.js';
import { tournamentNextBox } from './tournaments.js';
import { problemText } from './problems.js';

export { levelName, timerText };


const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The longest a long-poll waits (seconds): its answer also says who is at the table. */
const FOLLOW_WAIT = 10;
const clone = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/** Events that are somebody's move, shown with a pause when they are not the viewer's. */
const MOVES = new Set([
  'played', 'knocked', 'drew', 'discarded', 'took_discard', 'turned_over', 'kept', 'passed',
  'melded', 'laid_off', 'called', 'trump_named',
]);

let current = null;

/** The table shown now, if any: its game, status, whether the reader has a seat at it, and the
 * tournament it is a round of. */
export function currentTable() {
  if (!current || !current.view) return null;
  return {
    id: current.id, status: current.view.status, seated: !current.watching(), tournament: current.view.tournament?.id ?? null,
  };
}

/** Leaves the current table (stops its event loop). */
export function closeTable() {
  if (current) current.close();
  current = null;
}

export async function openTable(root, id) {
  closeTable();
  const table = new Table(root, id);
  current = table;
  await table.start();
  return table;
}

class Table {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.view = null;
    this.table = null;
    this.shown = 0;
    this.busy = false;
    this.animating = false;
    this.thinking = null;
    this.log = [];
    this.ui = {};
    this.sides = null;
    this.sheet = null;
    this.alive = true;
    this.quickAnswers = 0;
    this.abort = new AbortController();
    this.chain = Promise.resolve();
    this.chat = new ChatPanel(id);
    this.unlisten = onLanguageChange(() => {
      this.chat.draw();
      this.render();
    });
    // The turn timer's countdown ticks on its own, between renders.
    this.ticker = setInterval(() => this.tick(), 250);
  }

  close() {
    this.alive = false;
    this.abort.abort();
    this.unlisten();
    clearInterval(this.ticker);
  }

  /** Updates the countdown to the deadline, if the table has one. */
  tick() {
    for (const node of this.root.querySelectorAll('.countdown[data-deadline]')) {
      const left = Math.max(0, Math.ceil((Date.parse(node.dataset.deadline) - Date.now()) / 1000));
      const text = left >= 60
        ? digits(`${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`)
        : t('timer_seconds', { n: left });
      node.textContent = t('time_left', { time: text });
      node.classList.toggle('urgent', left <= 10);
    }
  }

  get renderer() {
    return RENDERERS[this.view.kind];
  }

  async start() {
    const view = await api.getGame(this.id);
    this.accept(view);
    for (const entry of view.recent_events || []) this.record(entry);
    await Promise.all([this.loadSheet(), this.chat.load()]);
    this.render();
    this.follow();
  }

  /** Takes an authoritative view from the server. */
  accept(view) {
    const over = (v) => v && (v.status === 'finished' || v.status === 'abandoned');
    // When the game ends, the other room of the chat opens to everyone at the table.
    if (this.view && !over(this.view) && over(view)) this.chat.load();
    this.view = view;
    this.table = clone(view.table);
    this.shown = Math.max(this.shown, view.version);
    this.ui = this.renderer.reset ? this.renderer.reset(this.ui, view) : {};
  }

  async loadSheet() {
    // A table still waiting for its players has no score sheet yet (the server says 409).
    if (this.view.status === 'waiting') return;
    try {
      this.sheet = await api.scoreSheet(this.id);
      this.sides = this.sheet.sides;
    } catch {
      this.sheet = null;
    }
  }

  /** The long-poll loop: waits for news after what has been fetched (moves, chat, who is at
   * the table), then queues it. It asks again at once, while earlier news is still being shown,
   * so that the table is followed without a gap (a gap would read as leaving). A finished game
   * is followed on: its chat, and a rematch. */
  async follow() {
    let failures = 0;
    let fetched = this.shown;
    while (this.alive) {
      if (this.view.status === 'abandoned') return;
      try {
        fetched = Math.max(fetched, this.shown);
        const known = this.knownPresence();
        const asked = Date.now();
        const news = await api.events(this.id, fetched, this.chat.cursor ?? 0, FOLLOW_WAIT, this.abort.signal, known);
        if (!this.alive) return;
        // (An answer at once with nothing new but who is there, twice running, would be a view
        // not yet caught up with the table: give it a moment rather than ask in a tight loop.)
        const quiet = !news.events.some((e) => e.version > fetched) && !(news.chat || []).length;
        if (quiet && Date.now() - asked < 50) {
          if (this.quickAnswers++ > 0) await sleep(200);
        } else {
          this.quickAnswers = 0;
        }
        failures = 0;
        this.chat.add(news.chat);
        this.presence(news.presence);
        // (A move of this page's own may have brought the same news meanwhile.)
        const seen = Math.max(fetched, this.shown);
        const newer = news.events.filter((e) => e.version > seen);
        if (newer.length || news.version > seen) this.enqueue(newer, null, { passive: true });
        fetched = Math.max(seen, news.version);
      } catch (error) {
        if (!this.alive || error.name === 'AbortError') return;
        // No longer one's table to follow (the seat was given up, the table closed to them).
        if (error.status === 403 || error.status === 404) return;
        failures += 1;
        await sleep(Math.min(5000, 500 * failures));
      }
    }
  }

  /** Who this page shows at the table, for the long-poll to answer as soon as that changes. */
  knownPresence() {
    if (!this.view) return null;
    const connected = this.view.seats.filter((s) => s.connected).map((s) => s.seat);
    return { connected, spectators: this.view.spectators || 0 };
  }

  /** Who is at the table now (from a long-poll's answer): the dots and the spectator count. */
  presence(presence) {
    if (!presence || !this.view) return;
    let changed = this.view.spectators !== presence.spectators;
    this.view.spectators = presence.spectators;
    this.view.seats.forEach((seat, index) => {
      if (seat.connected === undefined) return;
      const now = presence.connected.includes(index);
      changed = changed || seat.connected !== now;
      seat.connected = now;
    });
    // Only the dots and the count change: they are drawn again in place, so a card the viewer
    // is about to press is not swapped for a new one under their finger.
    if (changed && !this.drawPresence()) this.render();
  }

  /** Redraws who is here without touching the rest of the table; false if it cannot. */
  drawPresence() {
    const table = this.root.querySelector('.table');
    if (!table) return false;
    for (const [index, seat] of this.view.seats.entries()) {
      if (seat.connected === undefined) continue;
      const dot = table.querySelector(`.seat[data-seat="${index}"] > .seat-name > .presence`);
      if (!dot) return false;
      const word = t(seat.connected ? 'connected' : 'not_connected');
      dot.className = `presence ${seat.connected ? 'on' : 'off'}`;
      dot.setAttribute('aria-label', word);
      dot.setAttribute('title', word);
    }
    const head = table.querySelector('.table-head');
    if (!head) return false;
    const count = this.view.spectators || 0;
    let tag = head.querySelector('.tag.spectators');
    if (!count) {
      tag?.remove();
      return true;
    }
    if (!tag) {
      tag = document.createElement('span');
      tag.className = 'tag spectators';
      head.insertBefore(tag, head.querySelector('.tag.timer') || head.querySelector('.tag.status'));
    }
    tag.dataset.spectators = String(count);
    tag.textContent = tn('n_watching', count);
    return true;
  }

  enqueue(events, view, options = {}) {
    this.chain = this.chain.then(() => this.play(events, view, options)).catch((error) => this.fail(error));
    return this.chain;
  }

  /** Shows `events` one at a time, then settles on `view` (or a fresh one). `passive`: news the
   * table's long-poll brought, which draws nothing when the page already shows it. */
  async play(events, view, { passive = false } = {}) {
    if (!this.alive) return;
    const fresh = events.filter((e) => e.version > this.shown);
    // A table that was waiting has no cards to move yet: its news is told, then drawn whole.
    const still = !this.table;
    // While moves are being shown the table is inert: the view they lead to is not here yet.
    this.animating = true;
    if (fresh.length) setBusy(true);
    let handScored = false;
    let rematch = null;
    for (const entry of fresh) {
      if (entry.event.type === 'rematch_started') rematch = entry.event.game_id;
      const { event } = entry;
      const other = !still && MOVES.has(event.type) && event.seat !== undefined && event.seat !== this.view.your_seat;
      const pause = other ? delayFor() : 0;
      if (pause) {
        this.thinking = event.seat;
        // A renderer may show the move coming before it lands (Basra: what it will take).
        if (this.renderer.stage && this.table) this.renderer.stage(this.table, event, this.view);
        this.render();
        await sleep(pause / 2);
      }
      if (this.renderer.applyEvent && this.table) this.renderer.applyEvent(this.table, event, this.view);
      this.thinking = null;
      this.record(entry);
      if (event.type === 'hand_scored' || event.type === 'game_over') handScored = true;
      this.shown = Math.max(this.shown, entry.version);
      this.render();
      if (pause) await sleep(pause / 2);
    }
    let next;
    try {
      next = view || (await api.getGame(this.id));
      // The table moved on while these were shown: what happened in between is told too (the
      // log, a hand scored, a rematch), though not drawn move by move.
      if (next.version > this.shown) {
        const gap = await api.events(this.id, this.shown, null, 0, this.abort.signal);
        for (const entry of gap.events.filter((e) => e.version <= next.version)) {
          this.record(entry);
          if (entry.event.type === 'hand_scored' || entry.event.type === 'game_over') handScored = true;
          if (entry.event.type === 'rematch_started') rematch = entry.event.game_id;
        }
      }
    } finally {
      this.animating = false;
    }
    if (!this.alive) return;
    // The long-poll bringing news a move's own answer already brought: nothing changed, so
    // nothing is drawn again. A card the player is reaching for, or the cards they picked for a
    // meld, stay as they are.
    const same = this.view && this.table && next.version === this.view.version && next.status === this.view.status;
    if (passive && !fresh.length && same && !rematch) return;
    // A move's own answer that arrives after the long-poll brought a later move: the page keeps
    // the later view rather than step back to the older one.
    if (!(this.view && next.version < this.view.version)) this.accept(next);
    if (handScored || !this.sheet) await this.loadSheet();
    setBusy(false);
    this.render();
    // Everyone at the table is taken to the rematch the moment it starts.
    if (rematch && !this.watching()) location.hash = `#/game/${rematch}`;
  }

  fail(error) {
    setBusy(false);
    this.busy = false;
    toast(problemText(error), 'error');
    this.render();
  }

  /** Keeps an event for the log; it is put into words when drawn, in the language of the
   * moment (switching language retells the whole log). */
  record(entry) {
    if (this.log.some((kept) => kept.version === entry.version && sameEvent(kept.event, entry.event))) return;
    this.log.push({ version: entry.version, event: entry.event, type: entry.event.type });
    if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
  }

  // ---- names -------------------------------------------------------------------------------

  seatName(seat) {
    const info = this.view.seats[seat];
    if (!info) return '?';
    if (seat === this.view.your_seat) return t('you');
    if (info.name) return info.name;
    if (info.bot) return t('computer_n', { n: seat + 1, level: levelName(info.bot) });
    return t('open_seat');
  }

  sideName(side) {
    const seats = this.sides ? this.sides[side] : [side];
    if (!seats) return '?';
    return seats.map((s) => this.seatName(s)).join(' + ');
  }

  sideOf(seat) {
    if (!this.sides) return seat;
    const index = this.sides.findIndex((seats) => seats.includes(seat));
    return index < 0 ? seat : index;
  }

  // ---- events as sentences -----------------------------------------------------------------

  describe(event) {
    // Sentences name people by their names ("Layla plays 7♦"), and the reader as "You".
    return narrate(this.view.kind, event, {
      name: (seat) => {
        const info = this.view.seats[seat];
        return info && info.name ? info.name : this.seatName(seat);
      },
      me: this.view.your_seat,
      outcome: (outcome) => this.outcomeText(outcome),
      table: this,
      tournament: this.view.tournament,
    });
  }

  /** The end of the game in a sentence: who won, and how when it was not by play. */
  outcomeText(outcome) {
    if (!outcome) return '';
    if (outcome.reason === 'move_cap') return t('outcome_move_cap');
    const me = this.view.your_seat;
    const seats = outcome.winners.flatMap((side) => (this.sides ? this.sides[side] || [] : [side]));
    let won;
    if (!outcome.winners.length) won = t('outcome_draw');
    else if (me !== null && me !== undefined && seats.includes(me)) {
      const others = seats.filter((s) => s !== me).map((s) => this.seatName(s));
      won = others.length ? t('outcome_you_won_with', { names: listText(others) }) : t('outcome_you_won');
    } else {
      won = t('outcome_won', { names: listText(seats.map((s) => this.seatName(s))) });
    }
    if (outcome.reason === 'resignation' && outcome.seat !== undefined && outcome.seat !== null) {
      const who = outcome.seat === me ? t('you_resigned') : t('someone_resigned', { who: this.seatName(outcome.seat) });
      return `${who} ${won}`;
    }
    return won;
  }

  // ---- moves -------------------------------------------------------------------------------

  legal() {
    return this.busy || this.animating || this.view.status !== 'active' ? [] : this.view.legal_moves || [];
  }

  async act(mv) {
    if (this.busy) return;
    this.busy = true;
    setBusy(true);
    this.render();
    try {
      const answer = await api.move(this.id, this.view.version, mv);
      this.busy = false;
      this.ui = {};
      await this.enqueue(answer.events, answer.view);
    } catch (error) {
      this.busy = false;
      if (error.code === 'version_conflict' || error.code === 'not_your_turn') {
        await this.enqueue([], null);
      }
      this.fail(error);
    }
  }

  /** Sends an action someone else may have overtaken (dealing, taking the seat back): a 409
   * only means the game moved on, so it shows what is there now. */
  async tableAction(call) {
    if (this.busy) return;
    this.busy = true;
    setBusy(true);
    try {
      const answer = await call();
      this.busy = false;
      await this.enqueue(answer.events || [], answer.view || null);
    } catch (error) {
      this.busy = false;
      if (error.status === 409) await this.enqueue([], null);
      else this.fail(error);
    }
  }

  dealNext() {
    return this.tableAction(() => api.deal(this.id, this.view.version));
  }

  reclaim() {
    return this.tableAction(() => api.reclaim(this.id));
  }

  async download(format) {
    try {
      const text = await api.exportGame(this.id, format);
      const type = format === 'json' ? 'application/json' : 'text/plain';
      const url = URL.createObjectURL(new Blob([text], { type }));
      const link = h('a', { href: url, download: `cardroom-${this.id}.${format === 'json' ? 'json' : 'txt'}` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      this.fail(error);
    }
  }

  /** Offers or accepts a rematch (`accept`), or declines it; goes to the new game once it starts. */
  async rematch(accept) {
    if (this.busy) return;
    this.busy = true;
    try {
      const state = await api.rematch(this.id, accept);
      this.busy = false;
      if (state.game_id) {
        location.hash = `#/game/${state.game_id}`;
        return;
      }
      this.view.rematch = state;
      await this.enqueue([], null);
    } catch (error) {
      this.busy = false;
      this.fail(error);
    }
  }

  async resign() {
    this.busy = true;
    setBusy(true);
    try {
      const answer = await api.resign(this.id);
      this.busy = false;
      this.ui = {};
      // Left a table of several: a computer plays on in the seat; back to the lobby.
      if (answer.view && answer.view.your_seat === null && answer.view.status !== 'finished') {
        this.close();
        setBusy(false);
        toast(t('you_left_table'));
        location.hash = '#/';
        return;
      }
      await this.enqueue(answer.events || [], answer.view || null);
    } catch (error) {
      this.busy = false;
      this.fail(error);
    }
  }

  // ---- drawing -----------------------------------------------------------------------------

  render() {
    if (!this.alive || !this.view) return;
    const view = this.view;
    const focusKey = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.focus
      : null;
    const ctx = {
      view,
      table: this.table,
      legal: this.legal(),
      ui: this.ui,
      me: view.your_seat,
      busy: this.busy,
      act: (mv) => this.act(mv),
      update: (change) => {
        Object.assign(this.ui, change);
        this.render();
      },
      seatName: (s) => this.seatName(s),
      sideName: (s) => this.sideName(s),
      sides: this.sides,
    };
    const r = this.renderer;
    const root = h('div', {
      class: `table kind-${view.kind} seats-${view.seats.length}`,
      'data-status': view.status,
      'data-version': String(this.shown),
    });

    root.append(this.header());
    const felt = h('section', { class: 'felt', 'aria-label': t('the_table') });
    // Until every seat is taken there are no cards: the table shows who is there and who is
    // awaited (the game's own drawing starts with the first deal).
    const dealt = Boolean(this.table);
    const others = h('div', { class: 'others' });
    const n = view.seats.length;
    const me = view.your_seat ?? 0;
    for (let step = 1; step < n; step++) {
      const seat = (me + step) % n;
      const place = n === 4 ? ['left', 'across', 'right'][step - 1] : 'across';
      others.append(this.seatPanel(ctx, seat, place));
    }
    felt.append(others);
    felt.append(h('div', { class: 'center' }, dealt ? r.center(ctx) : this.waitingCenter()));
    const mine = h('div', { class: 'mine' });
    if (this.watching()) {
      // A spectator: the first seat sits at the bottom like any other, hand face down.
      mine.append(this.seatPanel(ctx, me, 'below'));
      mine.append(h('p', { class: 'note watching' }, t('watching_note')));
    } else {
      mine.append(this.seatPanel(ctx, me, 'me'));
      if (dealt) {
        mine.append(h('div', { class: 'hand-area' }, r.hand(ctx)));
        const actions = r.actions ? r.actions(ctx) : null;
        mine.append(h('div', { class: 'actions', role: 'group', 'aria-label': t('actions') }, actions));
      }
    }
    felt.append(mine);
    root.append(felt);
    root.append(this.statusLine(ctx));
    if (view.status === 'finished') {
      // Made once a table: it polls while the analysis is made, and keeps what it loaded.
      this.analysis ??= analysisPanel(this.id, (s) => this.seatName(s), this.view.your_seat);
      root.append(this.analysis);
    }
    root.append(this.sidebar(ctx));
    this.root.replaceChildren(root);
    if (focusKey) {
      const again = this.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  /** Whether the caller watches the table (a public game) rather than sits at it. */
  watching() {
    return this.view.your_seat === null || this.view.your_seat === undefined;
  }

  header() {
    const view = this.view;
    const title = `${t(`kind_${view.kind}`)} · ${t(`variant_${view.kind}_${view.variant}`)}`;
    const bar = h('div', { class: 'table-head' },
      h('h1', {}, title),
      view.tournament
        ? h('a', { href: `#/tournament/${view.tournament.id}`, class: 'tag tournament-link', 'data-tournament': String(view.tournament.id) },
          view.tournament.name
            ? t('tournament_round', { name: view.tournament.name, n: view.tournament.round })
            : t('a_tournament_round', { n: view.tournament.round }))
        : null,
      view.practice ? h('span', { class: 'tag' }, t('practice')) : null,
      this.watching() ? h('span', { class: 'tag watching' }, t('watching')) : null,
      view.spectators > 0
        ? h('span', { class: 'tag spectators', 'data-spectators': String(view.spectators) }, tn('n_watching', view.spectators))
        : null,
      view.turn ? h('span', { class: 'tag timer' }, t('per_move', { time: timerText(view.turn.seconds) })) : null,
      h('span', { class: 'tag status', 'data-status': view.status }, t(`status_${view.status}`)),
      h('a', { href: `#/help/${view.kind}/${view.variant}`, class: 'button ghost' }, t('rules_here')),
      h('a', { href: '#/', class: 'button ghost' }, t('lobby')),
    );
    if (view.invite_code && view.status === 'waiting' && !this.watching()) bar.append(this.invites());
    return bar;
  }

  /** The invite links of a table waiting for players: one for each open seat, named by what it
   * makes the friend to you (your partner, an opponent), so each friend sits where you meant. */
  invites() {
    const view = this.view;
    const sides = sidesOf(view.kind, view.seats.length, view.options || {});
    const open = view.seats.filter((s) => s.open).map((s) => s.seat);
    const links = open.map((seat) => {
      const link = `${location.origin}/#/join/${view.id}/${view.invite_code}/${seat}`;
      const label = t(`invite_seat_${relation(sides, view.your_seat, seat)}`, { n: seat + 1 });
      const input = h('input', { value: link, readonly: '', class: 'invite-link', 'aria-label': label, 'data-seat': String(seat) });
      const copy = h('button', { type: 'button', class: 'button', 'data-copy': String(seat) }, t('copy'));
      copy.addEventListener('click', async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(link);
          toast(t('copied'));
        } catch {
          document.execCommand('copy');
        }
      });
      return h('li', {}, h('span', {}, label), input, copy);
    });
    return h('div', { class: 'invite' }, h('p', {}, t('invite_friend')), h('ul', { class: 'invite-links' }, links));
  }

  seatPanel(ctx, seat, place) {
    const view = this.view;
    const info = view.seats[seat];
    const turn = view.status === 'active' && (this.thinking === seat || (this.thinking === null && view.to_act === seat));
    const panel = h('div', {
      class: `seat place-${place}${turn ? ' turn' : ''}${info && info.open ? ' open' : ''}`,
      'data-seat': String(seat),
    });
    const person = info && info.name && seat !== view.your_seat && !info.open;
    const here = info && info.connected !== undefined
      ? h('span', {
        class: `presence ${info.connected ? 'on' : 'off'}`, role: 'img',
        'aria-label': t(info.connected ? 'connected' : 'not_connected'), title: t(info.connected ? 'connected' : 'not_connected'),
      })
      : null;
    const name = h('div', { class: 'seat-name' },
      turn ? h('span', { class: 'turn-arrow', 'aria-label': t('to_play') }, '▶') : null,
      here,
      person ? playerLink(info.name) : h('span', {}, this.seatName(seat)),
      info && info.bot_account ? h('span', { class: 'tag bot-account', title: t('bot_note') }, t('bot_tag')) : null,
      info && info.away ? h('span', { class: 'tag away', title: t('away_note') }, t('away')) : null,
    );
    panel.append(name);
    if (this.thinking === seat) panel.append(h('div', { class: 'thinking' }, t('thinking')));
    else if (turn && seat !== view.your_seat) panel.append(h('div', { class: 'thinking' }, t('to_play')));
    if (!ctx.table) {
      if (info && info.open) panel.append(h('div', { class: 'seat-info awaited' }, t('seat_awaited')));
      return panel;
    }
    const extra = place === 'me'
      ? this.renderer.mySeat && this.renderer.mySeat(ctx, seat)
      : this.renderer.seat && this.renderer.seat(ctx, seat);
    if (extra) panel.append(extra);
    return panel;
  }

  /** The middle of a table still waiting for players: each seat, and who is still awaited. */
  waitingCenter() {
    const view = this.view;
    const open = view.seats.filter((s) => s.open).length;
    const list = h('ul', { class: 'waiting-seats' }, view.seats.map((info, seat) => h('li', { 'data-seat': String(seat), class: info.open ? 'open' : 'taken' },
      h('span', { class: 'seat-label' }, t('seat_n', { n: seat + 1 })), ' ',
      h('bdi', {}, this.seatName(seat)))));
    return h('div', { class: 'waiting-center' },
      h('p', { class: 'waiting-count' }, t('seats_open_n', { n: open })), list);
  }

  statusLine(ctx) {
    const view = this.view;
    const box = h('div', { class: 'status-line', role: 'status' });
    const mine = view.seats[view.your_seat];
    if (mine && mine.away && (view.status === 'active' || view.status === 'hand_over')) {
      const back = h('button', { type: 'button', class: 'button primary', 'data-action': 'reclaim' }, t('reclaim'));
      back.addEventListener('click', () => this.reclaim());
      box.append(h('div', { class: 'away-banner' }, h('p', {}, t('you_are_away', { level: levelName(mine.bot) })), back));
    }
    if (view.deadline && (view.status === 'active' || view.status === 'hand_over')) {
      box.append(h('span', { class: 'countdown', 'data-deadline': view.deadline, 'aria-live': 'off' }));
      queueMicrotask(() => this.tick());
    }
    if (view.status === 'waiting') {
      box.append(h('p', {}, t('waiting_for_players')));
    } else if (view.status === 'active') {
      const mineToPlay = !this.watching() && view.to_act === view.your_seat;
      const yours = mineToPlay && !this.busy && !this.animating && this.thinking === null;
      const prompt = yours && this.renderer.prompt ? this.renderer.prompt(ctx) : null;
      let text;
      if (yours) text = prompt || t('your_turn');
      else if (mineToPlay && this.busy) text = t('sending_move');
      else if (this.thinking !== null || !mineToPlay) text = t('waiting_for', { who: this.seatName(this.thinking ?? view.to_act) });
      else text = t('showing_moves');
      box.append(h('p', { class: yours ? 'your-turn' : '', 'data-turn': mineToPlay ? 'mine' : 'other' }, text));
    } else if (view.status === 'hand_over' && this.watching()) {
      box.append(this.handSummary());
    } else if (view.status === 'hand_over') {
      box.append(this.handSummary());
      const button = h('button', { type: 'button', class: 'button primary', 'data-action': 'deal', 'data-focus': 'deal' }, t('deal_next'));
      button.addEventListener('click', () => this.dealNext());
      box.append(button);
    } else if (view.status === 'finished' || view.status === 'abandoned') {
      box.append(this.handSummary());
      box.append(h('p', { class: 'outcome', 'data-outcome': 'over' }, this.outcomeText(view.outcome) || t('status_abandoned')));
      if (this.watching()) {
        if (view.rematch && view.rematch.game_id) {
          box.append(h('a', { href: `#/game/${view.rematch.game_id}`, class: 'button primary', 'data-action': 'watch-rematch' }, t('watch_rematch')));
        }
        box.append(h('a', { href: '#/', class: 'button' }, t('lobby')));
        return box;
      }
      if (view.tournament) {
        // A tournament's table leads on to the tournament: what comes next (the next round,
        // its winner), not a rematch or a new game. Made once, it follows the tournament.
        this.nextBox ??= tournamentNextBox(view.tournament);
        box.append(this.nextBox);
      } else {
        if (view.rematch) box.append(this.rematchControls(view.rematch), h('p', { class: 'note rematch-note' }, t('rematch_note')));
        const again = h('button', { type: 'button', class: 'button', 'data-action': 'again' }, t('play_again'));
        again.addEventListener('click', () => {
          location.hash = `#/new/${view.kind}/${view.variant}`;
        });
        box.append(again);
      }
      box.append(h('a', { href: '#/', class: 'button' }, t('lobby')));
      if (view.status === 'finished') {
        for (const format of ['json', 'text']) {
          const button = h('button', { type: 'button', class: 'button ghost', 'data-action': `export-${format}` }, t(`export_${format}`));
          button.addEventListener('click', () => this.download(format));
          box.append(button);
        }
      }
    }
    return box;
  }

  /** A finished game's rematch: offer it, accept or decline it, or go to it. */
  rematchControls(rematch) {
    const box = h('div', { class: 'rematch', 'data-rematch': rematch.game_id ? 'started' : rematch.accepted.length ? 'offered' : 'none' });
    const names = (seats) => seats.map((s) => this.seatName(s)).join(t('list_comma'));
    const button = (key, action, accept, primary) => {
      const node = h('button', { type: 'button', class: `button${primary ? ' primary' : ''}`, 'data-action': action }, t(key));
      node.addEventListener('click', () => this.rematch(accept));
      return node;
    };
    const mine = this.view.your_seat;
    if (rematch.game_id) {
      box.append(h('a', { href: `#/game/${rematch.game_id}`, class: 'button primary', 'data-action': 'go-rematch' }, t('go_rematch')));
    } else if (rematch.accepted.includes(mine)) {
      box.append(h('p', {}, t('rematch_waiting', { names: names(rematch.waiting_for) })),
        button('rematch_withdraw', 'rematch-decline', false, false));
    } else if (rematch.accepted.length) {
      box.append(h('p', {}, t('rematch_wanted', { names: names(rematch.accepted) })),
        button('rematch_accept', 'rematch', true, true), button('rematch_decline', 'rematch-decline', false, false));
    } else {
      if (rematch.declined_by !== null && rematch.declined_by !== undefined) {
        box.append(h('p', { class: 'note' }, t('rematch_declined', { who: this.seatName(rematch.declined_by) })));
      }
      box.append(button('rematch_offer', 'rematch', true, true));
    }
    return box;
  }

  /** The last hand's scoring items, from the score sheet. */
  handSummary() {
    const hands = this.sheet ? this.sheet.hands : [];
    const last = hands[hands.length - 1];
    if (!last) return h('span');
    const box = h('div', { class: 'hand-summary' }, h('h2', {}, t('hand_result', { n: last.hand })));
    const list = h('ul');
    for (const line of last.lines) list.append(h('li', {}, `${this.sideName(line.side)}: ${scoreItemText(line, this)} (${signed(line.points)})`));
    box.append(list);
    return box;
  }

  sidebar(ctx) {
    const side = h('aside', { class: 'sidebar' });
    side.append(this.scores(ctx));
    const sheetButton = h('details', { class: 'sheet' }, h('summary', {}, t('score_sheet')), this.sheetTable());
    side.append(sheetButton);
    // (Scrollable, so reachable from the keyboard.)
    const log = h('ol', { class: 'log', 'aria-label': t('what_happened'), tabindex: '0' });
    const lines = [];
    for (let i = this.log.length - 1; i >= 0 && lines.length < 40; i--) {
      const text = this.describe(this.log[i].event);
      if (text) lines.unshift(h('li', { 'data-type': this.log[i].type }, text));
    }
    log.append(...lines);
    side.append(h('h2', {}, t('what_happened')), log);
    queueMicrotask(() => {
      log.scrollTop = log.scrollHeight;
    });
    side.append(this.chat.node);
    const playing = ['active', 'hand_over', 'waiting'].includes(this.view.status);
    if (playing && !this.watching()) {
      side.append(this.resignControl());
    }
    return side;
  }

  scores(ctx) {
    const box = h('div', { class: 'scores' }, h('h2', {}, t('scores')));
    const totals = this.sheet ? this.sheet.totals : [];
    const list = h('dl');
    (this.sides || []).forEach((seats, side) => {
      list.append(h('dt', {}, this.sideName(side)), h('dd', { 'data-side': String(side), 'data-value': String(totals[side] ?? 0) }, num(totals[side] ?? 0)));
    });
    box.append(list);
    const outcome = this.view.outcome;
    if (outcome && outcome.reason === 'resignation') {
      box.append(h('p', { class: 'note' }, t('ended_by_resignation', { who: this.seatName(outcome.seat) })));
    } else if (this.renderer.scoreNote && this.table) {
      const note = this.renderer.scoreNote(ctx);
      if (note) box.append(h('p', { class: 'note' }, note));
    }
    return box;
  }

  sheetTable() {
    if (!this.sheet || !this.sheet.hands.length) return h('p', {}, t('no_hands_yet'));
    const sides = this.sides || [];
    const table = h('table', { class: 'sheet-table' });
    table.append(h('thead', {}, h('tr', {}, h('th', {}, t('hand')), ...sides.map((_, s) => h('th', {}, this.sideName(s))))));
    const body = h('tbody');
    for (const hand of this.sheet.hands) {
      const cells = sides.map((_, s) => {
        const items = hand.lines.filter((l) => l.side === s).map((l) => `${scoreItemText(l, this)} ${signed(l.points)}`);
        return h('td', {}, h('div', { class: 'items' }, items.join(t('list_semicolon'))), h('strong', {}, num(hand.totals[s])));
      });
      body.append(h('tr', {}, h('th', {}, num(hand.hand)), ...cells));
    }
    table.append(body);
    return table;
  }

  resignControl() {
    const box = h('div', { class: 'resign' });
    if (this.ui.confirmResign) {
      const yes = h('button', { type: 'button', class: 'button danger', 'data-action': 'resign-yes' }, t('resign_yes'));
      const no = h('button', { type: 'button', class: 'button' }, t('resign_no'));
      yes.addEventListener('click', () => this.resign());
      no.addEventListener('click', () => {
        this.ui.confirmResign = false;
        this.render();
      });
      box.append(h('p', {}, t(this.view.status === 'waiting' ? 'leave_really' : 'resign_really')), yes, no);
    } else {
      const waiting = this.view.status === 'waiting';
      const button = h('button', { type: 'button', class: 'button ghost', 'data-action': 'resign' }, t(waiting ? 'leave_table' : 'resign'));
      button.addEventListener('click', () => {
        this.ui.confirmResign = true;
        this.render();
      });
      box.append(button);
    }
    return box;
  }
}

function signed(points) {
  return signedNum(points);
}

export function scoreItemText(line, table) {
  switch (line.item) {
    case 'basra':
      return t('item_basra', { card: cardsText([line.card]) });
    case 'majority':
      return t('item_majority', { n: line.cards });
    case 'card_points':
      return t('item_card_points', { cards: cardsText(line.cards) });
    case 'life_lost':
      return t(`item_life_lost_${line.cause}`);
    case 'cards_left':
      return t('item_cards_left', { who: table.seatName(line.seat), cards: cardsText(line.cards) });
    case 'rummy':
      return t('item_rummy');
    case 'contract':
      return t(line.made ? 'item_contract_made' : 'item_contract_set', {
        who: table.seatName(line.declarer), bid: line.bid, tricks: line.tricks,
      });
    default:
      return line.item;
  }
}

/** "A, B and C" in the page's language. */
function listText(names) {
  if (names.length <= 1) return names.join('');
  return t('list_and', { first: names.slice(0, -1).join(t('list_comma')), last: names[names.length - 1] });
}

function sameEvent(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
