// Debian's Chromium through playwright-core, with the flags this sandboxed, offline machine needs, and the page
// instruments that cut a page's streams as a lost network does. Used by the browser tests, the bench and scripts.
import { chromium } from 'playwright-core';
import type { Browser, LaunchOptions, Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const CHROMIUM_LAUNCH_OPTIONS: LaunchOptions = {
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
  headless: true,
};

/** A headless Chromium with the machine's flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
}

/**
 * An init script that lets a test end the page's open event streams with an error, as a lost network does:
 * Chromium's offline emulation fails new requests but leaves an open EventSource flowing. A string, so that no
 * transform wraps it with helpers the page does not have. Use with `dropStreams`.
 */
export const TRACK_EVENT_SOURCES = `(() => {
  const Native = window.EventSource;
  const open = [];
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      open.push(this);
    }
  };
  window.__dropStreams = () => {
    for (const source of open.splice(0)) {
      if (source.readyState === Native.CLOSED) continue;
      source.close();
      if (source.onerror) source.onerror(new Event('error'));
    }
  };
})();`;

/** Ends the page's open event streams with an error (the page must have TRACK_EVENT_SOURCES). */
export async function dropStreams(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __dropStreams: () => void }).__dropStreams());
}
