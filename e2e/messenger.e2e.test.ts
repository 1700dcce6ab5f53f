// The signed-in home as a messenger, in the real build against the real server, as a new person would check it:
// the message area takes at least 60 % of the window on a laptop, a phone and an iPhone's Safari viewport; a
// channel page has its h1 at every size; at 320×640 a muted channel still shows its messages; an Arabic message
// reads right to left; messages sent from another window show in the tab's title; "Not now" on the
// notifications card survives a reload; and the channel's menu passes axe.
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import { muteStrategyFromHeader, openChannelMenu } from './support/mutes';
import type { RunningServer } from './support/server';
import { signInHome, withBrowserSession } from './support/session';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

const SIZES = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'iPhone Safari', width: 390, height: 664, userAgent: IPHONE_UA },
];

const composer = (page: Page) => page.getByLabel('Message', { exact: true });

async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('.message:not(.message--pending) .message__text', { hasText: text }).waitFor();
}

/** The height of the area that shows messages, as a share of the window's. */
const messageShare = (page: Page): Promise<number> =>
  page.evaluate(() => document.querySelector('.messages')!.getBoundingClientRect().height / innerHeight);

describe('the conversation has the window', () => {
  it.each(SIZES)('at $name ($width×$height) the messages take at least 60 % of it', async (size) => {
    const page = await windows.newPage({
      viewport: { width: size.width, height: size.height },
      ...(size.userAgent ? { userAgent: size.userAgent } : {}),
    });
    const errors = watchErrors(page);
    await signInHome(page, server.url, 'member@qupm.demo');
    // With the notifications card showing on the list side.
    await page.getByRole('heading', { name: 'Get notified on this device' }).waitFor();
    await page.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    await page.getByRole('heading', { level: 1, name: 'Strategy Studio' }).waitFor();
    await page.locator('.message').first().waitFor();
    expect(await messageShare(page)).toBeGreaterThanOrEqual(0.6);
    // One h1 on the page: the channel's.
    expect(await page.locator('h1').allTextContents()).toEqual(['Strategy Studio']);
    // The header is one line: no taller than its controls.
    expect(
      await page.locator('.conversation__head').evaluate((el) => el.getBoundingClientRect().height),
    ).toBeLessThan(60);
    expect(errors).toEqual([]);
  });

  it('at 320×640 a muted channel still shows its messages, under a one-line header', async () => {
    const page = await windows.newPage({ viewport: { width: 320, height: 640 } });
    await signInHome(page, server.url, 'member@qupm.demo');
    await muteStrategyFromHeader(page);
    // The menu closed, the header says "muted" with its bell alone.
    await page.getByRole('button', { name: 'Channel menu' }).click();
    await page.getByTestId('header-muted').waitFor();
    expect(await page.getByTestId('header-muted').textContent()).toMatch(/^Muted until /);
    const first = page.locator('.message').last();
    await first.waitFor();
    const box = (await first.boundingBox())!;
    expect(box.height).toBeGreaterThan(0);
    expect(box.y + box.height).toBeLessThanOrEqual(640);
    expect(await messageShare(page)).toBeGreaterThanOrEqual(0.5);
    expect(await page.locator('h1').allTextContents()).toEqual(['Strategy Studio']);
    // Unmuted again from the menu (the next tests count this channel in the title).
    await openChannelMenu(page);
    await page.getByRole('button', { name: /^Muted until / }).click();
    await page.getByRole('button', { name: 'Unmute' }).click();
    await page.getByTestId('header-muted').waitFor({ state: 'detached' });
  });
});

describe('messages from another window', () => {
  it('an Arabic message is laid out right to left, and two unread messages show in the tab title', async () => {
    const member = await windows.newPage({ viewport: { width: 1366, height: 768 } });
    await signInHome(member, server.url, 'member@qupm.demo');
    const strategy = member.locator('.channel-link', { hasText: 'Strategy Studio' });
    await strategy.waitFor();
    // The member's one channel: what the list counts unread before (the demo leaves one), the title follows it.
    const before = Number(
      (await strategy
        .locator('.channel-link__unread')
        .textContent({ timeout: 2000 })
        .catch(() => '0')) ?? 0,
    );

    const consultant = await windows.newPage({ viewport: { width: 1366, height: 768 } });
    await signInHome(consultant, server.url, 'consultant@qupm.demo');
    await consultant.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    await send(consultant, 'مرحبا مورغان، هل لديك وقت غدا؟');
    await send(consultant, 'The numbers are in.');

    // The member looks at the list, not the channel: both are unread, in the list and in the title.
    await strategy.locator('.channel-link__unread', { hasText: String(before + 2) }).waitFor();
    await member.waitForFunction((count) => document.title === `(${count}) QuPM`, before + 2);
    await member.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    const arabic = member.locator('.message__text', { hasText: 'مرحبا مورغان' });
    await arabic.waitFor();
    expect(await arabic.evaluate((p) => getComputedStyle(p).direction)).toBe('rtl');
    const english = member.locator('.message__text', { hasText: 'The numbers are in.' });
    expect(await english.evaluate((p) => getComputedStyle(p).direction)).toBe('ltr');
    // Read now: they leave the title's count.
    await member.waitForFunction(
      (most) => Number(/^\((\d+)\) /.exec(document.title)?.[1] ?? 0) <= most,
      before,
    );
  });
});

describe('the list side', () => {
  it('remembers "Not now" on the notifications card after a reload', async () => {
    const page = await windows.newPage({ viewport: { width: 390, height: 844 } });
    await signInHome(page, server.url, 'member@qupm.demo');
    await page.getByRole('button', { name: 'Not now' }).click();
    await page.getByRole('heading', { name: 'Get notified on this device' }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    await page.locator('.channel-link').first().waitFor();
    expect(await page.getByRole('heading', { name: 'Get notified on this device' }).count()).toBe(0);
  });

  it("passes axe with the channel's menu open, on a phone and a laptop", async () => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1366, height: 768 },
    ]) {
      const page = await windows.newPage({ viewport });
      await signInHome(page, server.url, 'consultant@qupm.demo');
      await expectAccessible(page, `home ${viewport.width}`);
      await page.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
      await openChannelMenu(page);
      await page.getByText(/^Members \(\d+\)$/).waitFor();
      await expectAccessible(page, `channel menu ${viewport.width}`);
    }
  });
});
