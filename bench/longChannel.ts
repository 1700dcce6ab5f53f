// A long channel, measured where a person sees it: 10,000 messages written into a fresh database
// (drivers/seed.ts), the production build served by the real embedded server, one Chromium window. Measured in the
// page, on its own clock: the time from clicking the channel to its newest message on screen, and how many frames
// after the first page of messages arrived (its response's end) that was; then the longest task
// (PerformanceObserver 'longtask') while the list is scrolled back with the mouse wheel through all 10,000
// messages (the older pages loading as it goes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../server/app';
import { launchChromium } from '../drivers/chromium';
import { BENCH_PASSWORD, SENDER_EMAIL, seedChannel } from '../drivers/seed';

export const LONG_CHANNEL = 10_000;
/** How far each step of the scroll back goes (about a screen of messages, as a flick of a wheel does). */
const STEP_PX = 600;

export interface LongChannelReport {
  messages: number;
  /** Click on the channel → its newest message on screen. */
  openMs: number;
  /** The first page's response end → its newest message on screen, in ms and in frames (1 = the next frame). */
  afterDataMs: number;
  afterDataFrames: number;
  scrollBack: { durationMs: number; steps: number; pages: number; longestTaskMs: number; longTasks: number };
  markdown: string;
}

// The in-page measurements are passed as strings: the page runs them as they are written.
const OPEN_AND_WATCH = `(async (newest) => {
  const link = [...document.querySelectorAll('a')].find((a) => a.textContent.includes('Long channel'));
  if (!link) throw new Error('no channel link');
  const frames = [];
  const start = performance.now();
  link.click();
  const shownAt = await new Promise((resolve) => {
    const check = (at) => {
      frames.push(at);
      const box = document.querySelector('.messages__scroller')?.getBoundingClientRect();
      const last = [...document.querySelectorAll('.message__text')].find((e) => e.textContent === newest);
      const rect = last?.getBoundingClientRect();
      if (box && rect && rect.top >= box.top && rect.bottom <= box.bottom + 1) resolve(at);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  const page = performance
    .getEntriesByType('resource')
    .filter((e) => /\\/messages(\\?|$)/.test(e.name) && !/before=/.test(e.name))
    .at(-1);
  const arrived = page ? page.responseEnd : start;
  return {
    openMs: shownAt - start,
    afterDataMs: shownAt - arrived,
    afterDataFrames: frames.filter((at) => at > arrived).length,
  };
})`;

const WATCH_LONG_TASKS = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: false });
})()`;

const REACHED = `((oldest) => {
  const scroller = document.querySelector('.messages__scroller');
  return (
    scroller !== null &&
    scroller.scrollTop === 0 &&
    [...document.querySelectorAll('.message__text')].some((e) => e.textContent === oldest)
  );
})`;

/** `staticDir` is a production build (npm run bench builds one). */
export async function benchLongChannel(staticDir: string): Promise<LongChannelReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-long-'));
  const now = Date.now();
  await seedChannel(dataDir, {
    handle: 'long-channel',
    title: 'Long channel',
    members: 1,
    memberEmail: (i) => `member${i}@bench.qupm`,
    // A month of conversation, about every four minutes, read up to a few messages before the end.
    messages: {
      count: LONG_CHANNEL,
      spanMs: 30 * 86_400_000,
      endAt: now - 60_000,
      readUpTo: LONG_CHANNEL - 8,
    },
  });
  const app = await buildServer({ staticDir, dataDir, demo: false, rateLimits: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(origin + '/');
    await page.getByLabel('Email').fill(SENDER_EMAIL);
    await page.getByLabel('Password').fill(BENCH_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /Long channel/ }).waitFor();
    // The conversation's code is fetched ahead of the first channel opened (as the app does on its home screen).
    await page.waitForTimeout(1_500);
    let pages = 0;
    page.on('request', (request) => {
      if (/\/messages\?.*before=/.test(request.url())) pages += 1;
    });

    const open = (await page.evaluate(
      `${OPEN_AND_WATCH}(${JSON.stringify(`Message ${LONG_CHANNEL - 1}`)})`,
    )) as {
      openMs: number;
      afterDataMs: number;
      afterDataFrames: number;
    };
    await page.waitForTimeout(500);
    // Scrolled back with the wheel, as a person does (a step, then the next as soon as the page has taken it).
    const box = await page.locator('.messages__scroller').boundingBox();
    if (!box) throw new Error('no message list');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.evaluate(WATCH_LONG_TASKS);
    const reached = `${REACHED}(${JSON.stringify('Message 0')})`;
    const started = Date.now();
    let steps = 0;
    while (!(await page.evaluate(reached))) {
      if (Date.now() - started > 600_000) throw new Error('The scroll back did not reach the first message');
      await page.mouse.wheel(0, -STEP_PX);
      steps += 1;
    }
    const durationMs = Date.now() - started;
    await page.waitForTimeout(500);
    const tasks = (await page.evaluate('window.__longTasks')) as number[];
    const back = { durationMs, steps, tasks };

    const round = (n: number) => Math.round(n * 10) / 10;
    const report = {
      messages: LONG_CHANNEL,
      openMs: round(open.openMs),
      afterDataMs: round(open.afterDataMs),
      afterDataFrames: open.afterDataFrames,
      scrollBack: {
        durationMs: Math.round(back.durationMs),
        steps: back.steps,
        pages,
        longestTaskMs: Math.round(Math.max(0, ...back.tasks)),
        longTasks: back.tasks.length,
      },
    };
    const markdown = [
      `## A long channel (${LONG_CHANNEL.toLocaleString('en')} messages, one Chromium window, embedded server)`,
      '',
      'Measured in the page: from clicking the channel to its newest message on screen, and from the first page’s',
      'response to that (goal: the next frame); then the list scrolled back with the wheel, ' +
        `${STEP_PX} px a step, through all ${LONG_CHANNEL.toLocaleString('en')} messages, older pages loading as it goes`,
      '(a long task is one over 50 ms; 0 means none).',
      '',
      '| | |',
      '|---|---:|',
      `| click → newest message on screen | ${report.openMs} ms |`,
      `| first page’s response → newest message on screen (bar: 1 frame) | ${report.afterDataMs} ms (${report.afterDataFrames} frame${report.afterDataFrames === 1 ? '' : 's'}) |`,
      `| scroll back through all messages | ${(report.scrollBack.durationMs / 1000).toFixed(1)} s, ${report.scrollBack.steps} steps, ${report.scrollBack.pages} pages |`,
      `| longest task while scrolling back (bar: none over 50 ms) | ${report.scrollBack.longestTaskMs} ms (${report.scrollBack.longTasks} long tasks) |`,
      '',
    ].join('\n');
    return { ...report, markdown };
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
