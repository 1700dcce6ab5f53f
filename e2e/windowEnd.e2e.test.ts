// The end of a conversation's window in the browser: a channel of 300 messages (more than the 240 the page holds)
// in the real server's database, opened in the production build in Chromium. The person has paged back until the
// window is full and is at its newest; an older page then lands while they are at the bottom, so the window lets
// its newest go, and the pages forward that follow bring them back below the row they read. Until the newest
// message is drawn, "Jump to latest" says there is more below: a person who reads down until it goes sees every
// message to the newest, once and in order. (Paged back and down again twice, the page back asked for from the
// keyboard; then, back at the top, scrolling there asks for an older page again.)
import type { Page, Response, Route } from 'playwright-core';
import { BENCH_PASSWORD, SENDER_EMAIL, seedChannel } from '../drivers/seed';
import { watchErrors } from './support/browser';
import { storeSession, withBrowserSession } from './support/session';

const COUNT = 300;
const NEWEST = `Message ${COUNT - 1}`;
/** The oldest message of a full window that reaches the newest (MESSAGES_WINDOW, 240). */
const WINDOW_FIRST = COUNT - 240;
const HOUR = 3_600_000;

let origin: string;
const windows = withBrowserSession(
  (started) => {
    origin = started.server.url;
  },
  () => ({
    demo: false,
    seed: (dataDir) =>
      seedChannel(dataDir, {
        handle: 'window-end',
        title: 'Window end',
        members: 1,
        memberEmail: () => 'member@window-end.qupm',
        messages: { count: COUNT, spanMs: 2 * HOUR, endAt: Date.now() - HOUR, readUpTo: COUNT - 1 },
      }),
  }),
);

interface Drawn {
  /** The numbered rows drawn ("Message n"), with their place in the list, top to bottom. */
  rows: Array<{ index: number; n: number }>;
  /** The numbers of the messages inside the list's visible box. */
  inView: number[];
  atBottom: boolean;
  jump: boolean;
}

/** What the list shows once its scroll has stayed put for ten frames. */
function settled(page: Page): Promise<Drawn> {
  return page.evaluate(async () => {
    const scroller = document.querySelector<HTMLElement>('.messages__scroller');
    if (!scroller) throw new Error('no message list');
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let last = '';
    for (let still = 0; still < 10;) {
      await frame();
      const now = `${scroller.scrollTop} ${scroller.scrollHeight}`;
      still = now === last ? still + 1 : 0;
      last = now;
    }
    const box = scroller.getBoundingClientRect();
    const rows: Array<{ index: number; n: number }> = [];
    const inView: number[] = [];
    for (const row of document.querySelectorAll<HTMLElement>('.messages__row[data-item-index]')) {
      const match = /^Message (\d+)$/.exec(row.querySelector('.message__text')?.textContent ?? '');
      if (!match) continue;
      const n = Number(match[1]);
      rows.push({ index: Number(row.dataset.itemIndex), n });
      const top = row.getBoundingClientRect().top;
      if (top >= box.top && top < box.bottom) inView.push(n);
    }
    return {
      rows,
      inView,
      atBottom: scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1,
      jump: document.querySelector('.messages__jump') !== null,
    };
  });
}

describe('a channel longer than the window', () => {
  it('shows "Jump to latest" until the newest is drawn after the window let it go, and pages back again', async () => {
    const page = await windows.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = watchErrors(page);
    await storeSession(page, origin, SENDER_EMAIL, BENCH_PASSWORD);
    await page.goto(origin);
    await page.getByRole('link', { name: /Window end/ }).click();
    await page.getByText(NEWEST, { exact: true }).waitFor();
    const region = page.getByRole('region', { name: 'Messages' });
    // Every row drawn sits at (its place in the list) - (its message's number) = one constant: a message shown
    // twice, or one missing, would move every row after it.
    const offsets = new Set<number>();
    const look = async () => {
      const drawn = await settled(page);
      for (const row of drawn.rows) offsets.add(row.index - row.n);
      return drawn;
    };
    const toTop = () => region.evaluate((el) => el.scrollTo({ top: 0 }));
    const down = () => region.evaluate((el) => el.scrollBy({ top: el.clientHeight * 0.7 }));

    // Paged back until the window is full (it reaches from WINDOW_FIRST to the newest), then at the newest again.
    for (let step = 0; !(await look()).rows.some((row) => row.n <= WINDOW_FIRST); step += 1) {
      if (step > 40) throw new Error('Paging back never filled the window');
      await toTop();
    }
    for (let step = 0; !(await look()).inView.includes(COUNT - 1); step += 1) {
      if (step > 100) throw new Error('Scrolling down never reached the newest');
      await down();
    }

    // Older pages wait here until the person is back at the bottom.
    const held: Array<() => void> = [];
    await page.route(/\/messages\?.*before=/, async (route: Route) => {
      await new Promise<void>((resolve) => held.push(resolve));
      await route.continue();
    });
    /** The page forward that finds nothing newer: the window reaches the newest again. */
    const reachesNewest = async (response: Response) =>
      /\/messages\?.*after=/.test(response.url()) &&
      ((await response.json()) as { messages: unknown[] }).messages.length === 0;

    for (let round = 0; round < 2; round += 1) {
      // An older page is asked for (from the keyboard: "Show earlier messages" over the list); the person goes
      // back down before it comes.
      await page.getByRole('button', { name: 'Show earlier messages' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Loading earlier messages…' }).waitFor();
      for (let step = 0; held.length === 0; step += 1) {
        if (step > 40) throw new Error('No older page was asked for');
        await page.waitForTimeout(100);
      }
      for (let step = 0; !(await look()).atBottom; step += 1) {
        if (step > 100) throw new Error('Scrolling down never reached the bottom');
        await down();
      }
      expect((await look()).inView).toContain(COUNT - 1);
      // It comes while they are at the bottom: the newest end is let go, and pages forward bring it back.
      const forwardDone = page.waitForResponse(reachesNewest);
      held.shift()?.();
      await forwardDone;

      // Until the newest is drawn, "Jump to latest" is there; the person reads down while it is.
      let drawn = await look();
      expect(drawn.jump || drawn.inView.includes(COUNT - 1)).toBe(true);
      for (let step = 0; drawn.jump; step += 1) {
        if (step > 100) throw new Error('"Jump to latest" never went');
        await down();
        drawn = await look();
      }
      expect(drawn.inView).toContain(COUNT - 1);
      expect(drawn.rows.at(-1)?.n).toBe(COUNT - 1);
      // "Jump to latest" goes within a few pixels of the bottom (AT_BOTTOM_PX); one more step down reaches it, with
      // nothing below the newest.
      if (!drawn.atBottom) drawn = await down().then(look);
      expect(drawn.rows.at(-1)?.n).toBe(COUNT - 1);
      expect(drawn.atBottom).toBe(true);
    }
    expect(offsets.size).toBe(1);

    // Back up to the top: an older page is asked for again, although the first row there was reached before (the
    // pages forward let the oldest go and brought the window back to where it started).
    // Any older page still held goes on (none should be), and no more are held.
    for (const release of held.splice(0)) release();
    await page.unroute(/\/messages\?.*before=/);
    // Counted from here, but waited for from the top: the way up takes long on a loaded machine.
    let asked = 0;
    page.on('request', (request) => {
      if (/\/messages\?.*before=/.test(request.url())) asked += 1;
    });
    for (let step = 0; !(await region.evaluate((el) => el.scrollTop === 0)); step += 1) {
      if (step > 100) throw new Error('Scrolling up never reached the top');
      await region.evaluate((el) => el.scrollBy({ top: -el.clientHeight * 0.7 }));
      await settled(page);
    }
    for (let waited = 0; asked === 0; waited += 100) {
      if (waited > 15_000) throw new Error('At the top, no older page was asked for in 15 s');
      await page.waitForTimeout(100);
    }
    expect(errors).toEqual([]);
  });
});
