// Debian's Chromium through playwright-core, with the flags this sandboxed, offline machine needs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, LaunchOptions, Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const launchOptions: LaunchOptions = { executablePath: CHROMIUM_PATH, args: ARGS, headless: true };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions);
}

export interface PersistentBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A browser with a real (temporary) profile: Chromium counts incognito-like contexts as not installable. */
export async function launchPersistent(): Promise<PersistentBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'qupm-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...launchOptions,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects uncaught page errors and console errors, so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** Resolves once a service worker is active and controls the page; says how far it got when it does not. */
export async function waitForServiceWorkerControl(page: Page, timeoutMs = 30_000): Promise<void> {
  const outcome = await page.evaluate(async (ms) => {
    const state = { ready: false, controlled: false };
    const controlled = (async () => {
      await navigator.serviceWorker.ready;
      state.ready = true;
      if (!navigator.serviceWorker.controller) {
        await new Promise<void>((resolve) =>
          navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
        );
      }
      state.controlled = true;
    })();
    await Promise.race([controlled, new Promise((resolve) => setTimeout(resolve, ms))]);
    return state;
  }, timeoutMs);
  if (!outcome.controlled) {
    throw new Error(
      outcome.ready
        ? 'The service worker is active but never took control of the page'
        : 'No service worker became active for the page',
    );
  }
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
