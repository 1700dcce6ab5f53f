// The browser tests' helpers around drivers/chromium.ts: a persistent profile, error watching, service-worker control.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { CHROMIUM_LAUNCH_OPTIONS } from '../../drivers/chromium';

export interface PersistentBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A browser with a real (temporary) profile: Chromium counts incognito-like contexts as not installable. */
export async function launchPersistent(): Promise<PersistentBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'qupm-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...CHROMIUM_LAUNCH_OPTIONS,
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

/**
 * The page's layout shifts since its navigation, summed (the browser buffers them), plus any in the next 300 ms.
 */
export function layoutShiftTotal(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>)
            total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
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
 * The app's top bar, reached as a person reaches it: on a phone an open conversation has the whole screen, so its
 * back arrow first.
 */
export async function mainNav(page: Page): Promise<Locator> {
  const back = page.getByRole('link', { name: 'Back to channels' });
  if (await back.isVisible()) await back.click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.waitFor();
  return nav;
}
