// Live messaging latency (issue #6): the consultant and the member of the demo world, each in their own Chromium
// context on the production build served by the real embedded server, have the same channel open; the member
// sends 200 messages through the composer and each one's time until it appears in the consultant's window is
// measured (p50 and p99). The clock is the benchmark's own, around the browsers, so it includes the
// browser's rendering and playwright-core's polling: a ceiling on what a person would see.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import { buildServer } from '../server/app';

export const MESSAGES = 200;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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

export interface LatencyReport {
  messages: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  markdown: string;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function signIn(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(origin + '/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('qupm-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Channels' }).waitFor();
}

/** `staticDir` is a production build (npm run bench builds one). */
export async function benchMessageLatency(staticDir: string): Promise<LatencyReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-latency-'));
  const app = await buildServer({ staticDir, dataDir, rateLimits: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    const [sender, receiver] = await Promise.all(
      ['member@qupm.demo', 'consultant@qupm.demo'].map(async (email) => {
        const page = await (await browser.newContext()).newPage();
        await signIn(page, origin, email);
        return page;
      }),
    );
    // The member's first channel, open on both sides.
    await sender!.locator('.channel-link').first().click();
    const url = new URL(sender!.url());
    await receiver!.goto(origin + url.pathname + url.search);
    const composer = sender!.getByLabel('Message', { exact: true });
    await composer.waitFor();
    await receiver!.getByLabel('Message', { exact: true }).waitFor();

    const latencies: number[] = [];
    for (let i = 0; i < MESSAGES; i += 1) {
      const text = `latency probe ${i} ${Date.now()}`;
      await composer.fill(text);
      const started = performance.now();
      await composer.press('Enter');
      await receiver!.locator('.message__text', { hasText: text }).waitFor();
      latencies.push(performance.now() - started);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const report = {
      messages: MESSAGES,
      p50Ms: Math.round(percentile(sorted, 50)),
      p99Ms: Math.round(percentile(sorted, 99)),
      maxMs: Math.round(sorted[sorted.length - 1] ?? 0),
    };
    const markdown = [
      '## Live message latency (two Chromium windows, embedded server)',
      '',
      `${MESSAGES} messages sent in the member's window, each timed until it shows in the consultant's.`,
      '',
      '| p50 | p99 | max |',
      '|---:|---:|---:|',
      `| ${report.p50Ms} ms | ${report.p99Ms} ms | ${report.maxMs} ms |`,
      '',
    ].join('\n');
    return { ...report, markdown };
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
