// The live conversation at its worst moments, in the real build against the real server in a process
// of its own: the consultant's and a member's windows are open on one channel; four clients post bursts that
// total 200 messages (bursts of ten, back to back, spread over the whole test); the server is killed with SIGKILL
// mid-burst and restarted on the same data folder and port; the member's window goes offline for ten seconds and
// sends two messages meanwhile. At the end both windows show exactly the server's messages, in order, each once;
// the two offline sends exist once; no saga failed.
//
// Chromium's offline emulation fails new requests but leaves an open event stream flowing, which a phone that
// loses its network does not: so going offline here also ends the page's open streams with an error, as a lost
// connection does (drivers/chromium.ts TRACK_EVENT_SOURCES: the browser edge, nothing of the app's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { dropStreams, launchChromium, TRACK_EVENT_SOURCES } from '../drivers/chromium';
import { joinClients, sendAll, serverMessages } from '../drivers/burstClients';
import { startChild } from '../drivers/startChild';
import type { ChildServer } from '../drivers/startChild';
import { watchErrors } from './support/browser';
import { BUILD_DIR } from './support/server';
import { storeSession } from './support/session';

jest.setTimeout(240_000);

const CLIENTS = 4;
const PER_CLIENT = 50;
/** Bursts of ten from each client, three seconds apart: about fifteen seconds of bursts per client. */
const PACING = { burstSize: 10, pauseMs: 3_000 };

let dataDir: string;
let server: ChildServer;
let origin: string;
let browser: Browser;
const contexts: BrowserContext[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a window shows as delivered messages (not those still on their way out), in screen order. The list is
 * virtualized (only the rows in view are in the page), so it is read as a person would: scrolled from its top to
 * its bottom, each row noted by its place in the list (virtuoso's data-item-index, which older pages added above do not
 * change), and left at the bottom once the list is at the newest.
 */
function shown(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const scroller = document.querySelector('.messages__scroller');
    if (!scroller) return [];
    const frames = () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 20))),
      );
    const rows = new Map<number, string>();
    const note = () => {
      for (const row of document.querySelectorAll<HTMLElement>('.messages__list > li')) {
        const text = row.querySelector(
          '.message:not(.message--pending):not(.message--refused) .message__text',
        )?.textContent;
        if (text !== undefined && text !== null) rows.set(Number(row.dataset.itemIndex), text);
      }
    };
    const readDown = async () => {
      while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) {
        scroller.scrollTop += Math.max(50, scroller.clientHeight * 0.7);
        await frames();
        note();
      }
    };
    scroller.scrollTop = 0;
    await frames();
    note();
    await readDown();
    // The way up may have loaded older pages, the window letting its newest go: at the bottom it pages forward
    // again. Read on as the pages come, as a person waiting there does, until the list is at the newest (no
    // "Jump to latest"); leaving at once would read a window that ends short of it.
    const giveUpAt = performance.now() + 15_000;
    while (document.querySelector('.messages__jump') && performance.now() < giveUpAt) {
      await frames();
      await readDown();
    }
    return [...rows.entries()].sort(([a], [b]) => a - b).map(([, text]) => text);
  });
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} did not happen in ${timeoutMs} ms (${String(last)})`);
    await sleep(250);
  }
}

async function openWindow(email: string): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.addInitScript(TRACK_EVENT_SOURCES);
  const errors = watchErrors(page);
  await storeSession(page, origin, email);
  await page.goto(origin);
  await page.getByRole('link', { name: /Strategy Studio/ }).click();
  await page.locator('.messages__list').waitFor();
  return { page, context, errors };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-chaos-'));
  server = await startChild(dataDir, { QUPM_TEST_STATIC_DIR: BUILD_DIR });
  origin = server.origin;
  browser = await launchChromium();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the live conversation under a burst', () => {
  it('shows all of 200 messages posted at once by four clients, and the next one, with no saga failing', async () => {
    const at = () => origin;
    const { consultantToken, channelId, clients } = await joinClients(
      at,
      dataDir,
      'Strategy Studio',
      CLIENTS,
    );
    const dana = await openWindow('consultant@qupm.demo');
    // All at once: every client's messages in flight together (the burst that once stopped live updates).
    await Promise.all(
      clients.flatMap((token, k) =>
        Array.from({ length: PER_CLIENT }, (_, i) => sendAll(at, token, channelId, [`at once ${k}-${i}`])),
      ),
    );
    await sendAll(at, clients[0] ?? '', channelId, ['and one more after it']);
    const texts = (await serverMessages(at, consultantToken, channelId)).map((m) => m.text);
    await until(
      'every message in the window',
      async () => {
        const seen = await shown(dana.page);
        return JSON.stringify(seen) === JSON.stringify(texts.slice(texts.length - seen.length)) &&
          seen.filter((t) => t.startsWith('at once ')).length === CLIENTS * PER_CLIENT &&
          seen.at(-1) === 'and one more after it'
          ? true
          : undefined;
      },
      30_000,
    );
    expect(
      dana.errors.filter((e) =>
        /saga failed|Minified React error|Maximum update depth|watcher failed/.test(e),
      ),
    ).toEqual([]);
    await dana.context.close();
  });
});

describe('the live conversation under bursts, a server kill and an offline spell', () => {
  it('shows every message in both windows exactly once, in the server’s order', async () => {
    // Four clients of Strategy Studio, each joined with an invitation of its own.
    const at = () => origin;
    const { consultantToken, channelId, clients } = await joinClients(
      at,
      dataDir,
      'Strategy Studio',
      CLIENTS,
    );

    const dana = await openWindow('consultant@qupm.demo');
    const morgan = await openWindow('member@qupm.demo');
    const before = (await serverMessages(at, consultantToken, channelId)).length;

    // The bursts: each client sends its messages one after another, each retried under its id until the server
    // has it — across the kill and the restart.
    let acknowledged = 0;
    const bursts = clients.map((token, k) =>
      sendAll(
        at,
        token,
        channelId,
        Array.from({ length: PER_CLIENT }, (_, i) => `burst ${k}-${i}`),
        () => (acknowledged += 1),
        PACING,
      ),
    );

    // Mid-burst, the member's window goes offline for ten seconds and sends two messages meanwhile.
    await until('40 acknowledged', async () => (acknowledged >= 40 ? true : undefined), 60_000);
    const offlineAt = Date.now();
    await morgan.context.setOffline(true);
    await dropStreams(morgan.page);
    const offlineTexts = [`offline one ${Date.now()}`, `offline two ${Date.now()}`];
    for (const text of offlineTexts) {
      await morgan.page.getByLabel('Message', { exact: true }).fill(text);
      await morgan.page.getByRole('button', { name: 'Send', exact: true }).click();
    }
    await morgan.page.getByText(offlineTexts[1] ?? '').waitFor();

    // Further on, the server is killed (no shutdown code runs) and restarted on the same data and port.
    await until('80 acknowledged', async () => (acknowledged >= 80 ? true : undefined), 60_000);
    expect(acknowledged).toBeLessThan(CLIENTS * PER_CLIENT - 40);
    await server.kill();
    await dana.page.getByText('Reconnecting…').waitFor({ timeout: 15_000 });
    await sleep(1_500);
    server = await startChild(dataDir, { QUPM_TEST_STATIC_DIR: BUILD_DIR }, server.port);

    await sleep(Math.max(0, offlineAt + 10_000 - Date.now()));
    await morgan.context.setOffline(false);
    // The bursts went on after the restart (the windows had something to catch up with).
    expect(acknowledged).toBeLessThan(CLIENTS * PER_CLIENT);
    await Promise.all(bursts);

    // Everything is on the server: the 200 and the two offline sends, once each.
    const expected = before + CLIENTS * PER_CLIENT + offlineTexts.length;
    const final = await until(
      'every message on the server',
      async () => {
        const all = await serverMessages(at, consultantToken, channelId);
        return all.length >= expected ? all : undefined;
      },
      60_000,
    );
    expect(final).toHaveLength(expected);
    expect(new Set(final.map((m) => m.id)).size).toBe(final.length);
    for (const text of offlineTexts) expect(final.filter((m) => m.text === text)).toHaveLength(1);

    // Both windows show exactly that, in that order, each once, with nothing left on its way out.
    const texts = final.map((m) => m.text);
    for (const window of [dana, morgan]) {
      await until(
        'the window to show the server’s messages',
        async () => {
          const seen = await shown(window.page);
          const tail = texts.slice(texts.length - seen.length);
          return seen.length >= CLIENTS * PER_CLIENT + offlineTexts.length &&
            JSON.stringify(seen) === JSON.stringify(tail)
            ? true
            : undefined;
        },
        45_000,
      );
      const seen = await shown(window.page);
      expect(seen).toEqual(texts.slice(texts.length - seen.length));
      expect(new Set(seen).size).toBe(seen.length);
      expect(await window.page.locator('.message--pending, .message--refused').count()).toBe(0);
      expect(
        window.errors.filter((e) => /saga failed|Minified React error|Maximum update depth/.test(e)),
      ).toEqual([]);
    }
    expect(await dana.page.getByText('Reconnecting…').isVisible()).toBe(false);
  });
});
