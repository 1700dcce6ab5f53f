// Live message latency (issues #6, #11), measured where a person sees it: the consultant and the member of the
// demo world, each in a Chromium context of one browser on the production build served by the real embedded
// server, have the same channel open. The member's page stamps each message as its Send is pressed, the
// consultant's page stamps it when it appears in the list (a MutationObserver), both on the browser's own clock
// (performance.timeOrigin + performance.now()). Measured idle (200 messages one after another) and during a
// burst (200 messages from four other clients while the member sends 200 more); the longest task in the
// consultant's page during the burst and during a 500-message burst (PerformanceObserver 'longtask').
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { buildServer } from '../server/app';
import { joinClients, sendAll } from '../drivers/burstClients';
import { TRACK_EVENT_SOURCES, dropStreams, launchChromium } from '../drivers/chromium';

export const MESSAGES = 200;
export const BURST = 200;
export const BIG_BURST = 500;
interface Percentiles {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface LatencyReport {
  messages: number;
  idle: Percentiles;
  duringBurst: Percentiles & { burst: number };
  longestTaskMs: { burst: number; bigBurst: number; catchUp: number };
  bigBurstShown: number;
  markdown: string;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

function summary(latencies: number[]): Percentiles {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? 0),
  };
}

async function signIn(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(origin + '/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('qupm-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Channels' }).waitFor();
}

/** In the receiving page: stamps every message as it appears, and records long tasks. */
async function watchArrivals(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __seen: Record<string, number>; __tasks: number[] };
    w.__seen = {};
    w.__tasks = [];
    const list = document.querySelector('.messages__list');
    if (!list) throw new Error('no message list');
    new MutationObserver((records) => {
      const at = performance.timeOrigin + performance.now();
      for (const record of records) {
        for (const node of record.addedNodes) {
          const text = (node as Element).querySelector?.('.message__text')?.textContent ?? '';
          const match = /^probe (\d+)$/.exec(text);
          if (match?.[1] && w.__seen[match[1]] === undefined) w.__seen[match[1]] = at;
        }
      }
    }).observe(list, { childList: true });
    new PerformanceObserver((entries) => {
      for (const entry of entries.getEntries()) w.__tasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

/** In the sending page: writes `text` in the composer and presses Send; answers the moment it was pressed. */
function send(page: Page, text: string): Promise<number> {
  return page.evaluate((value) => {
    const box = document.querySelector<HTMLTextAreaElement>('.composer textarea');
    const button = document.querySelector<HTMLButtonElement>('.composer button[type=submit]');
    if (!box || !button) throw new Error('no composer');
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
    setter?.call(box, value);
    box.dispatchEvent(new Event('input', { bubbles: true }));
    const at = performance.timeOrigin + performance.now();
    button.click();
    return at;
  }, text);
}

async function seenAt(page: Page, n: number, timeoutMs = 20_000): Promise<number> {
  const handle = await page.waitForFunction(
    (key) => (window as unknown as { __seen: Record<string, number> }).__seen[key],
    String(n),
    { timeout: timeoutMs, polling: 5 },
  );
  return (await handle.jsonValue()) as number;
}

const takeLongTasks = (page: Page): Promise<number[]> =>
  page.evaluate(() => {
    const w = window as unknown as { __tasks: number[] };
    const tasks = w.__tasks;
    w.__tasks = [];
    return tasks;
  });

/** `staticDir` is a production build (npm run bench builds one). */
export async function benchMessageLatency(staticDir: string): Promise<LatencyReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-latency-'));
  const app = await buildServer({ staticDir, dataDir, rateLimits: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const at = () => origin;
  const browser = await launchChromium();
  try {
    const [sender, receiver] = await Promise.all(
      ['member@qupm.demo', 'consultant@qupm.demo'].map(async (email) => {
        const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
        await page.addInitScript(TRACK_EVENT_SOURCES);
        await signIn(page, origin, email);
        return page;
      }),
    );
    if (!sender || !receiver) throw new Error('no pages');
    await sender.getByRole('link', { name: /Strategy Studio/ }).click();
    await receiver.getByRole('link', { name: /Strategy Studio/ }).click();
    await sender.locator('.composer textarea').waitFor();
    await receiver.locator('.messages__list').waitFor();
    await watchArrivals(receiver);
    const { channelId, clients } = await joinClients(at, dataDir, 'Strategy Studio', 4);

    // Idle: one message at a time.
    const idle: number[] = [];
    for (let n = 0; n < MESSAGES; n += 1) {
      const sentAt = await send(sender, `probe ${n}`);
      idle.push((await seenAt(receiver, n)) - sentAt);
    }

    // During a burst: four clients post 200 messages while the member sends 200 more, 20 ms apart.
    await takeLongTasks(receiver);
    const perClient = BURST / clients.length;
    const burst = Promise.all(
      clients.map((token, k) =>
        sendAll(
          at,
          token,
          channelId,
          Array.from({ length: perClient }, (_, i) => `burst ${k}-${i}`),
        ),
      ),
    );
    const sentAts: number[] = [];
    for (let n = MESSAGES; n < 2 * MESSAGES; n += 1) {
      sentAts.push(await send(sender, `probe ${n}`));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await burst;
    const during: number[] = [];
    for (let i = 0; i < MESSAGES; i += 1) {
      during.push((await seenAt(receiver, MESSAGES + i)) - (sentAts[i] ?? 0));
    }
    const burstTasks = await takeLongTasks(receiver);

    // A 500-message burst from the four clients at once: the longest task while it arrives. The list is virtualized
    // (only the rows in view are in the page): how many rows it has is the place of its last row (virtuoso's
    // data-item-index; the receiver stays at the bottom, so the last row is always in the page).
    const shownCount = () =>
      receiver.evaluate(() => {
        const rows = [...document.querySelectorAll<HTMLElement>('.messages__list > li')];
        return Math.max(0, ...rows.map((row) => Number(row.dataset.itemIndex)));
      });
    const burstOf = (label: string) =>
      Promise.all(
        clients.map((token, k) =>
          sendAll(
            at,
            token,
            channelId,
            Array.from({ length: BIG_BURST / clients.length }, (_, i) => `${label} ${k}-${i}`),
          ),
        ),
      );
    const shownAtLeast = (expected: number) =>
      receiver.waitForFunction(
        (count) =>
          Math.max(
            0,
            ...[...document.querySelectorAll<HTMLElement>('.messages__list > li')].map((row) =>
              Number(row.dataset.itemIndex),
            ),
          ) >= count,
        expected,
        { timeout: 60_000 },
      );
    const before = await shownCount();
    await burstOf('big');
    await shownAtLeast(before + BIG_BURST);
    const bigTasks = await takeLongTasks(receiver);
    const bigBurstShown = (await shownCount()) - before;

    // A 500-message catch-up: the receiver is offline (its stream cut, as a lost network cuts it) while the
    // clients post 500 messages, then comes back and gets them all at once.
    const context = receiver.context();
    await context.setOffline(true);
    await dropStreams(receiver);
    const beforeCatchUp = await shownCount();
    await burstOf('missed');
    await takeLongTasks(receiver);
    await context.setOffline(false);
    await shownAtLeast(beforeCatchUp + BIG_BURST);
    const catchUpTasks = await takeLongTasks(receiver);

    const report = {
      messages: MESSAGES,
      idle: summary(idle),
      duringBurst: { ...summary(during), burst: BURST },
      longestTaskMs: {
        burst: Math.round(Math.max(0, ...burstTasks)),
        bigBurst: Math.round(Math.max(0, ...bigTasks)),
        catchUp: Math.round(Math.max(0, ...catchUpTasks)),
      },
      bigBurstShown,
    };
    const markdown = [
      '## Live message latency (two Chromium windows, embedded server)',
      '',
      'Measured in the receiving page: the sender stamps Send, the receiver stamps the message appearing in the list',
      '(MutationObserver), both on the browser’s clock. Goals: p50 ≤ 15 ms, p99 ≤ 50 ms idle; no long task over',
      '100 ms (a long task is one over 50 ms; 0 means none).',
      '',
      '| | p50 | p99 | max |',
      '|---|---:|---:|---:|',
      `| idle, ${MESSAGES} messages | ${report.idle.p50Ms} ms | ${report.idle.p99Ms} ms | ${report.idle.maxMs} ms |`,
      `| during a ${BURST}-message burst from 4 clients | ${report.duringBurst.p50Ms} ms | ${report.duringBurst.p99Ms} ms | ${report.duringBurst.maxMs} ms |`,
      '',
      `Longest task in the receiving page: ${report.longestTaskMs.burst} ms during the ${BURST}-message burst, ` +
        `${report.longestTaskMs.bigBurst} ms during a ${BIG_BURST}-message burst (${bigBurstShown} of ${BIG_BURST} shown), ` +
        `${report.longestTaskMs.catchUp} ms while catching up with ${BIG_BURST} messages posted during an offline spell.`,
      '',
    ].join('\n');
    return { ...report, markdown };
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
