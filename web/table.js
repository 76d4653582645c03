// The table's controller: loads a game's view, sends moves and the table's actions, and
// follows the events endpoint so other players' moves appear one by one as they happen. It
// holds the table's state (the view, the moves being shown, the log, the score sheet, the
// screen state) and draws it whole through table_view.js, which reads it and calls back here.

import * as api from './api.js';
import { t, tn, digits, onLanguageChange } from './i18n.js';
import { h, toast, delayFor, setBusy } from './ui.js';
import { RENDERERS } from './narrate.js';
import { ChatPanel } from './chat.js';
import { levelName, timerText } from './names.js';
import { problemText } from './problems.js';
import { tableNode } from './table_view.js';

export { levelName, timerText };

/** @typedef {import('./games/renderer.js').GameKind} GameKind */
/** The game's view, as the API answers it. @typedef {Api<'GameView'>} View */
/** A game's picture of the table (a view's `table` part, once dealt).
 * @typedef {import('./games/renderer.js').TableOf<GameKind>} GameTable */
/** What the table hands the game's drawing (its screen state as the table keeps it).
 * @typedef {import('./games/renderer.js').DrawContext<GameKind, Record<string, unknown>>} Context */
/** An event with the version it brought the game to, as the API lists them.
 * @typedef {View['recent_events'][number]} EventEntry */
/** An event kept for the log. @typedef {{ version: number, event: EventEntry['event'], type: string }} LogEntry */
/** @typedef {import('./api.js').ApiError} ApiError */

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The longest a long-poll waits (seconds): its answer also says who is at the table. */
const FOLLOW_WAIT = 10;
/** @template T @param {T} value @returns {T} */
const clone = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/** Events that are somebody's move, shown with a pause when they are not the viewer's. */
const MOVES = new Set([
  'played', 'knocked', 'drew', 'discarded', 'took_discard', 'turned_over', 'kept', 'passed',
  'melded', 'laid_off', 'called', 'trump_named',
]);

/** @type {Table | null} */
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

/** Shows game `id` in `root`, and follows it until another table (or none) is shown.
 * @param {HTMLElement} root @param {number} id */
export async function openTable(root, id) {
  closeTable();
  const table = new Table(root, id);
  current = table;
  await table.start();
  return table;
}

export class Table {
  /** @param {HTMLElement} root @param {number} id */
  constructor(root, id) {
    this.root = root;
    this.id = id;
    // Null only until start() has the first view: what runs before (a redraw, currentTable, the
    // presence) checks; everything else runs after, and reads it through `game`.
    /** @type {View | null} */
    this.view = null;
    /** @type {GameTable | null} */
    this.table = null;
    this.shown = 0;
    this.busy = false;
    /** A move being sent again, the service having been busy. */
    this.retrying = false;
    this.animating = false;
    /** The seat whose move is being shown. @type {number | null} */
    this.thinking = null;
    /** @type {LogEntry[]} */
    this.log = [];
    /** The screen state: the game's drawing's, and the table's own `confirmResign`.
     * @type {Record<string, unknown>} */
    this.ui = {};
    /** @type {number[][] | null} */
    this.sides = null;
    /** @type {Api<'ScoreResponse'> | null} */
    this.sheet = null;
    // (Made when first drawn: the analysis of a finished game, what follows a tournament's.)
    /** @type {HTMLElement | null} */
    this.analysis = null;
    /** @type {HTMLElement | null} */
    this.nextBox = null;
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
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll('.countdown[data-deadline]'))) {
      // (The selector asks for the deadline.)
      const left = Math.max(0, Math.ceil((Date.parse(/** @type {string} */ (node.dataset.deadline)) - Date.now()) / 1000));
      const text = left >= 60
        ? digits(`${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`)
        : t('timer_seconds', { n: left });
      node.textContent = t('time_left', { time: text });
      node.classList.toggle('urgent', left <= 10);
    }
  }

  /** The view, for everything that runs once start() has it: all but what may run before
   * (a redraw, currentTable, the presence), which reads `view` and checks.
   * @returns {View} */
  get game() {
    return /** @type {View} */ (this.view);
  }

  get renderer() {
    return RENDERERS[this.game.kind];
  }

  async start() {
    const view = await api.getGame(this.id);
    this.accept(view);
    for (const entry of view.recent_events || []) this.record(entry);
    await Promise.all([this.loadSheet(), this.chat.load()]);
    this.render();
    this.follow();
  }

  /** Takes an authoritative view from the server.
   * @param {View} view */
  accept(view) {
    /** @param {View} v */
    const over = (v) => v && (v.status === 'finished' || v.status === 'abandoned');
    // When the game ends, the other room of the chat opens to everyone at the table.
    if (this.view && !over(this.view) && over(view)) this.chat.load();
    this.view = view;
    // (The server always sends `table`, null until the first deal (api/src/model/games.rs),
    // though the document marks it optional.)
    this.table = /** @type {GameTable | null} */ (clone(view.table));
    this.shown = Math.max(this.shown, view.version);
    this.ui = this.renderer.reset ? this.renderer.reset(this.ui, view) : {};
  }

  async loadSheet() {
    // A table still waiting for its players has no score sheet yet (the server says 409).
    if (this.game.status === 'waiting') return;
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
      if (this.game.status === 'abandoned') return;
      try {
        fetched = Math.max(fetched, this.shown);
        // (Followed once the view is there: who is shown is known.)
        const known = /** @type {Api<'PresenceOut'>} */ (this.knownPresence());
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
        if (!this.alive || api.calledOff(error)) return;
        // No longer one's table to follow (the seat was given up, the table closed to them).
        if (api.refusalStatus(error) === 403 || api.refusalStatus(error) === 404) return;
        failures += 1;
        await sleep(Math.min(5000, 500 * failures));
      }
    }
  }

  /** Who this page shows at the table, for the long-poll to answer as soon as that changes.
   * @returns {Api<'PresenceOut'> | null} */
  knownPresence() {
    if (!this.view) return null;
    const connected = this.view.seats.filter((s) => s.connected).map((s) => s.seat);
    return { connected, spectators: this.view.spectators || 0 };
  }

  /** Who is at the table now (from a long-poll's answer): the dots and the spectator count.
   * @param {Api<'PresenceOut'>} presence */
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
    for (const [index, seat] of this.game.seats.entries()) {
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
    const count = this.game.spectators || 0;
    let tag = /** @type {HTMLElement | null} */ (head.querySelector('.tag.spectators'));
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

  /** Shows `events`, then `view`, after what is being shown now (see play).
   * @param {EventEntry[]} events @param {View | null} view
   * @param {{ passive?: boolean, ownMove?: boolean }} [options] */
  enqueue(events, view, options = {}) {
    this.chain = this.chain.then(() => this.play(events, view, options)).catch((error) => this.fail(error));
    return this.chain;
  }

  /** Shows `events` one at a time, then settles on `view` (or a fresh one). `passive`: news the
   * table's long-poll brought, which draws nothing when the page already shows it. `ownMove`:
   * the answer to this page's move, which draws nothing if the long-poll already drew it.
   * @param {EventEntry[]} events @param {View | null} view
   * @param {{ passive?: boolean, ownMove?: boolean }} [options] */
  async play(events, view, { passive = false, ownMove = false } = {}) {
    if (!this.alive) return;
    const fresh = events.filter((e) => e.version > this.shown);
    // A table that was waiting has no cards to move yet: its news is told, then drawn whole.
    const still = !this.table;
    // While moves are being shown the table is inert: the view they lead to is not here yet.
    this.animating = true;
    if (fresh.length) setBusy(true);
    let handScored = false;
    let rematch = null;
    /** @type {View} */
    let next;
    // (Whatever is thrown on the way — a drawing's error, a read that failed — the table is
    // left inert no longer: the error is said, and the player can go on.)
    try {
      for (const entry of fresh) {
        if (entry.event.type === 'rematch_started') rematch = entry.event.game_id;
        // (A move's event names its seat; the others have none to read.)
        const { event } = /** @type {{ event: EventEntry['event'] & { seat?: number } }} */ (entry);
        const other = !still && MOVES.has(event.type) && event.seat !== undefined
          && event.seat !== this.game.your_seat;
        const pause = other ? delayFor() : 0;
        if (pause) {
          this.thinking = /** @type {number} */ (event.seat);
          // A renderer may show the move coming before it lands (Basra: what it will take).
          if (this.renderer.stage && this.table) this.renderer.stage(this.table, event, this.game);
          this.render();
          await sleep(pause / 2);
        }
        if (this.renderer.applyEvent && this.table) this.renderer.applyEvent(this.table, event, this.game);
        this.thinking = null;
        this.record(entry);
        if (event.type === 'hand_scored' || event.type === 'game_over') handScored = true;
        this.shown = Math.max(this.shown, entry.version);
        this.render();
        if (pause) await sleep(pause / 2);
      }
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
      this.thinking = null;
    }
    if (!this.alive) return;
    // The long-poll bringing news a move's own answer already brought: nothing changed, so
    // nothing is drawn again. A card the player is reaching for, or the cards they picked for a
    // meld, stay as they are.
    const same = this.view && this.table && next.version === this.view.version && next.status === this.view.status;
    if (!fresh.length && same && !rematch && !handScored) {
      if (passive) return;
      // A move's own answer that the long-poll overtook: if the page already drew this view as
      // it stands now (not sending, the same choices), the card under the player's finger is
      // not swapped for an identical new one.
      if (ownMove && this.drawnAsIs()) {
        setBusy(false);
        return;
      }
    }
    // A move's own answer that arrives after the long-poll brought a later move: the page keeps
    // the later view rather than step back to the older one.
    if (!(this.view && next.version < this.view.version)) this.accept(next);
    if (handScored || !this.sheet) await this.loadSheet();
    setBusy(false);
    this.render();
    // Everyone at the table is taken to the rematch the moment it starts.
    if (rematch && !this.watching()) location.hash = `#/game/${rematch}`;
  }

  /** @param {unknown} error */
  fail(error) {
    setBusy(false);
    this.busy = false;
    toast(problemText(error), 'error');
    this.render();
  }

  /** Keeps an event for the log; it is put into words when drawn, in the language of the
   * moment (switching language retells the whole log).
   * @param {EventEntry} entry */
  record(entry) {
    if (this.log.some((kept) => kept.version === entry.version && sameEvent(kept.event, entry.event))) return;
    this.log.push({ version: entry.version, event: entry.event, type: entry.event.type });
    if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
  }

  // ---- names -------------------------------------------------------------------------------

  /** @param {number} seat */
  seatName(seat) {
    const info = this.game.seats[seat];
    if (!info) return '?';
    if (seat === this.game.your_seat) return t('you');
    if (info.name) return info.name;
    if (info.bot) return t('computer_n', { n: seat + 1, level: levelName(info.bot) });
    return t('open_seat');
  }

  /** @param {number} side */
  sideName(side) {
    const seats = this.sides ? this.sides[side] : [side];
    if (!seats) return '?';
    return seats.map((s) => this.seatName(s)).join(' + ');
  }

  /** @param {number} seat */
  sideOf(seat) {
    if (!this.sides) return seat;
    const index = this.sides.findIndex((seats) => seats.includes(seat));
    return index < 0 ? seat : index;
  }

  // ---- moves -------------------------------------------------------------------------------

  legal() {
    return this.busy || this.animating || this.game.status !== 'active' ? []
      : this.game.legal_moves || [];
  }

  /** @param {Api<'AnyMove'>} mv */
  async act(mv) {
    if (this.busy) return;
    this.busy = true;
    setBusy(true);
    this.render();
    try {
      // (A busy service's answer is waited out and the move sent again: the status says so.)
      const answer = await api.move(this.id, this.game.version, this.game.kind, mv, () => {
        if (this.retrying) return;
        this.retrying = true;
        this.render();
      }, this.abort.signal);
      this.retrying = false;
      this.busy = false;
      this.ui = {};
      await this.enqueue(answer.events, answer.view, { ownMove: true });
    } catch (error) {
      this.retrying = false;
      this.busy = false;
      // (A table left while its move was being tried again says nothing on the next page.)
      if (!this.alive || api.calledOff(error)) return;
      if (api.refusalCode(error) === 'version_conflict' || api.refusalCode(error) === 'not_your_turn') {
        await this.enqueue([], null);
      }
      this.fail(error);
    }
  }

  /** Sends an action someone else may have overtaken (dealing, taking the seat back): a 409
   * only means the game moved on, so it shows what is there now.
   * @param {() => Promise<Api<'ActionResponse'>>} call */
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
      if (api.refusalStatus(error) === 409) await this.enqueue([], null);
      else this.fail(error);
    }
  }

  dealNext() {
    return this.tableAction(() => api.deal(this.id, this.game.version));
  }

  reclaim() {
    return this.tableAction(() => api.reclaim(this.id));
  }

  /** @param {'json' | 'text'} format */
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

  /** Offers or accepts a rematch (`accept`), or declines it; goes to the new game once it starts.
   * @param {boolean} accept */
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
      this.game.rematch = state;
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

  /** True when the last drawing shows the table as it stands: the same view, the same
   * sending state, the same choices being made, the score sheet loaded. */
  drawnAsIs() {
    const drawn = this.drawn;
    return Boolean(drawn && this.sheet && drawn.version === this.game.version
      && drawn.status === this.game.status
      && drawn.shown === this.shown && drawn.busy === this.busy && drawn.retrying === this.retrying
      && drawn.ui === this.ui);
  }

  render() {
    if (!this.alive || !this.view) return;
    const view = this.view;
    this.drawn = { version: view.version, status: view.status, shown: this.shown, busy: this.busy, retrying: this.retrying, ui: this.ui };
    const focusKey = document.activeElement && /** @type {HTMLElement} */ (document.activeElement).dataset
      ? /** @type {HTMLElement} */ (document.activeElement).dataset.focus
      : null;
    /** @type {Context} */
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
    this.root.replaceChildren(tableNode(this, ctx));
    if (focusKey) {
      const again = /** @type {(HTMLElement & { disabled?: boolean }) | null} */ (
        this.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`));
      if (again && !again.disabled) again.focus();
    }
  }

  /** Whether the caller watches the table (a public game) rather than sits at it. */
  watching() {
    return this.game.your_seat === null || this.game.your_seat === undefined;
  }
}

/** @param {unknown} a @param {unknown} b */
function sameEvent(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
