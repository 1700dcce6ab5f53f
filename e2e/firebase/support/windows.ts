// The Firebase browser tests' windows: one Chromium per test file, windows whose waits are a step's bound, the page
// errors they saw, the Hosting emulator's addresses, and screenshots a person reviews.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../drivers/chromium';
import { watchErrors } from '../../support/browser';
import { emulators } from './emulators';

// The Functions emulator starts a worker for each function the first time it is called (seconds each, many more
// on a loaded machine), and a step of a loop may be the first to call several.
export const STEP_TIMEOUT_MS = 60_000;
export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };

/** `path` on the app as the Hosting emulator serves it. */
export const url = (path: string): string => emulators().hostingUrl + path;

const SHOTS = process.env.QUPM_SHOTS_DIR;

/** A look at the screen, kept when QUPM_SHOTS_DIR names a folder (a person reviews them; nothing compares). */
export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, ...options });
}

export interface FirebaseWindows {
  /** A new window (a context of its own, no service worker) at `viewport`, in `timezoneId` when given. */
  open(viewport: { width: number; height: number }, timezoneId?: string): Promise<Page>;
  /** The page errors and console errors of every window opened. */
  errors: string[];
}

/** Launches Chromium before the file's tests and closes it after them; call at the top of a test file. */
export function firebaseWindows(): FirebaseWindows {
  let browser: Browser | undefined;
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    errors,
    async open(viewport, timezoneId) {
      if (!browser) throw new Error('Chromium is not started yet: open windows inside a test');
      // No service worker, as in e2e/support/session.ts: its install precaches the build (about 1.2 CPU-s a
      // window) and no test here is about it; lastKnown.emulators.test.ts opens its own windows, with it.
      const context = await browser.newContext({
        viewport,
        serviceWorkers: 'block',
        ...(timezoneId ? { timezoneId } : {}),
      });
      context.setDefaultTimeout(STEP_TIMEOUT_MS);
      const page = await context.newPage();
      errors.push(...watchErrors(page));
      return page;
    },
  };
}
