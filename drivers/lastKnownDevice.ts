// The last known state as a page keeps it on its device (src/platform/lastKnownStore.ts), read from outside through
// the page's own IndexedDB: for the browser tests that check it and for the bench that must start from it.
import type { Page } from 'playwright-core';

/** What the page keeps in the last-known database: its records, by store. */
export function readLastKnown(page: Page): Promise<{ accounts: unknown[]; pages: unknown[] }> {
  return page.evaluate(
    () =>
      new Promise<{ accounts: unknown[]; pages: unknown[] }>((resolve, reject) => {
        const request = indexedDB.open('qupm-last-known');
        // Not made here when the page has not made it yet: an empty database at the app's version would leave the
        // app without its stores (it passed in a quiet run, and kept nothing in CI's loaded one).
        let absent = false;
        request.onupgradeneeded = () => {
          absent = true;
          request.transaction?.abort();
        };
        request.onerror = () => (absent ? resolve({ accounts: [], pages: [] }) : reject(request.error));
        request.onsuccess = () => {
          const db = request.result;
          const names = ['accounts', 'pages'].filter((name) => db.objectStoreNames.contains(name));
          if (names.length < 2) {
            db.close();
            resolve({ accounts: [], pages: [] });
            return;
          }
          const tx = db.transaction(names, 'readonly');
          const accounts = tx.objectStore('accounts').getAll();
          const pages = tx.objectStore('pages').getAll();
          tx.oncomplete = () => {
            db.close();
            resolve({ accounts: accounts.result, pages: pages.result });
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** Waits until the page has kept its account with its channel list (saved a second after live data settles). */
export async function waitForKept(page: Page, pages: number): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const kept = await readLastKnown(page);
    const account = kept.accounts[0] as { channels?: unknown[] | null } | undefined;
    const withChannels = (account?.channels?.length ?? 0) > 0;
    if (kept.accounts.length === 1 && withChannels && kept.pages.length >= pages) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`The page never kept its last known state (${pages} pages)`);
}
