// Live message latency (issues #6, #11), measured where a person sees it: the consultant and the member of the
// demo world, each in a Chromium context of one browser on the production build served by the real embedded
// server, have the same channel open. The member's page stamps each message as its Send is pressed, the
// consultant's page stamps it when it appears in the list (a MutationObserver), both on the browser's own clock
// (performance.timeOrigin + performance.now()). Measured idle (200 messages one after another) and during a
// burst (200 messages from four other clients while the member sends 200 more); the longest task in the
// consultant's page during the burst and during a 500-message burst (PerformanceObserver 'longtask').
// Idle messages are also split into where their time goes: the sender's page until its POST leaves (fetch
// wrapped), the server and the wire until the receiver's browser has the stream's frame (the event's timeStamp),
// the wait for the receiver's main thread, the receiver's page until the message is in the list (parse, saga,
// store, React), and the frame that paints it (a requestAnimationFrame after the change, then a task).
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

/** The idle messages' time, stage by stage (p50 and p99 of each stage on its own). */
export interface LatencyBreakdown {
  /** Send pressed → the POST leaves the sender's page (React, the composer, the outbox saga). */
  senderPage: Percentiles;
  /** The POST leaves → the receiver's browser has the stream's frame (server, fan-out, loopback). */
  serverAndWire: Percentiles;
  /** The frame is there → its event is dispatched in the receiver's page (the main thread was busy). */
  receiverQueue: Percentiles;
  /** The event is dispatched → the message is in the list (JSON, live subscription, saga, store, React). */
  receiverPage: Percentiles;
  /** In the list → the end of the frame that paints it. */
  paint: Percentiles;
  /** The sender's POST, start to answer (for reference: the server's answer waits for the fan-out). */
  postRoundTrip: Percentiles;
  /** Send pressed → painted in the receiver's page. */
  toPaint: Percentiles;
}

/** The idle part alone (`npm run bench -- firstscreen`). */
export type IdleLatencyReport = Pick<LatencyReport, 'messages' | 'idle' | 'breakdown' | 'markdown'>;

export interface LatencyReport {
  messages: number;
  idle: Percentiles;
  breakdown: LatencyBreakdown;
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

// Both as source text: init scripts run before the app, and the TypeScript loader would rename functions.
/** In the sending page: when each probe's POST left and when its answer came. */
const STAMP_POSTS = `(() => {
  const native = window.fetch;
  const posts = (window.__posts = {});
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : String(input && input.url);
    const body = init && typeof init.body === 'string' ? init.body : '';
    const match = /\\/api\\/channels\\/[^/]+\\/messages$/.test(url) ? /"text":"probe (\\d+)"/.exec(body) : null;
    if (!match || posts[match[1]]) return native.apply(this, arguments);
    const post = (posts[match[1]] = { start: performance.timeOrigin + performance.now(), end: 0 });
    return native.apply(this, arguments).then((response) => {
      post.end = performance.timeOrigin + performance.now();
      return response;
    });
  };
})();`;

/**
 * In the receiving page: each stream event's arrival (its timeStamp: when the browser made it) and dispatch (this
 * listener is added by the constructor, before the app's own), parsed only when read.
 */
const STAMP_FRAMES = `(() => {
  const Native = window.EventSource;
  const frames = (window.__frames = []);
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      this.addEventListener('message', (event) => {
        const dispatched = performance.timeOrigin + performance.now();
        if (event.data.includes('probe ')) frames.push([performance.timeOrigin + event.timeStamp, dispatched, event.data]);
      });
    }
  };
})();`;

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
    const w = window as unknown as {
      __seen: Record<string, number>;
      __texts: Record<string, true>;
      __painted: Record<string, number>;
      __tasks: number[];
      __lists: number;
    };
    w.__seen = {};
    w.__texts = {};
    w.__painted = {};
    w.__tasks = [];
    const channel = new MessageChannel();
    const waiting: string[] = [];
    // The task after the next frame's callbacks: that frame's style, layout and paint are done by then.
    channel.port1.onmessage = () => {
      const at = performance.timeOrigin + performance.now();
      for (const key of waiting.splice(0)) w.__painted[key] = at;
    };
    const list = document.querySelector('.messages__list');
    if (!list) throw new Error('no message list');
    // The whole conversation view, not the list alone: the list is drawn anew (a new element) when its window is
    // replaced by the newest page, and an observer of the old one would see nothing after (how many lists were
    // drawn is counted in __lists).
    const view = list.closest('main') ?? document.body;
    w.__lists = 0;
    new MutationObserver((records) => {
      const at = performance.timeOrigin + performance.now();
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          if (node.matches('.messages__list') || node.querySelector('.messages__list')) w.__lists += 1;
          const texts = node.matches('.message__text') ? [node] : node.querySelectorAll('.message__text');
          for (const element of texts) {
            const text = element.textContent ?? '';
            if (!text) continue;
            w.__texts[text] = true;
            const match = /^probe (\d+)$/.exec(text);
            if (match?.[1] && w.__seen[match[1]] === undefined) {
              w.__seen[match[1]] = at;
              if (waiting.push(match[1]) === 1)
                requestAnimationFrame(() => {
                  channel.port2.postMessage(null);
                });
            }
          }
        }
      }
    }).observe(view, { childList: true, subtree: true });
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

interface Stamps {
  posts: Record<string, { start: number; end: number }>;
  frames: Record<string, { queued: number; dispatched: number }>;
  seen: Record<string, number>;
  painted: Record<string, number>;
}

/** The idle probes' stamps from both pages, stage by stage. */
async function stagesOf(sender: Page, receiver: Page, sentAts: number[]): Promise<LatencyBreakdown> {
  // The last probe's frame is painted a moment after it is seen.
  await receiver.waitForFunction(
    (key) => (window as unknown as { __painted: Record<string, number> }).__painted[key],
    String(sentAts.length - 1),
  );
  const posts = await sender.evaluate(() => (window as unknown as { __posts: Stamps['posts'] }).__posts);
  const { frames, seen, painted } = await receiver.evaluate(() => {
    const w = window as unknown as {
      __frames: Array<[number, number, string]>;
      __seen: Stamps['seen'];
      __painted: Stamps['painted'];
    };
    const byProbe: Stamps['frames'] = {};
    for (const [queued, dispatched, data] of w.__frames) {
      const text = (JSON.parse(data) as { message?: { text?: string } }).message?.text ?? '';
      const key = /^probe (\d+)$/.exec(text)?.[1];
      if (key !== undefined && !byProbe[key]) byProbe[key] = { queued, dispatched };
    }
    return { frames: byProbe, seen: w.__seen, painted: w.__painted };
  });
  const stage = (
    from: (key: string, sentAt: number) => number | undefined,
    to: (key: string) => number | undefined,
  ) =>
    summary(
      sentAts.flatMap((sentAt, n) => {
        const key = String(n);
        const [a, b] = [from(key, sentAt), to(key)];
        return a === undefined || b === undefined || !a || !b ? [] : [b - a];
      }),
    );
  return {
    senderPage: stage(
      (_, sentAt) => sentAt,
      (k) => posts[k]?.start,
    ),
    serverAndWire: stage(
      (k) => posts[k]?.start,
      (k) => frames[k]?.queued,
    ),
    receiverQueue: stage(
      (k) => frames[k]?.queued,
      (k) => frames[k]?.dispatched,
    ),
    receiverPage: stage(
      (k) => frames[k]?.dispatched,
      (k) => seen[k],
    ),
    paint: stage(
      (k) => seen[k],
      (k) => painted[k],
    ),
    postRoundTrip: stage(
      (k) => posts[k]?.start,
      (k) => posts[k]?.end,
    ),
    toPaint: stage(
      (_, sentAt) => sentAt,
      (k) => painted[k],
    ),
  };
}

const BREAKDOWN_ROWS: Array<[keyof LatencyBreakdown, string]> = [
  ['senderPage', 'Send pressed → the POST leaves (sender’s page)'],
  ['serverAndWire', 'POST leaves → the receiver’s browser has the frame (server, fan-out, wire)'],
  ['receiverQueue', 'frame there → its event dispatched (receiver’s main thread busy)'],
  ['receiverPage', 'event dispatched → in the list (JSON, saga, store, React)'],
  ['paint', 'in the list → the frame that paints it is done'],
  ['toPaint', '**Send pressed → painted**'],
  ['postRoundTrip', 'for reference: the sender’s POST, start to answer'],
];

const LATENCY_HEAD = [
  '## Live message latency (two Chromium windows, embedded server)',
  '',
  'Measured in the receiving page: the sender stamps Send, the receiver stamps the message appearing in the list',
  '(MutationObserver), both on the browser’s clock. Goals: p50 ≤ 15 ms, p99 ≤ 40 ms idle; no long task over',
  '100 ms (a long task is one over 50 ms; 0 means none).',
  '',
  '| | p50 | p99 | max |',
  '|---|---:|---:|---:|',
];

/** `staticDir` is a production build (npm run bench builds one). */
export async function benchMessageLatency(
  staticDir: string,
  options: { idleOnly?: boolean } = {},
): Promise<LatencyReport | IdleLatencyReport> {
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
        await page.addInitScript(email.startsWith('member') ? STAMP_POSTS : STAMP_FRAMES);
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
    const idleSentAts: number[] = [];
    for (let n = 0; n < MESSAGES; n += 1) {
      const sentAt = await send(sender, `probe ${n}`);
      idleSentAts.push(sentAt);
      idle.push((await seenAt(receiver, n)) - sentAt);
    }
    const breakdown = await stagesOf(sender, receiver, idleSentAts);
    const idleRows = [
      `| idle, ${MESSAGES} messages | ${summary(idle).p50Ms} ms | ${summary(idle).p99Ms} ms | ${summary(idle).maxMs} ms |`,
    ];
    const breakdownLines = [
      'Where the idle messages’ time goes (each stage’s own percentiles, so they do not add up exactly):',
      '',
      '| stage | p50 | p99 | max |',
      '|---|---:|---:|---:|',
      ...BREAKDOWN_ROWS.map(([key, label]) => {
        const s = breakdown[key];
        return `| ${label} | ${s.p50Ms} ms | ${s.p99Ms} ms | ${s.maxMs} ms |`;
      }),
      '',
    ];
    if (options.idleOnly)
      return {
        messages: MESSAGES,
        idle: summary(idle),
        breakdown,
        markdown: [...LATENCY_HEAD, ...idleRows, '', ...breakdownLines].join('\n'),
      };

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
    // How many times the list was drawn anew during the burst (its window replaced by the newest page).
    const listsDrawn = await receiver.evaluate(() => (window as unknown as { __lists: number }).__lists);

    // A 500-message burst from the four clients at once: the longest task while it arrives. The list is virtualized
    // (only the rows in view are in the page) and follows the newest: the burst has arrived once each client's last
    // message has been added to the page; how many of the 500 were drawn on the way is reported, not required (a
    // batch taller than the view may go by without drawing the rows in its middle).
    const textsOf = (label: string) =>
      clients.flatMap((_, k) =>
        Array.from({ length: BIG_BURST / clients.length }, (__, i) => `${label} ${k}-${i}`),
      );
    const lastOf = (label: string) =>
      clients.map((_, k) => `${label} ${k}-${BIG_BURST / clients.length - 1}`);
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
    const arrived = (label: string) =>
      receiver.waitForFunction(
        (texts) =>
          texts.every((text) => (window as unknown as { __texts: Record<string, true> }).__texts[text]),
        lastOf(label),
        { timeout: 60_000 },
      );
    const drawn = (label: string) =>
      receiver.evaluate(
        (texts) =>
          texts.filter((text) => (window as unknown as { __texts: Record<string, true> }).__texts[text])
            .length,
        textsOf(label),
      );
    await burstOf('big');
    await arrived('big');
    const bigTasks = await takeLongTasks(receiver);
    const bigBurstShown = await drawn('big');

    // A 500-message catch-up: the receiver is offline (its stream cut, as a lost network cuts it) while the
    // clients post 500 messages, then comes back and gets them all at once.
    const context = receiver.context();
    await context.setOffline(true);
    await dropStreams(receiver);
    await burstOf('missed');
    await takeLongTasks(receiver);
    await context.setOffline(false);
    await arrived('missed');
    const catchUpTasks = await takeLongTasks(receiver);

    const report = {
      messages: MESSAGES,
      idle: summary(idle),
      breakdown,
      duringBurst: { ...summary(during), burst: BURST },
      longestTaskMs: {
        burst: Math.round(Math.max(0, ...burstTasks)),
        bigBurst: Math.round(Math.max(0, ...bigTasks)),
        catchUp: Math.round(Math.max(0, ...catchUpTasks)),
      },
      bigBurstShown,
      listsDrawnDuringBurst: listsDrawn,
    };
    const markdown = [
      ...LATENCY_HEAD,
      ...idleRows,
      `| during a ${BURST}-message burst from 4 clients | ${report.duringBurst.p50Ms} ms | ${report.duringBurst.p99Ms} ms | ${report.duringBurst.maxMs} ms |`,
      '',
      `The list was drawn anew ${listsDrawn} time(s) during that burst (its window replaced by the newest page).`,
      '',
      ...breakdownLines,
      `Longest task in the receiving page: ${report.longestTaskMs.burst} ms during the ${BURST}-message burst, ` +
        `${report.longestTaskMs.bigBurst} ms during a ${BIG_BURST}-message burst (${bigBurstShown} of ${BIG_BURST} drawn on the way, the newest shown), ` +
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
