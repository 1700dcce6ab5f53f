// Installable and offline: the PWA bars of QUALITY.md, checked in a real Chromium profile.
import { launchPersistent, waitForServiceWorkerControl, watchErrors } from './support/browser';
import type { PersistentBrowser } from './support/browser';
import { startServer } from './support/server';
import type { RunningServer } from './support/server';

let server: RunningServer;
let browser: PersistentBrowser;

beforeEach(async () => {
  server = await startServer();
  browser = await launchPersistent();
});

afterEach(async () => {
  await browser?.close();
  await server?.close().catch(() => undefined);
});

describe('the installable PWA', () => {
  it('has no installability errors', async () => {
    const page = await browser.context.newPage();
    await page.goto(server.url + '/');
    await waitForServiceWorkerControl(page);
    const cdp = await browser.context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(server.url + '/manifest.webmanifest');
  });

  it('reloads offline after one online visit, and opens a lazily loaded route', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url + '/');
    await waitForServiceWorkerControl(page);
    // The network is gone: the server stops and the browser is offline.
    await server.close();
    await browser.context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    // Chromium's offline emulation fails the reloaded document's requests but leaves its navigator.onLine true
    // (seen with Debian's Chromium 156) until the emulation changes; a browser that is really offline says so.
    await browser.context.setOffline(false);
    await browser.context.setOffline(true);
    await page.getByText(/you are offline/i).waitFor();
    await page.getByRole('link', { name: 'Services' }).click();
    await page.getByRole('heading', { level: 1, name: /^services$/i }).waitFor();
    // A deep link, typed into the address bar while offline, still gets the shell and its route.
    await page.goto(server.url + '/settings/about');
    await page.getByRole('heading', { level: 1, name: /^about$/i }).waitFor();
    expect(errors.filter((e) => !e.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
  });
});
