// A signed-in cold start to the channel list on screen, with the last known state on the device (warm) and
// without it (none): the production build served by the real embedded server, one Chromium window signed in as the
// demo member, throttled as Lighthouse's mobile preset throttles (4x CPU slowdown, 150 ms RTT, 1.6 Mbps down,
// 750 kbps up). Both starts have the same warm service worker and HTTP cache: only the kept state differs. Measured
// in the page, on its own clock: navigation start to the first channel link in the DOM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../server/app';
import { launchChromium } from '../drivers/chromium';
import { DEMO_PASSWORD } from '../server/demo';
import { median } from './lighthouse';

export const WARM_START_RUNS = 5;

export interface WarmStartReport {
  runs: number;
  /** Every run, in order (ms). */
  warm: number[];
  none: number[];
  /** Navigation start → the channel list's first channel, median ms. */
  warmMs: number;
  noneMs: number;
  markdown: string;
}

// Passed as a string: the page runs it as written, before any of the app's code.
const WATCH_CHANNEL_LIST = `(() => {
  new MutationObserver((_, observer) => {
    if (document.querySelector('.channel-link')) {
      window.__channelListAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
})();`;

const FORGET_KEPT_STATE = `new Promise((resolve) => {
  const request = indexedDB.deleteDatabase('qupm-last-known');
  request.onsuccess = request.onerror = request.onblocked = () => resolve(true);
})`;

export async function benchWarmStart(buildDir: string): Promise<WarmStartReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-warm-start-'));
  const app = await buildServer({ staticDir: buildDir, dataDir, demo: true, rateLimits: false });
  await app.listen({ port: 0, host: 'localhost' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The server has no TCP address');
  const url = `http://localhost:${address.port}/`;
  const browser = await launchChromium();
  const warm: number[] = [];
  const none: number[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.addInitScript(WATCH_CHANNEL_LIST);
    await page.goto(url);
    await page.getByLabel('Email').fill('member@qupm.demo');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await page.locator('.channel-link').first().waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const time = async (): Promise<number> => {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await page.reload();
      await page.waitForFunction(
        () => (window as { __channelListAt?: number }).__channelListAt !== undefined,
        {
          timeout: 60_000,
        },
      );
      const at = await page.evaluate(() => (window as { __channelListAt?: number }).__channelListAt ?? NaN);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      // Let the start settle (and the kept state be written) before the next one.
      await page.waitForTimeout(2_000);
      return at;
    };
    for (let i = 0; i < WARM_START_RUNS; i += 1) {
      warm.push(await time());
      await page.evaluate(FORGET_KEPT_STATE);
      none.push(await time());
    }
    await context.close();
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const warmMs = median(warm);
  const noneMs = median(none);
  const markdown = [
    `## Signed-in start to the channel list (mobile throttling: 4x CPU, 150 ms RTT, 1.6 Mbps; median of ${WARM_START_RUNS})`,
    '',
    '| kept state on the device | navigation start → channel list |',
    '|---|---:|',
    `| warm | ${Math.round(warmMs)} ms |`,
    `| none | ${Math.round(noneMs)} ms |`,
    '',
  ].join('\n');
  return { runs: WARM_START_RUNS, warm, none, warmMs, noneMs, markdown };
}
