// A mute is live in every window of the person, in the real build against the real server: the
// member has two windows open (two sessions of one account); muting Strategy Studio from the conversation header
// in one shows it muted in the other's channel list without a reload, unmuting likewise, and a window whose
// connection was down while the mute changed shows the change once it is back (the stream's resync).
import type { Page } from 'playwright-core';
import { dropStreams } from '../drivers/chromium';
import type { RunningServer } from './support/server';
import { signInHome, withBrowserSession } from './support/session';
import type { BrowserWindow } from './support/session';
import { muteStrategyFromHeader, openChannelMenu } from './support/mutes';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

/** A window of the member, signed in, on the home screen with its channel list. */
async function memberWindow(): Promise<BrowserWindow> {
  const opened = await windows.openWindow({ viewport: { width: 1366, height: 768 } });
  const { page } = opened;
  await signInHome(page, server.url, 'member@qupm.demo');
  await page.getByRole('link', { name: /Strategy Studio/ }).waitFor();
  return opened;
}

/** The mark of a muted channel in the window's channel list. */
const mutedMark = (page: Page) =>
  page.getByRole('link', { name: /Strategy Studio/ }).locator('.channel-link__muted');

async function unmuteFromHeader(page: Page): Promise<void> {
  await openChannelMenu(page);
  await page.getByRole('button', { name: /^Muted until / }).click();
  await page.getByRole('button', { name: 'Unmute' }).click();
  await openChannelMenu(page);
  await page.getByRole('button', { name: 'Mute', exact: true }).waitFor();
}

describe('a mute in two windows of one account', () => {
  let a: BrowserWindow;
  let b: BrowserWindow;
  beforeAll(async () => {
    a = await memberWindow();
    b = await memberWindow();
  });

  it("shows in the other window's channel list as it happens, and so does the unmute", async () => {
    expect(await mutedMark(b.page).count()).toBe(0);
    await muteStrategyFromHeader(a.page);
    await mutedMark(b.page).waitFor();
    expect(await mutedMark(b.page).textContent()).toMatch(/^Muted until /);

    await unmuteFromHeader(a.page);
    await mutedMark(b.page).waitFor({ state: 'detached' });
  });

  it('reaches a window that was offline once it is back', async () => {
    await b.context.setOffline(true);
    await dropStreams(b.page);
    await muteStrategyFromHeader(a.page);
    // Nothing could reach it meanwhile.
    expect(await mutedMark(b.page).count()).toBe(0);
    await b.context.setOffline(false);
    await mutedMark(b.page).waitFor({ timeout: 30_000 });

    await b.context.setOffline(true);
    await dropStreams(b.page);
    await unmuteFromHeader(a.page);
    expect(await mutedMark(b.page).count()).toBe(1);
    await b.context.setOffline(false);
    await mutedMark(b.page).waitFor({ state: 'detached', timeout: 30_000 });
    // A request window b makes while the test holds it offline fails as offline (a loaded machine gives it time to
    // try to reconnect); any other error still fails the test.
    const offline = (error: string) => error.endsWith('net::ERR_INTERNET_DISCONNECTED');
    expect([...a.errors, ...b.errors].filter((error) => !offline(error))).toEqual([]);
  });
});
