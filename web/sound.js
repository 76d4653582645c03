// An optional chime when a tournament table is ready: off unless the reader turns it on, kept
// in localStorage, drawn with the Web Audio API (no sound file to fetch).

const KEY = 'cardroom.sound';

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/** Turns the chime on or off (and plays it once when turned on).
 * @param {boolean} on */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  if (on) chime();
}

/** @type {AudioContext | null} */
let context = null;

/** Two short notes, if the reader turned the sound on (and the browser lets the page play). */
export function chime() {
  if (!soundOn() || typeof AudioContext !== 'function') return;
  try {
    context ??= new AudioContext();
    const start = context.currentTime;
    // (`context` is made just above; the callback does not see a module variable's narrowing.)
    [660, 880].forEach((frequency, i) => {
      const tone = /** @type {AudioContext} */ (context).createOscillator();
      const gain = /** @type {AudioContext} */ (context).createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.2, start + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.18 + 0.16);
      tone.connect(gain).connect(/** @type {AudioContext} */ (context).destination);
      tone.start(start + i * 0.18);
      tone.stop(start + i * 0.18 + 0.17);
    });
  } catch {
    // No sound where the browser allows none.
  }
}
