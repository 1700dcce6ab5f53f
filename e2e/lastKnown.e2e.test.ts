// The last known state on the device (the offline bars): a signed-in person who opens QuPM without a network
// sees their real name, balances, channels and recent messages, marked "Offline · as of"; a warm start draws them
// before the backend has answered anything; signing out leaves nothing of them on the device. Offline /services
// shows the member's upcoming session and offers as kept (QUPM_SHOTS=<dir> saves screenshots of it).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import type { RunningServer } from './support/server';
import { waitForServiceWorkerControl } from './support/browser';
import { signIn, submitSignIn, withBrowserSession } from './support/session';
import { readLastKnown, waitForKept } from '../drivers/lastKnownDevice';

let server: RunningServer;
// Every case reloads offline, which only the service worker can answer.
const windows = withBrowserSession(
  (started) => ({ server } = started),
  () => ({}),
  { serviceWorkers: 'allow' },
);

const LAST_MESSAGE = 'I have added a 20% discount on your next session to Services.';

const SHOTS = process.env.QUPM_SHOTS;

/** Screenshots of the page at a phone's size and a laptop's. */
async function shootSizes(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['laptop', { width: 1366, height: 768 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(SHOTS, `${size}-${name}.png`), fullPage: true });
  }
}

/** Waits until the page has kept the upcoming bookings and the received offers (read live on /services). */
async function waitForKeptPractice(page: Page): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const [account] = (await readLastKnown(page)).accounts as {
      bookings?: { upcoming: unknown[] } | null;
      receivedOffers?: unknown[] | null;
    }[];
    if ((account?.bookings?.upcoming.length ?? 0) > 0 && (account?.receivedOffers?.length ?? 0) > 0) return;
    await page.waitForTimeout(100);
  }
  throw new Error('The page never kept the upcoming bookings and the received offers');
}

/** The browser offline; after a reload the tests toggle it once more, for navigator.onLine (e2e/pwa.e2e.test.ts). */
async function goOffline(page: Page): Promise<void> {
  await page.context().setOffline(true);
}

describe('the last known state', () => {
  it('shows the member their name, channel and real credits after an offline reload', async () => {
    const { page, context } = await windows.openWindow();
    await page.goto(server.url + '/');
    await submitSignIn(page, 'member@qupm.demo');
    await page.getByRole('heading', { level: 1, name: 'Hello, Morgan' }).waitFor();
    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    await waitForServiceWorkerControl(page);
    await waitForKept(page, 0);

    // The toggle lets requests out for a moment: the backend refuses them too.
    await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await goOffline(page);
    await page.reload();
    // Toggled once the app runs (its scripts come after the first paint, after the page's load event).
    await page.getByRole('heading', { level: 1, name: 'Hello, Morgan' }).waitFor();
    await context.setOffline(false);
    await context.setOffline(true);

    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    const balance = page.getByRole('definition');
    expect(await balance.allTextContents()).toEqual(['3', '1']);
    await page.getByText(/^Offline · as of \d\d:\d\d$/).waitFor();
    expect(await page.getByText(/not joined a channel/).count()).toBe(0);
  });

  it('draws the channel list and the last conversation before any answer of the backend', async () => {
    const { page } = await windows.openWindow();
    await signIn(page, server.url + '/', 'member@qupm.demo');
    await page.getByRole('link', { name: /Strategy Studio/ }).click();
    await page.getByTestId('virtuoso-item-list').getByText(LAST_MESSAGE).waitFor();
    await waitForKept(page, 1);

    // Every request to the backend waits until the test lets it go.
    const held: Route[] = [];
    await page.route('**/api/**', (route) => void held.push(route));
    await page.reload();
    // The channel is open: its name is the page's h1, the greeting a line of the list.
    await page.locator('#home-title', { hasText: 'Hello, Morgan' }).waitFor();
    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    await page.getByTestId('virtuoso-item-list').getByText(LAST_MESSAGE).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(['3', '1']);
    await page.getByText(/^Updating · as of \d\d:\d\d$/).waitFor();
    // Drawn from the device alone: the backend was asked, and has answered nothing.
    expect(held.length).toBeGreaterThan(0);

    // Let go, the live data replaces it: the account's figures are live again.
    await page.unroute('**/api/**');
    for (const route of held.splice(0)) await route.continue().catch(() => undefined);
    await page.getByText(/as of \d\d:\d\d/).waitFor({ state: 'detached' });
    await page.getByTestId('virtuoso-item-list').getByText(LAST_MESSAGE).waitFor();
  });

  it('draws them before any answer also when the access token has expired, its refresh held back', async () => {
    const { page } = await windows.openWindow();
    await signIn(page, server.url + '/', 'member@qupm.demo');
    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    await waitForKept(page, 0);
    // A start after the access token's lifetime: the session must be refreshed before any other request.
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('qupm_session') ?? '{}') as { expiresAt: number };
      localStorage.setItem('qupm_session', JSON.stringify({ ...session, expiresAt: Date.now() - 60_000 }));
    });

    const held: Route[] = [];
    await page.route('**/api/**', (route) => void held.push(route));
    await page.reload();
    await page.locator('#home-title', { hasText: 'Hello, Morgan' }).waitFor();
    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(['3', '1']);
    expect(held.map((route) => new URL(route.request().url()).pathname)).toContain('/api/auth/refresh');

    // Let go: the refreshed session is kept, and live data replaces what was drawn.
    await page.unroute('**/api/**');
    for (const route of held.splice(0)) await route.continue().catch(() => undefined);
    await page.getByText(/as of \d\d:\d\d/).waitFor({ state: 'detached' });
    const expiresAt = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('qupm_session') ?? '{}') as { expiresAt: number }).expiresAt,
    );
    expect(expiresAt).toBeGreaterThan(Date.now());
  });

  it('forgets all of it when the person signs out, before the signed-out screen shows', async () => {
    const { page } = await windows.openWindow();
    await signIn(page, server.url + '/', 'member@qupm.demo');
    await page.getByRole('link', { name: /Strategy Studio/ }).click();
    await page.getByTestId('virtuoso-item-list').getByText(LAST_MESSAGE).waitFor();
    await waitForKept(page, 1);

    await page.goto(server.url + '/logout');
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    expect(await readLastKnown(page)).toEqual({ accounts: [], pages: [] });
  });

  it('shows unknown balances as unknown, never as zero, offline with nothing kept', async () => {
    const { page, context } = await windows.openWindow();
    await signIn(page, server.url + '/', 'member@qupm.demo');
    await page.getByRole('heading', { level: 1, name: 'Hello, Morgan' }).waitFor();
    await waitForServiceWorkerControl(page);
    await waitForKept(page, 0);
    // Away from the app (a file of its origin), so no pending save of the running app writes the record again.
    await page.goto(server.url + '/robots.txt');
    await goOffline(page);
    // Another build's record, or a damaged one: discarded without an error screen.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const request = indexedDB.open('qupm-last-known');
          request.onsuccess = () => {
            const tx = request.result.transaction('accounts', 'readwrite');
            const store = tx.objectStore('accounts');
            const all = store.getAllKeys();
            all.onsuccess = () => {
              for (const key of all.result) store.put({ format: 0, credits: 'lots' }, key);
            };
            tx.oncomplete = () => {
              request.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
    );
    // The toggle that makes navigator.onLine say so lets requests out for a moment: the backend refuses them too.
    await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.goto(server.url + '/');
    await context.setOffline(false);
    await context.setOffline(true);
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(['Unknown', 'Unknown']);
    expect(await readLastKnown(page)).toEqual({ accounts: [], pages: expect.any(Array) as unknown[] });
  });

  // Last: the booking it makes moves the member's credits, which the tests above read.
  it('shows the member their upcoming session and their offers on /services after an offline reload', async () => {
    const { page, context } = await windows.openWindow();
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, server.url + '/services', 'member@qupm.demo');
    await page
      .getByRole('button', { name: /^Book / })
      .first()
      .click();
    const panel = page.getByRole('form', { name: /^Book “/ });
    await panel.locator('.slot').first().click();
    await panel.getByRole('button', { name: 'Request this time' }).click();
    const upcoming = page.getByRole('list', { name: 'Upcoming' }).getByRole('listitem');
    await upcoming.first().waitFor();
    const session = await upcoming.first().getAttribute('aria-label');
    const offers = page.getByRole('list', { name: 'Active offers' });
    await offers
      .getByRole('link', { name: /^Use this offer/ })
      .first()
      .waitFor();
    await waitForServiceWorkerControl(page);
    await waitForKeptPractice(page);
    const sources = await offers.locator('.offer__source').allTextContents();
    expect(sources.length).toBeGreaterThan(0);
    const balances = await page.locator('.home__balances dd').allTextContents();

    // The toggle that makes navigator.onLine say so lets requests out for a moment (live sessions, no "as of"
    // then): the backend refuses them too.
    await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await goOffline(page);
    await page.reload();
    // Toggled once the app runs (its scripts come after the first paint, after the page's load event).
    await page.getByRole('heading', { level: 1, name: 'Services' }).waitFor();
    await context.setOffline(false);
    await context.setOffline(true);

    await page.getByRole('listitem', { name: session ?? '' }).waitFor();
    const sessions = page.getByRole('region', { name: 'Your sessions' });
    await sessions.getByText(/^Offline · as of \d\d:\d\d$/).waitFor();
    // The past was not kept: unknown, never "none".
    await sessions.getByText('Unknown while offline.').waitFor();
    expect(await page.getByText(/^No (upcoming|past) sessions/).count()).toBe(0);
    // The offers as they were, each still leading to its service's booking (the received offers, kept).
    expect(await offers.locator('.offer__source').allTextContents()).toEqual(sources);
    expect(await offers.getByRole('link', { name: /^Use this offer/ }).count()).toBe(sources.length);
    expect(await page.locator('.home__balances dd').allTextContents()).toEqual(balances);
    await shootSizes(page, 'services-offline');
  });
});
