// The offline bars on the Firebase build (e2e/lastKnown.e2e.test.ts has the embedded server's): the member signs
// in, visits `/`, goes offline and reloads, and sees their name, their channel and their real credits. Signing out
// deletes what the device kept of them, Firestore's cache and the last known state, before the signed-out screen
// shows: the test reads IndexedDB in the page.
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
  morganInStrategyStudio,
} from '../../bench/firebaseFirstScreen';
import type { EmulatorAccount } from '../../drivers/firebaseAccounts';
import { emulators } from './support/emulators';

// The Functions emulator starts each function's worker the first time it is called: seconds each under load.
const STEP_TIMEOUT_MS = 60_000;
jest.setTimeout(4 * STEP_TIMEOUT_MS);
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

interface DeviceData {
  /** The IndexedDB databases of the origin. */
  databases: string[];
  /** The documents Firestore's cache holds (its remoteDocuments store), over all its databases. */
  firestoreDocuments: number;
  /** The records of the last known state. */
  lastKnown: number;
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
    const lastKnown = databases.includes('qupm-last-known')
      ? await count('qupm-last-known', ['accounts', 'pages'])
      : 0;
    return { databases, firestoreDocuments, lastKnown };
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
  let morgan: EmulatorAccount;
  let page: Page;

  // Five callables that may each be its function's first call (a worker started), and three sign-ups' triggers.
  beforeAll(async () => {
    morgan = await morganInStrategyStudio(emulators(), 'offline');
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

    await context?.setOffline(true);
    await page.reload();
    // Offline after a reload: toggled once more so that navigator.onLine says so (e2e/pwa.e2e.test.ts).
    await context?.setOffline(false);
    await context?.setOffline(true);

    await page.getByRole('heading', { level: 1, name: 'Hello, Morgan' }).waitFor();
    await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(['3', '1']);
    expect(await page.getByText(/not joined a channel/).count()).toBe(0);
  });

  it('deletes Firestore’s cache and the last known state when the member signs out', async () => {
    await context?.setOffline(false);
    // The signed-in first screen's code (bench/firebaseFirstScreen.ts): bytes, not time, so a test may keep it.
    const firstScreen = firstScreenReport(
      await codeBeforeLink(page, emulators().hostingUrl, CHANNEL_TITLE, async () => {
        await page.reload();
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
