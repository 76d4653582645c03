// The browser every browser test and benchmark drives: Chromium's headless shell (Debian's
// chromium-headless-shell), the browser without its windowing parts and what Playwright itself
// runs headless — a third less CPU a page than the whole browser in its headless mode
// (scripts/browser-test installs it). CHROMIUM names another build; without the shell,
// Debian's chromium.

import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];

const EXECUTABLE = process.env.CHROMIUM
  || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file));

/** A headless browser. */
export async function launch() {
  return chromium.launch({ executablePath: EXECUTABLE, args: FLAGS, headless: true });
}
