// A long channel in the browser: 10,000 messages written into the real server's database
// (drivers/seed.ts), opened in the production build in Chromium. The channel opens at its newest message with a
// "New messages" divider at the first unread one and day separators; scrolling up loads older pages without
// moving the message the person is reading (each page is held back until that message's place is noted); a
// message posted by someone else (another API client) while the person reads further up shows "Jump to latest"
// with its count; the person's own message always brings the list to the bottom. Scrolled back to the very first
// message and forward again, the list holds each message once and in order (the page holds a bounded window of
// them: the far end is let go and fetched again), and a message sent from a second window while the person is far
// back is counted and shows once after "Jump to latest". That trip goes through a second channel of ten windows'
// worth (2,400 messages): each page boundary on the way is the same as in 10,000, at a quarter of the steps (the
// trip through 10,000 alone took 110 s of CI's browser stage). A burst from four senders at once, past the window, is
// followed to its newest message without the person touching the list. No timings here: `npm run bench` measures them.
import type { Page, Route } from 'playwright-core';
import type { SessionResponse } from '@core/wire';
import { apiOf, sendAll } from '../drivers/burstClients';
import { BENCH_PASSWORD, SENDER_EMAIL, seedChannel } from '../drivers/seed';
import { watchErrors } from './support/browser';
import { storeSession, withBrowserSession } from './support/session';

jest.setTimeout(180_000);

const COUNT = 10_000;
const MEMBER_EMAIL = 'member0@long.qupm';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// The newest five today, twenty yesterday, twenty three days ago, and the rest two minutes apart before that:
// the first page (30 messages) has three days in it.
const midnight = new Date(new Date().setHours(0, 0, 0, 0)).getTime();
function at(i: number): number {
  const fromEnd = COUNT - 1 - i;
  if (fromEnd < 5) return midnight + (5 - fromEnd) * 1_000;
  if (fromEnd < 25) return midnight - DAY + 12 * HOUR + (25 - fromEnd) * 60_000;
  if (fromEnd < 45) return midnight - 3 * DAY + 12 * HOUR + (45 - fromEnd) * 60_000;
  return midnight - 8 * DAY - (fromEnd - 45) * 120_000;
}
/** Who wrote message `i` (drivers/seed.ts: runs of three, the owner first). */
const byMember = (i: number) => Math.floor(i / 3) % 2 === 1;
/** The owner (who opens the channel) has read up to here: what the member wrote after it is unread. */
const READ_UP_TO = COUNT - 9;
const FIRST_UNREAD = Array.from({ length: COUNT }, (_, i) => i).find((i) => i > READ_UP_TO && byMember(i));
/** The channel scrolled from end to end: ten times the page's window of messages (MESSAGES_WINDOW, 240). */
const TRIP_COUNT = 2_400;
const TRIP_OWNER_EMAIL = 'owner@trip.qupm';
const TRIP_MEMBER_EMAIL = 'member@trip.qupm';

let origin: string;
let channelId: string;
const windows = withBrowserSession(
  (started) => {
    origin = started.server.url;
  },
  () => ({
    demo: false,
    async seed(dataDir) {
      channelId = await seedChannel(dataDir, {
        handle: 'long-channel',
        title: 'Long channel',
        members: 1,
        memberEmail: () => MEMBER_EMAIL,
        messages: { count: COUNT, spanMs: 0, endAt: 0, at, readUpTo: READ_UP_TO },
      });
      await seedChannel(dataDir, {
        handle: 'trip-channel',
        title: 'Trip channel',
        ownerEmail: TRIP_OWNER_EMAIL,
        members: 1,
        memberEmail: () => TRIP_MEMBER_EMAIL,
        messages: { count: TRIP_COUNT, spanMs: 30 * DAY, endAt: Date.now() - HOUR, readUpTo: TRIP_COUNT - 1 },
      });
    },
  }),
);

const scroller = (page: Page) => page.getByRole('region', { name: 'Messages' });

/** The text and top edge of each message row in view, top to bottom. */
function rowsInView(page: Page): Promise<Array<{ text: string; top: number }>> {
  return page.evaluate(() => {
    const box = document.querySelector('.messages__scroller')?.getBoundingClientRect();
    if (!box) return [];
    return [...document.querySelectorAll('.messages__row')]
      .map((row) => ({
        text: row.querySelector('.message__text')?.textContent ?? '',
        top: row.querySelector('.message')?.getBoundingClientRect().top ?? 0,
      }))
      .filter((row) => row.text !== '' && row.top >= box.top && row.top < box.bottom);
  });
}

/** Where the message with `text` is now (its bubble's top edge), or null when it is not in the page. */
function topOf(page: Page, text: string): Promise<number | null> {
  return page.evaluate((wanted) => {
    const found = [...document.querySelectorAll('.message__text')].find((e) => e.textContent === wanted);
    return found?.closest('.message')?.getBoundingClientRect().top ?? null;
  }, text);
}

/** The rows drawn that hold a seeded message ("Message n"), with their place in the list, top to bottom. */
function numberedRows(page: Page): Promise<Array<{ index: number; n: number }>> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.messages__row[data-item-index]')].flatMap((row) => {
      const match = /^Message (\d+)$/.exec(row.querySelector('.message__text')?.textContent ?? '');
      return match ? [{ index: Number(row.dataset.itemIndex), n: Number(match[1]) }] : [];
    }),
  );
}

/**
 * What the list shows once it has drawn two more frames, read in one round trip (the long scroll below takes
 * thousands of steps): the numbered rows drawn, as numberedRows, and whether the message with `text` is in view,
 * as rowsInView.
 */
function drawn(
  page: Page,
  text: string,
): Promise<{ rows: Array<{ index: number; n: number }>; inView: boolean }> {
  return page.evaluate(async (wanted) => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const rows = [...document.querySelectorAll<HTMLElement>('.messages__row[data-item-index]')].flatMap(
      (row) => {
        const match = /^Message (\d+)$/.exec(row.querySelector('.message__text')?.textContent ?? '');
        return match ? [{ index: Number(row.dataset.itemIndex), n: Number(match[1]) }] : [];
      },
    );
    const box = document.querySelector('.messages__scroller')?.getBoundingClientRect();
    const inView =
      box !== undefined &&
      [...document.querySelectorAll('.messages__row')].some((row) => {
        const top = row.querySelector('.message')?.getBoundingClientRect().top ?? 0;
        return (
          row.querySelector('.message__text')?.textContent === wanted && top >= box.top && top < box.bottom
        );
      });
    return { rows, inView };
  }, text);
}

/** The message bubbles' texts that are exactly `text` (not the channel list's preview of the last message). */
const bubbles = (page: Page, text: string) =>
  page.locator('.message__text').filter({ hasText: new RegExp(`^${text}$`) });

/** Whether the message with `text` is inside the list's visible box. */
async function inView(page: Page, text: string): Promise<boolean> {
  return (await rowsInView(page)).some((row) => row.text === text);
}

/**
 * Scrolls the list up a step at a time until `done` says so (a person's scrolling: the list may still be settling
 * from a jump when the first step comes).
 */
async function scrollUpUntil(page: Page, done: () => Promise<boolean>): Promise<void> {
  for (let step = 0; step < 40; step += 1) {
    if (await done()) return;
    await scroller(page).evaluate((el) => el.scrollBy({ top: -400 }));
    await page.waitForTimeout(100);
  }
  throw new Error('Scrolling up never got there');
}

async function openChannel(
  page: Page,
  { email, title, count }: { email: string; title: string; count: number } = {
    email: SENDER_EMAIL,
    title: 'Long channel',
    count: COUNT,
  },
): Promise<void> {
  await storeSession(page, origin, email, BENCH_PASSWORD);
  await page.goto(origin);
  await page.getByRole('link', { name: new RegExp(title) }).click();
  await page.getByText(`Message ${count - 1}`, { exact: true }).waitFor();
}

describe('a channel of 10,000 messages', () => {
  it('opens at the newest with the divider and day separators, and keeps its place while older pages load', async () => {
    const page = await windows.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await openChannel(page);

    // At its newest message, with the first unread one under "New messages".
    await page.waitForFunction(
      (text) => {
        const box = document.querySelector('.messages__scroller')?.getBoundingClientRect();
        const last = [...document.querySelectorAll('.message__text')].find((e) => e.textContent === text);
        const rect = last?.getBoundingClientRect();
        return box && rect ? rect.bottom <= box.bottom + 1 && rect.top >= box.top : false;
      },
      `Message ${COUNT - 1}`,
    );
    expect(FIRST_UNREAD).toBeDefined();
    const divider = page.locator('.messages__row', { has: page.getByText('New messages', { exact: true }) });
    await expect(divider.locator('.message__text').textContent()).resolves.toBe(`Message ${FIRST_UNREAD}`);
    expect(await page.getByText('New messages', { exact: true }).count()).toBe(1);

    // Day separators, newest first: today, yesterday, a weekday (three days ago), then dates with their month.
    const weekday = new Date(midnight - 3 * DAY + 12 * HOUR).toLocaleDateString([], { weekday: 'long' });

    // While the list scrolls, the day floating over it is the day of the message at the top of the view, not of
    // the rows drawn a screen above it for scrolling back (those were three days ago while yesterday was in view).
    // The label shows only while the list moves: every frame it is up is recorded with the top row's day, and the
    // records are read once the scrolling is done (a poll could miss a label shown for a few frames under load).
    await page.evaluate(
      ({ count, days }) => {
        const seen: Array<[string, string]> = [];
        (window as unknown as { __floatSeen: typeof seen }).__floatSeen = seen;
        const look = () => {
          const float = document.querySelector('.messages__day-float')?.textContent;
          const box = document.querySelector('.messages__scroller')?.getBoundingClientRect();
          if (float && box) {
            const top = [...document.querySelectorAll('.message')].find(
              (row) => row.getBoundingClientRect().bottom > box.top,
            );
            const n = Number(
              /^Message (\d+)$/.exec(top?.querySelector('.message__text')?.textContent ?? '')?.[1],
            );
            const fromEnd = count - 1 - n;
            seen.push([float, fromEnd < 5 ? days[0]! : fromEnd < 25 ? days[1]! : days[2]!]);
          }
          requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      },
      { count: COUNT, days: ['Today', 'Yesterday', weekday] },
    );
    await scroller(page).hover();
    for (let step = 0; step < 6; step += 1) {
      await page.mouse.wheel(0, -120);
      await page.waitForTimeout(200);
    }
    await page.waitForFunction(
      () => (window as unknown as { __floatSeen: unknown[] }).__floatSeen.length > 0,
    );
    const seen = await page.evaluate(
      () => (window as unknown as { __floatSeen: Array<[string, string]> }).__floatSeen,
    );
    // A frame may show the day a moment before the label follows the row under it (it follows the rows drawn); the
    // rows drawn ahead showed another day in every frame.
    const right = seen.filter(([shown, atTop]) => shown === atTop).length;
    expect(right / seen.length).toBeGreaterThanOrEqual(0.8);
    // Back at the newest once the scroll has ended (the day goes with it).
    await page.locator('.messages__day-float').waitFor({ state: 'detached' });
    await scroller(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
    for (const day of ['Today', 'Yesterday', weekday]) {
      const heading = page.getByRole('heading', { name: day, exact: true });
      await scrollUpUntil(page, async () => (await heading.count()) > 0);
      expect(await heading.count()).toBe(1);
    }
    const eightDaysAgo = new Date(midnight - 8 * DAY);
    const month = eightDaysAgo.toLocaleDateString([], { month: 'long' });
    const dated = page
      .getByRole('heading')
      .filter({ hasText: month })
      .filter({ hasText: new RegExp(`\\b${eightDaysAgo.getDate()}\\b`) });
    await scrollUpUntil(page, async () => (await dated.count()) > 0);
    // A sender's run of messages shows the name once.
    const names = await page.locator('.message:not(.message--grouped) .message__sender').count();
    const bubbles = await page.locator('.message').count();
    expect(names).toBeLessThan(bubbles);

    // The list scrolls from the keyboard.
    const region = scroller(page);
    const bottom = await region.evaluate((el) => el.scrollTop);
    await region.focus();
    await page.keyboard.press('PageUp');
    await page.waitForFunction((was) => {
      const el = document.querySelector('.messages__scroller');
      return el !== null && el.scrollTop < was;
    }, bottom);

    // Paging back: each older page is held until the place of the message in view is noted. A release lets every
    // page asked for until the next step through: the page may be asked for before or after the button shows, and
    // a page landing with its first rows drawn may ask at once for the one before it (the list reads ahead).
    const held: Array<() => void> = [];
    let holding = false;
    const release = () => {
      holding = false;
      for (const next of held.splice(0)) next();
    };
    await page.route(/\/messages\?.*before=/, async (route: Route) => {
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      await route.continue();
    });
    for (let pageBack = 0; pageBack < 4; pageBack += 1) {
      const firstBefore = await page.locator('.message__text').first().textContent();
      holding = true;
      await region.evaluate((el) => el.scrollTo({ top: 0 }));
      await page.getByRole('button', { name: 'Loading earlier messages…' }).waitFor();
      // Reading the message at the top.
      const [reading] = await rowsInView(page);
      if (!reading) throw new Error('no message in view');
      release();
      await page.getByRole('button', { name: 'Loading earlier messages…' }).waitFor({ state: 'detached' });
      await page.waitForFunction(
        (text) => document.querySelector('.message__text')?.textContent !== text,
        firstBefore,
      );
      await page.waitForTimeout(300); // two frames and then some: a jump would have happened by now
      expect(Math.abs(((await topOf(page, reading.text)) ?? Infinity) - reading.top)).toBeLessThanOrEqual(2);
    }
    await page.unroute(/\/messages\?.*before=/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows "Jump to latest" with the count of messages posted while the person reads further up', async () => {
    const page = await windows.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await openChannel(page);
    expect(await page.getByRole('button', { name: /Jump to latest/ }).count()).toBe(0);

    // While at the bottom, a new message keeps the list there.
    const api = apiOf(() => origin);
    const member = await api<SessionResponse>('POST', '/api/auth/signin', undefined, {
      email: MEMBER_EMAIL,
      password: BENCH_PASSWORD,
    });
    await sendAll(() => origin, member.accessToken, channelId, ['Said while you were here']);
    await page.locator('.message__text', { hasText: 'Said while you were here' }).waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector('.messages__scroller');
      return el !== null && el.scrollHeight - el.clientHeight - el.scrollTop < 48;
    });
    expect(await inView(page, 'Said while you were here')).toBe(true);

    // Reading further up: two new messages are counted, not scrolled to.
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await scrollUpUntil(page, () => jump.isVisible());
    await sendAll(() => origin, member.accessToken, channelId, ['First while away', 'Second while away']);
    await page.getByRole('button', { name: 'Jump to latest (2 new messages)' }).waitFor();
    expect(await inView(page, 'Second while away')).toBe(false);
    await jump.click();
    await page.waitForFunction(() => {
      const el = document.querySelector('.messages__scroller');
      return el !== null && el.scrollHeight - el.clientHeight - el.scrollTop < 48;
    });
    await jump.waitFor({ state: 'detached' });
    expect(await inView(page, 'Second while away')).toBe(true);

    // One's own message, sent while reading further up, brings the list to the bottom.
    await scrollUpUntil(page, () => jump.isVisible());
    await page.getByLabel('Message', { exact: true }).fill('My answer from up there');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForFunction(() => {
      const box = document.querySelector('.messages__scroller')?.getBoundingClientRect();
      const mine = [...document.querySelectorAll('.message__text')].find(
        (e) => e.textContent === 'My answer from up there',
      );
      const rect = mine?.getBoundingClientRect();
      return box && rect ? rect.bottom <= box.bottom + 1 && rect.top >= box.top : false;
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('scrolls back to the first of 2,400 messages and forward again holding each message once and in order', async () => {
    const page = await windows.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await openChannel(page, { email: TRIP_OWNER_EMAIL, title: 'Trip channel', count: TRIP_COUNT });
    const region = scroller(page);
    // Every row ever drawn sits at (its place in the list) - (its message's number) = one constant: a message shown
    // twice, or one missing, would move every row after it.
    const offsets = new Set<number>();
    const note = async () => {
      const rows = await numberedRows(page);
      for (const row of rows) offsets.add(row.index - row.n);
      return rows;
    };
    const oldestDrawn = async () => (await note())[0]?.n ?? Infinity;
    // Scrolled with the mouse wheel, as a person does (a wheel also ends the list's holding of its place).
    const box = await region.boundingBox();
    if (!box) throw new Error('no message list');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    let steps = 0;
    /** One wheel step; then what the list draws, every row of it noted, and whether `text` is in view. */
    const wheel = async (by: number, text = '') => {
      steps += 1;
      if (steps > 2_000) throw new Error('The wheel never got there');
      await page.mouse.wheel(0, by);
      const seen = await drawn(page, text);
      for (const row of seen.rows) offsets.add(row.index - row.n);
      return seen;
    };

    // Back to the first message, a screenful at a time, older pages loading as it goes.
    await note();
    let back = await drawn(page, 'Message 0');
    while (!back.inView) back = await wheel(-1_500, 'Message 0');
    await page.getByText('This is the beginning of the conversation.').waitFor();
    expect(offsets.size).toBe(1);
    // Far back, the newest messages are no longer held: the way back to them is there.
    expect(await bubbles(page, `Message ${TRIP_COUNT - 1}`).count()).toBe(0);
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await jump.waitFor();

    // Someone writes from another window meanwhile: counted, not shown yet.
    const other = await windows.newPage({ viewport: { width: 390, height: 844 } });
    await storeSession(other, origin, TRIP_MEMBER_EMAIL, BENCH_PASSWORD);
    await other.goto(origin);
    await other.getByRole('link', { name: /Trip channel/ }).click();
    await other.getByLabel('Message', { exact: true }).fill('Written while you were far back');
    await other.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('button', { name: 'Jump to latest (1 new message)' }).waitFor();
    expect(await bubbles(page, 'Written while you were far back').count()).toBe(0);

    // Forward again, a screenful at a time: newer pages load below, each message once and in order.
    let newest = -1;
    let forward = await drawn(page, `Message ${TRIP_COUNT - 1}`);
    while (!forward.inView) {
      forward = await wheel(1_500, `Message ${TRIP_COUNT - 1}`);
      newest = Math.max(newest, ...forward.rows.map((row) => row.n));
    }
    newest = Math.max(newest, ...(await note()).map((row) => row.n));
    expect(newest).toBe(TRIP_COUNT - 1);
    expect(offsets.size).toBe(1);
    await wheel(100_000);
    await bubbles(page, 'Written while you were far back').waitFor();
    expect(await bubbles(page, 'Written while you were far back').count()).toBe(1);

    // Far back once more, then straight to the newest: the message shows once, at the bottom.
    while ((await oldestDrawn()) > TRIP_COUNT - 1_000) await wheel(-3_000);
    await other.getByLabel('Message', { exact: true }).fill('And once more');
    await other.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('button', { name: 'Jump to latest (1 new message)' }).click();
    await page.waitForFunction(() => {
      const box = document.querySelector('.messages__scroller')?.getBoundingClientRect();
      const mine = [...document.querySelectorAll('.message__text')].find(
        (e) => e.textContent === 'And once more',
      );
      const rect = mine?.getBoundingClientRect();
      return box && rect ? rect.bottom <= box.bottom + 1 && rect.top >= box.top : false;
    });
    expect(await bubbles(page, 'And once more').count()).toBe(1);
    expect(await bubbles(page, 'Written while you were far back').count()).toBe(1);
    const after = await numberedRows(page);
    expect(new Set(after.map((row) => row.index - row.n)).size).toBe(1);
    expect(errors).toEqual([]);
    await other.context().close();
    await page.context().close();
  }, 300_000);

  it('follows the newest through a burst of 400 messages posted four at a time, past its window', async () => {
    const page = await windows.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await openChannel(page);
    const api = apiOf(() => origin);
    const member = await api<SessionResponse>('POST', '/api/auth/signin', undefined, {
      email: MEMBER_EMAIL,
      password: BENCH_PASSWORD,
    });
    // Four senders at once, so that messages arrive faster than the list scrolls after them; more than the window
    // holds, so that it lets its oldest go as they arrive. The person does not touch the list.
    await Promise.all(
      [0, 1, 2, 3].map((k) =>
        sendAll(
          () => origin,
          member.accessToken,
          channelId,
          Array.from({ length: 100 }, (_, i) => `Burst ${k}-${i}`),
        ),
      ),
    );
    await sendAll(() => origin, member.accessToken, channelId, ['After the burst']);
    // The channel list has it: the page has been told.
    await page.getByRole('link', { name: /After the burst/ }).waitFor();
    await page.locator('.message__text', { hasText: 'After the burst' }).waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector('.messages__scroller');
      return el !== null && el.scrollHeight - el.clientHeight - el.scrollTop < 48;
    });
    expect(await inView(page, 'After the burst')).toBe(true);
    expect(await page.getByRole('button', { name: /Jump to latest/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
