// Search in the browser: a channel of 300 messages written into the real server's database (drivers/seed.ts), the
// production build in Chromium. A word searched from the channel list shows its hit with the word marked; clicking
// the hit, a message far older than the first page, opens the channel at that message: it is in view, marked and
// focused, with "Jump to latest" below. From the conversation's header, by keyboard alone: the field, Enter, Tab to
// the hit, Enter, and the channel is at that message. The search screens pass axe.
import type { Page } from 'playwright-core';
import { BENCH_PASSWORD, SENDER_EMAIL, seedChannel } from '../drivers/seed';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import { storeSession, withBrowserSession } from './support/session';
import { eventually } from '../__tests__/support/eventually';

/** Waits for what the page does on its own time. */
const until = (check: () => Promise<void>) => eventually(check, { timeoutMs: 15_000, everyMs: 50 });

jest.setTimeout(120_000);

const COUNT = 300;
/** An old message: 260 newer ones come after it, far past the first page (30). */
const OLD = 40;
const OLD_TEXT = 'The rhubarb invoice is attached';
const MINUTE = 60_000;

let origin: string;
const windows = withBrowserSession(
  (started) => {
    origin = started.server.url;
  },
  () => ({
    demo: false,
    seed: (dataDir) =>
      seedChannel(dataDir, {
        handle: 'search-channel',
        title: 'Search channel',
        members: 1,
        memberEmail: () => 'member0@search.qupm',
        messages: {
          count: COUNT,
          spanMs: COUNT * MINUTE,
          endAt: Date.now() - MINUTE,
          text: (i) => (i === OLD ? OLD_TEXT : `Message ${i}`),
        },
      }),
  }),
);

/** Whether the bubble whose text is exactly `text` is inside the list's visible box. */
function inView(page: Page, text: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const box = document.querySelector('.messages__scroller')?.getBoundingClientRect();
    const bubble = [...document.querySelectorAll('.message__text')].find((e) => e.textContent === wanted);
    const top = bubble?.getBoundingClientRect().top;
    return box !== undefined && top !== undefined && top >= box.top && top < box.bottom;
  }, text);
}

/** The text of the message the keyboard's focus is on (the marked one the channel was opened at), or null. */
function focusedMessage(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      document.activeElement?.closest('.message-focus')?.querySelector('.message__text')?.textContent ?? null,
  );
}

async function open(page: Page, url = origin): Promise<void> {
  await storeSession(page, origin, SENDER_EMAIL, BENCH_PASSWORD);
  await page.goto(url);
}

describe('searching messages', () => {
  it('finds an old message from the channel list, marks the word, and opens the channel at it', async () => {
    const page = await windows.newPage({ viewport: { width: 1366, height: 768 } });
    const errors = watchErrors(page);
    await open(page);
    const field = page.getByRole('searchbox', { name: 'Search all your messages' });
    await field.fill('RHUBARB inv');
    await field.press('Enter');

    const hits = page.getByRole('list', { name: 'Messages found for “RHUBARB inv”' });
    const hit = hits.getByRole('link');
    await until(async () => expect(await hit.count()).toBe(1));
    expect(await hit.locator('mark').allTextContents()).toEqual(['rhubarb', 'inv']);
    await until(async () =>
      expect(await page.getByRole('status').filter({ hasText: '1 message found' }).count()).toBe(1),
    );
    await expectAccessible(page, 'search results in the channel list');

    await hit.click();
    await page.waitForURL(/message=/);
    await page.locator('.message-focus .message__text', { hasText: OLD_TEXT }).waitFor();
    await until(async () => expect(await inView(page, OLD_TEXT)).toBe(true));
    await until(async () => expect(await focusedMessage(page)).toBe(OLD_TEXT));
    // Its neighbours came with it; the newest did not.
    expect(await page.locator('.message__text', { hasText: /^Message 39$/ }).count()).toBe(1);
    expect(
      await page.locator('.message__text', { hasText: new RegExp(`^Message ${COUNT - 1}$`) }).count(),
    ).toBe(0);
    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await until(async () => expect(await inView(page, `Message ${COUNT - 1}`)).toBe(true));
    expect(errors).toEqual([]);
  });

  it("searches one channel from the conversation's header, by keyboard alone", async () => {
    const page = await windows.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchErrors(page);
    await open(page);
    await page.getByRole('link', { name: /Search channel/ }).click();
    await page.getByText(`Message ${COUNT - 1}`, { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Search in this channel' }).click();
    const field = page.getByRole('searchbox', { name: 'Search this channel' });
    await field.focus();
    await page.keyboard.type('message 12');
    await page.keyboard.press('Enter');
    const hits = page.getByRole('list', { name: 'Messages found for “message 12”' }).getByRole('link');
    // Message 12 and Message 120-129, newest first.
    await until(async () => expect(await hits.count()).toBe(11));
    expect(await hits.last().locator('mark').allTextContents()).toEqual(['Message', '12']);
    await expectAccessible(page, 'search results in a conversation');

    // Tab past the Search button to the hits, then to the last: Message 12.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await until(async () =>
      expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Message 129'),
    );
    await hits.last().focus();
    await page.keyboard.press('Enter');
    await page.locator('.message-focus .message__text', { hasText: /^Message 12$/ }).waitFor();
    await until(async () => expect(await inView(page, 'Message 12')).toBe(true));
    await until(async () => expect(await focusedMessage(page)).toBe('Message 12'));
    // The panel closed as the hit opened.
    await until(async () =>
      expect(await page.getByRole('searchbox', { name: 'Search this channel' }).count()).toBe(0),
    );
    expect(errors).toEqual([]);
  });

  it('says so when nothing is found, and refuses a text too long in words', async () => {
    const page = await windows.newPage({ viewport: { width: 1366, height: 768 } });
    await open(page);
    const field = page.getByRole('searchbox', { name: 'Search all your messages' });
    await field.fill('"*" NEAR(');
    await field.press('Enter');
    await page.getByText('No messages found for “"*" NEAR(”.').waitFor();
    await field.fill('x'.repeat(300));
    await field.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Search for at most 200 characters.' }).waitFor();
  });
});
