// The table's chat panel: the room the viewer reads (players' or spectators'; both once the
// game is over), a box to type in (Enter sends), the preset phrases in the page's language,
// and a way to mute someone for oneself. The panel is one element kept across the table's
// redraws, so typing is never lost when a move arrives; messages are always drawn as text.

import * as api from './api.js';
import { t, language, clock } from './i18n.js';
import { problemText } from './problems.js';
import { h, toast } from './ui.js';

/** @type {Api<'Preset'>[] | null} */
let presetCache = null;
/** The pace the server allows: `burst` messages a person in any `seconds`. */
let pace = { burst: 5, seconds: 10 };
/** When this page sent its recent messages (the server counts a person's, at every table).
 * @type {number[]} */
const sentAt = [];

async function presets() {
  if (!presetCache) {
    try {
      const answer = await api.chatPresets();
      presetCache = answer.presets;
      if (answer.burst > 0 && answer.burst_seconds > 0) pace = { burst: answer.burst, seconds: answer.burst_seconds };
    } catch {
      presetCache = [];
    }
  }
  return presetCache;
}

/** Milliseconds until one more message may be sent (0: now), by this page's own count. */
function waitBeforeSending(now = Date.now()) {
  const recent = sentAt.filter((at) => now - at < pace.seconds * 1000);
  sentAt.splice(0, sentAt.length, ...recent);
  if (recent.length < pace.burst) return 0;
  return recent[recent.length - pace.burst] + pace.seconds * 1000 - now;
}

/** A preset's text in the page's language (its English text if the list is not loaded).
 * @param {string} key @param {string | null} [fallback] */
function presetText(key, fallback) {
  const found = (presetCache || []).find((p) => p.key === key);
  if (!found) return fallback || key;
  return language() === 'ar' ? found.ar : found.en;
}

export class ChatPanel {
  /** @param {number} gameId */
  constructor(gameId) {
    this.id = gameId;
    /** @type {Api<'ChatMessage'>[]} */
    this.messages = [];
    /** @type {number | null} */
    this.cursor = null;
    /** @type {Api<'Room'>} */
    this.room = 'players';
    /** @type {Api<'Room'>[]} */
    this.rooms = ['players'];
    /** @type {Set<string>} */
    this.muted = new Set();
    this.sending = false;
    // Whether the reader may write here (a stranger only reads), and until when an admin has
    // muted them.
    this.writes = true;
    /** @type {string | null} */
    this.mutedUntil = null;
    this.node = h('section', { class: 'chat', 'aria-labelledby': `chat-title-${gameId}` });
    this.title = h('h2', { id: `chat-title-${gameId}` });
    this.list = h('ol', { class: 'chat-messages', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0', 'aria-labelledby': `chat-title-${gameId}` });
    this.input = h('input', {
      id: 'chat-input', type: 'text', maxlength: '280', autocomplete: 'off', 'data-focus': 'chat-input',
    });
    this.label = h('label', { for: 'chat-input', class: 'visually-hidden' });
    this.send = h('button', { type: 'submit', class: 'button', 'data-action': 'chat-send' });
    this.presets = h('div', { class: 'chat-presets', role: 'group' });
    this.mutedBox = h('div', { class: 'chat-muted' });
    this.paceNote = h('p', { class: 'note chat-pace', role: 'status', hidden: true });
    this.mutedNote = h('p', { class: 'note chat-muted-note', role: 'status', hidden: true });
    // A visitor (no account) reads; a name typed here makes them a guest who may write.
    this.visitorName = h('input', { id: 'chat-name', maxlength: '32', autocomplete: 'nickname', placeholder: t('your_name_placeholder') });
    this.visitorButton = h('button', { type: 'submit', class: 'button', 'data-action': 'chat-as' });
    this.visitorLabel = h('label', { for: 'chat-name' });
    this.visitorForm = h('form', { class: 'chat-visitor row' }, this.visitorLabel, this.visitorName, this.visitorButton);
    this.visitorForm.addEventListener('submit', (event) => {
      event.preventDefault();
      this.becomeGuest();
    });
    this.readOnlyNote = h('div', { class: 'note chat-read-only', hidden: true });
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.paceTimer = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.mutedTimer = null;
    const form = h('form', { class: 'chat-form' }, this.label, this.input, this.send);
    this.form = form;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text) this.say({ text });
    });
    this.node.append(this.title, this.list, this.readOnlyNote, this.mutedNote, form, this.paceNote, this.presets, this.mutedBox);
    this.draw();
  }

  /** Loads the chat so far (again: when the game ends, the other room opens up). */
  async load() {
    await presets();
    try {
      const page = await api.chat(this.id);
      this.messages = page.messages.filter((m) => m.type === 'chat');
      this.cursor = page.cursor;
      this.room = page.room;
      this.rooms = page.rooms;
      this.writes = page.writes !== false;
      this.mutedUntil = page.muted_until || null;
      // (A stranger has muted no one, and has no list to read.)
      if (api.currentUser()) {
        const mine = await api.mutes();
        this.muted = new Set(mine.names);
      }
    } catch {
      // A table the viewer cannot read (yet): the panel stays empty.
    }
    this.draw();
  }

  /** Takes new chat from the events: messages to add, notes of hidden ones to take down.
   * @param {Api<'ChatMessage'>[] | null | undefined} chat */
  add(chat) {
    let changed = false;
    for (const message of chat || []) {
      if (message.type === 'chat_hidden') {
        const before = this.messages.length;
        this.messages = this.messages.filter((m) => m.id !== message.id);
        changed = changed || before !== this.messages.length;
      } else if (!this.messages.some((m) => m.id === message.id)) {
        this.messages.push(message);
        changed = true;
      }
      this.cursor = Math.max(this.cursor || 0, message.cursor);
    }
    if (this.messages.length > 200) this.messages.splice(0, this.messages.length - 200);
    if (changed) this.drawMessages();
  }

  /** @param {Api<'ChatRequest'>} body */
  async say(body) {
    if (this.sending) return;
    // Faster than the server allows: hold back (and say until when) rather than be refused.
    const wait = waitBeforeSending();
    if (wait > 0) {
      this.holdBack(wait);
      return;
    }
    this.sending = true;
    try {
      sentAt.push(Date.now());
      const message = await api.say(this.id, body);
      if (/** @type {Partial<Api<'ChatText'>>} */ (body).text !== undefined) this.input.value = '';
      this.add([message]);
    } catch (error) {
      // Refused: what was typed stays in the box, and the reason is said where it was typed
      // (the wait the server's Retry-After names, the end of a mute from the problem).
      const code = error instanceof api.ApiError ? error.code : null;
      if (code === 'rate_limited') {
        this.holdBack(1000 * ((error instanceof api.ApiError && error.retryAfter) || pace.seconds));
      } else if (code === 'muted') {
        const until = error instanceof api.ApiError ? error.problem.muted_until : null;
        this.mutedUntil = (typeof until === 'string' && until) || new Date(Date.now() + 60000).toISOString();
        this.draw();
      } else toast(problemText(error), 'error');
    } finally {
      this.sending = false;
    }
  }

  /** Says that the next message must wait `ms`, and offers sending again once it may.
   * @param {number} ms */
  holdBack(ms) {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    this.paceNote.textContent = t('chat_slow_down', { n: seconds });
    this.paceNote.hidden = false;
    this.send.disabled = true;
    // (clearTimeout takes null too: no timer to clear.)
    clearTimeout(/** @type {ReturnType<typeof setTimeout> | undefined} */ (this.paceTimer));
    this.paceTimer = setTimeout(() => {
      this.paceNote.hidden = true;
      this.send.disabled = false;
    }, seconds * 1000);
  }

  /** @param {string} name */
  async mute(name) {
    try {
      const list = await api.mute(name);
      this.muted = new Set(list.names);
      this.messages = this.messages.filter((m) => m.name !== name);
      toast(t('chat_muted', { name }));
      this.draw();
    } catch (error) {
      toast(problemText(error), 'error');
    }
  }

  /** @param {string} name */
  async unmute(name) {
    try {
      const list = await api.unmute(name);
      this.muted = new Set(list.names);
      await this.load();
    } catch (error) {
      toast(problemText(error), 'error');
    }
  }

  /** Redraws everything but the text being typed (the language may have changed). */
  draw() {
    const title = this.rooms.length > 1 ? 'chat_everyone' : this.room === 'players' ? 'chat_players' : 'chat_spectators';
    this.title.textContent = t(title);
    this.label.textContent = t('chat_say');
    this.input.placeholder = t('chat_placeholder');
    this.send.textContent = t('chat_send');
    this.presets.setAttribute('aria-label', t('chat_presets'));
    this.presets.replaceChildren(...(presetCache || []).map((preset) => {
      const button = h('button', { type: 'button', class: 'chip', 'data-preset': preset.key }, presetText(preset.key));
      button.addEventListener('click', () => this.say({ preset: preset.key }));
      return button;
    }));
    this.mutedBox.replaceChildren(...[...this.muted].sort().map((name) => {
      const button = h('button', { type: 'button', class: 'link', 'data-unmute': name }, t('chat_unmute', { name }));
      button.addEventListener('click', () => this.unmute(name));
      return button;
    }));
    this.drawWriting();
    this.drawMessages();
  }

  /** A visitor takes the name typed (a guest account) and may then write. */
  async becomeGuest() {
    const name = this.visitorName.value.trim();
    if (!name) {
      this.visitorName.focus();
      toast(t('name_needed'), 'error');
      return;
    }
    try {
      await api.ensureUser(name);
      await this.load();
    } catch (error) {
      toast(problemText(error), 'error');
    }
  }

  /** Whether the box may be written in: not by a stranger (who is told how to join in), not
   * while an admin's mute lasts (which is said, with until when in the reader's own clock). */
  drawWriting() {
    const until = this.mutedUntil ? Date.parse(this.mutedUntil) : 0;
    const muted = until > Date.now();
    this.form.hidden = !this.writes;
    this.presets.hidden = !this.writes;
    this.readOnlyNote.hidden = this.writes;
    this.visitorLabel.textContent = t('chat_visitor_name');
    this.visitorButton.textContent = t('chat_as_name');
    this.readOnlyNote.replaceChildren(h('p', {}, t('chat_read_only')), api.currentUser() ? '' : this.visitorForm);
    this.mutedNote.hidden = !muted;
    this.mutedNote.textContent = muted ? t('chat_muted_until', { time: clock(this.mutedUntil) }) : '';
    this.input.disabled = muted;
    this.send.disabled = muted;
    for (const chip of this.presets.querySelectorAll('button')) chip.disabled = muted;
    clearTimeout(/** @type {ReturnType<typeof setTimeout> | undefined} */ (this.mutedTimer));
    // The box opens again by itself when the mute ends.
    if (muted) this.mutedTimer = setTimeout(() => this.drawWriting(), Math.min(until - Date.now() + 500, 2 ** 31 - 1));
  }

  drawMessages() {
    const me = (api.currentUser() || {}).name;
    const both = this.rooms.length > 1;
    const items = this.messages.map((message) => {
      const text = message.preset ? presetText(message.preset, message.text) : message.text;
      const item = h('li', { class: `chat-message room-${message.room}`, 'data-message': String(message.id) },
        both ? h('span', { class: 'chat-room' }, t(message.room === 'players' ? 'chat_room_players' : 'chat_room_spectators')) : null,
        h('bdi', { class: 'chat-name' }, message.name), ': ',
        h('bdi', { class: 'chat-text', dir: 'auto' }, text));
      // (A visitor has no one to mute: only people with an account mute others.)
      if (me && message.name && message.name !== me) {
        const mute = h('button', {
          type: 'button', class: 'link chat-mute', 'data-mute': message.name,
          title: t('chat_mute', { name: message.name }), 'aria-label': t('chat_mute', { name: message.name }),
        }, t('chat_mute_short'));
        // (Checked above: the message has a name.)
        mute.addEventListener('click', () => this.mute(/** @type {string} */ (message.name)));
        item.append(' ', mute);
      }
      return item;
    });
    if (!items.length) items.push(h('li', { class: 'note chat-empty' }, t('chat_empty')));
    this.list.replaceChildren(...items);
    queueMicrotask(() => {
      this.list.scrollTop = this.list.scrollHeight;
    });
  }
}
