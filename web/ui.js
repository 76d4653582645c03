// Small DOM helpers every view shares: h() builds elements, toast() says something briefly,
// setBusy() marks the page busy or idle, delayFor() is the chosen pace of other players' moves.

/** What h() takes as a child: a node, a text, nothing (left out), or a list of these.
 * @typedef {Node | string | number | null | undefined | false | unknown[]} Child */

/**
 * h('div', {class: 'x'}, child, 'text', [more]) → an element. Attributes set as attributes
 * (`true` as present and empty; null, undefined and false left out).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | null | undefined> | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
/** Says `message` briefly (`kind` `error` for longer) in the page's toast.
 * @param {string} message @param {'info' | 'error'} [kind] */
export function toast(message, kind = 'info') {
  const box = document.getElementById('toast');
  if (!box) return;
  box.textContent = message;
  box.dataset.kind = kind;
  box.classList.add('shown');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove('shown'), kind === 'error' ? 6000 : 3000);
}

/** `data-state` on <body>: `busy` while a move is in flight or being shown, else `idle`. */
/** @param {boolean} busy */
export function setBusy(busy) {
  document.body.dataset.state = busy ? 'busy' : 'idle';
}

/** @type {Record<string, number>} */
export const SPEEDS = { slow: 2000, normal: 900, fast: 300, instant: 0 };
export const SPEED_KEY = 'cardroom.speed';

/** How long another player's move stays on its own before the next one. */
export function delayFor() {
  return SPEEDS[localStorage.getItem(SPEED_KEY) ?? 'normal'] ?? 900;
}


/**
 * A notice that cannot be missed: a banner at the top of every page (announced at once), with
 * an action (a link) and a way to put it away; it stays until then, or until `clearNotice`
 * with its `key`.
 * @param {{ key: string, text: string, action?: { href: string, label: string } | null, dismiss: string }} notice
 */
export function notice({ key, text, action, dismiss }) {
  let box = document.getElementById('notice');
  if (!box) {
    box = h('div', { id: 'notice', class: 'notice', role: 'alert' });
    document.body.prepend(box);
  }
  const close = h('button', { type: 'button', class: 'button ghost', 'data-action': 'dismiss-notice' }, dismiss);
  close.addEventListener('click', () => clearNotice(key));
  const go = action ? h('a', { href: action.href, class: 'button primary', 'data-action': 'notice-go' }, action.label) : null;
  go?.addEventListener('click', () => clearNotice(key));
  box.dataset.key = key;
  box.replaceChildren(h('p', {}, text), go || '', close);
  box.hidden = false;
}

/** Puts the notice `key` away (any notice, with none).
 * @param {string} [key] */
export function clearNotice(key) {
  const box = document.getElementById('notice');
  if (box && (!key || box.dataset.key === key)) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.key;
  }
}
