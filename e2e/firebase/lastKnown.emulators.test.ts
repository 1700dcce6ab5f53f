// The offline bars on the Firebase build (e2e/lastKnown.e2e.test.ts has the embedded server's): the member signs
// in, visits `/`, goes offline and reloads, and sees their name, their channel and their real credits. Signing out
// deletes what the device kept of them, Firestore's cache and the last known state, before the signed-out screen
// shows: the test reads IndexedDB in the page. A reload with a warm cache draws the channel list and the last
// conversation while every answer of the emulators (Auth, Firestore's channel, callables) is held back.
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { launchChromium } from '../../drivers/chromium';
import { waitForServiceWorkerControl } from '../support/browser';
import { submitSignIn } from '../support/session';
import {
  CHANNEL_TITLE,
  FIREBASE_FIRST_SCREEN_BUDGET_BYTES,
  channelListDrawn,
  codeBeforeLink,
  firstScreenMarkdown,
  firstScreenReport,
} from '../../bench/firebaseFirstScreen';
import { emulators, makeAdmin, result, signUp, writeDocument } from './support/emulators';
import type { Account } from './support/emulators';

// The Functions emulator starts each function's worker the first time it is called: seconds each under load.
const STEP_TIMEOUT_MS = 60_000;
jest.setTimeout(4 * STEP_TIMEOUT_MS);
const DAY_MS = 24 * 60 * 60 * 1000;
const LAPTOP = { width: 1366, height: 768 };

let browser: Browser;
let context: BrowserContext | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const url = (path: string) => emulators().hostingUrl + path;

const LAST_MESSAGE = 'I have added a 20% discount on your next session to Services.';

/**
 * A consultant's channel "Strategy Studio", and Morgan in it with 3 credits and 1 pass, as the app makes them; the
 * consultant's two messages in it, the last one LAST_MESSAGE.
 */
async function morganInStrategyStudio(): Promise<Account> {
  const admin = await makeAdmin(await signUp('offline-admin'));
  const consultant = await signUp('offline-consultant', 'Dana Consultant');
  const morgan = await signUp('offline-member', 'Morgan');
  await result('admin_set_consultant', { uid: consultant.uid, isOwner: true }, admin.idToken);
  const { id: channelId } = await result<{ id: string }>(
    'create_channel',
    { channelId: `strategy-${Date.now()}`, title: 'Strategy Studio' },
    consultant.idToken,
  );
  const invitation = await result<{ id: string }>(
    'create_invitation',
    { channelId, passes: 1, credits: 3, expiresAt: Date.now() + DAY_MS },
    consultant.idToken,
  );
  await result('accept_invitation', { invitationId: invitation.id }, morgan.idToken);
  await result('activate_invitation', { invitationId: invitation.id }, morgan.idToken);
  const written = ['Welcome to the studio, Morgan.', LAST_MESSAGE];
  for (const [index, text] of written.entries()) {
    // A message id is 20 letters and digits (core/ids.ts), as the app makes them.
    await writeDocument(`channels/${channelId}/messages/${'W'.repeat(7)}${Date.now() + index}`, {
      senderId: consultant.uid,
      senderName: 'Dana Consultant',
      text,
      createdAt: new Date(Date.now() - (written.length - index) * 1000),
    });
  }
  return morgan;
}

interface DeviceData {
  /** The IndexedDB databases of the origin. */
  databases: string[];
  /** The documents Firestore's cache holds (its remoteDocuments store), over all its databases. */
  firestoreDocuments: number;
  /** The records of the last known state. */
  lastKnown: number;
  /** Of them, the channels' kept pages. */
  lastKnownPages: number;
}

/** What the page's origin keeps in IndexedDB, read in the page as any script of it could. */
function readDevice(page: Page): Promise<DeviceData> {
  return page.evaluate(async () => {
    const count = (name: string, stores: string[]) =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const present = stores.filter((store) => db.objectStoreNames.contains(store));
          if (present.length === 0) {
            db.close();
            resolve(0);
            return;
          }
          const tx = db.transaction(present, 'readonly');
          const counts = present.map((store) => tx.objectStore(store).count());
          tx.oncomplete = () => {
            db.close();
            resolve(counts.reduce((sum, counted) => sum + counted.result, 0));
          };
          tx.onerror = () => reject(tx.error);
        };
      });
    const databases = (await indexedDB.databases()).map((info) => info.name ?? '');
    let firestoreDocuments = 0;
    for (const name of databases.filter((candidate) => candidate.startsWith('firestore/')))
      firestoreDocuments += await count(name, ['remoteDocuments', 'remoteDocumentsV14']);
    const kept = databases.includes('qupm-last-known');
    const lastKnown = kept ? await count('qupm-last-known', ['accounts', 'pages']) : 0;
    const lastKnownPages = kept ? await count('qupm-last-known', ['pages']) : 0;
    return { databases, firestoreDocuments, lastKnown, lastKnownPages };
  });
}

async function eventually(page: Page, what: string, check: (data: DeviceData) => boolean): Promise<void> {
  let data: DeviceData | undefined;
  for (let attempt = 0; attempt < 150; attempt += 1) {
    data = await readDevice(page);
    if (check(data)) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`${what}: the device holds ${JSON.stringify(data)}`);
}

describe('QuPM on Firebase without a network', () => {
  let morgan: Account;
  let page: Page;

  // Five callables that may each be its function's first call (a worker started), and three sign-ups' triggers.
  beforeAll(async () => {
    morgan = await morganInStrategyStudio();
    context = await browser.newContext({ viewport: LAPTOP });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    page = await context.newPage();
  }, 10 * STEP_TIMEOUT_MS);

  it('shows the member their name, channel and real credits after an offline reload', async () => {
    await page.goto(url('/'));
    await submitSignIn(page, morgan.email, morgan.password);
    await page.getByRole('heading', { level: 1, name: 'Hello, Morgan' }).waitFor();
    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(['3', '1']);
    await waitForServiceWorkerControl(page);
    // Both are kept on the device: the last known state (drawn first) and Firestore's own cache.
    await eventually(page, 'kept', (data) => data.lastKnown > 0 && data.firestoreDocuments > 0);

    // Offline after a reload: toggled once more so that navigator.onLine says so (e2e/pwa.e2e.test.ts). The toggle
    // lets requests out for a moment, and Firestore reconnects at once on the page's "online" (it did on a loaded
    // machine: live figures, no "as of"): the emulators refuse them too until the next case.
    const { authUrl, firestoreUrl, functionsUrl } = emulators();
    for (const origin of [authUrl, firestoreUrl, functionsUrl]) {
      await context?.route(`${origin}/**`, (route) => route.abort('internetdisconnected'));
    }
    await context?.setOffline(true);
    await page.reload();
    await context?.setOffline(false);
    await context?.setOffline(true);

    await page.getByRole('heading', { level: 1, name: 'Hello, Morgan' }).waitFor();
    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(['3', '1']);
    // Firestore's cache answers offline too: its figures are the last known, and the page says so.
    await page.getByText(/^Offline · as of \d\d:\d\d$/).waitFor();
    expect(await page.getByText(/not joined a channel/).count()).toBe(0);
  });

  it('draws the channel list and the last conversation before any answer of the emulators', async () => {
    await context?.unrouteAll();
    await context?.setOffline(false);
    await page.goto(url('/'));
    await page.getByRole('link', { name: /Strategy Studio/ }).click();
    await page.getByTestId('virtuoso-item-list').getByText(LAST_MESSAGE).waitFor();
    await eventually(page, 'kept', (data) => data.lastKnownPages > 0 && data.firestoreDocuments > 0);

    // Every request to the emulators (Auth's token and account, Firestore's channel, the callables) waits until
    // the test lets it go; the app's own files come from Hosting and the service worker as usual.
    const { authUrl, firestoreUrl, functionsUrl } = emulators();
    const backend = [authUrl, firestoreUrl, functionsUrl].map((origin) => `${origin}/**`);
    const held: Route[] = [];
    const hold = (route: Route) => void held.push(route);
    for (const pattern of backend) await page.route(pattern, hold);
    await page.reload();
    // The channel is open (the URL says which): its name is the page's h1, the greeting a line of the list.
    await page.locator('#home-title', { hasText: 'Hello, Morgan' }).waitFor();
    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    const list = page.getByTestId('virtuoso-item-list');
    await list.getByText(LAST_MESSAGE).waitFor();
    await list.getByText('Welcome to the studio, Morgan.').waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(['3', '1']);
    await page.getByText(/^Updating · as of \d\d:\d\d$/).waitFor();
    // Drawn from the device alone: the emulators were asked, and have answered nothing.
    expect(held.length).toBeGreaterThan(0);

    // Let go: live data replaces what was kept, and the figures are live again.
    for (const pattern of backend) await page.unroute(pattern, hold);
    for (const route of held.splice(0)) await route.continue().catch(() => undefined);
    await page.getByText(/as of \d\d:\d\d/).waitFor({ state: 'detached' });
    await list.getByText(LAST_MESSAGE).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(['3', '1']);
  });

  it('deletes Firestore’s cache and the last known state when the member signs out', async () => {
    await context?.setOffline(false);
    // The signed-in first screen's code (bench/firebaseFirstScreen.ts): bytes, not time, so a test may keep it.
    const firstScreen = firstScreenReport(
      await codeBeforeLink(page, emulators().hostingUrl, CHANNEL_TITLE, async () => {
        await page.goto(url('/'));
        await channelListDrawn(page);
      }),
    );
    process.stdout.write(firstScreenMarkdown(firstScreen));
    expect(firstScreen.gzipBytes).toBeLessThanOrEqual(FIREBASE_FIRST_SCREEN_BUDGET_BYTES);
    await eventually(page, 'kept', (data) => data.lastKnown > 0 && data.firestoreDocuments > 0);

    await page.goto(url('/logout'));
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    // Read as soon as the signed-out screen shows: nothing of Morgan is left to read.
    const device = await readDevice(page);
    expect(device.lastKnown).toBe(0);
    expect(device.firestoreDocuments).toBe(0);
    expect(device.databases.filter((name) => name.startsWith('firestore/'))).toEqual([]);
  });
});
