// Settings → Admin shows its channels on the very first visit (issue text: "Admin → Channels never loads on the
// first visit"), tried the ways a person meets it, at a phone's size on a slow network (the DevTools protocol's
// network conditions, so the section's chunk and its requests arrive late and out of step with the session's
// restore): signed in through the form and then going there, opening it from Settings' list, and a reload on it.
import type { Page } from 'playwright-core';
import type { RunningServer } from './support/server';
import { signInWithForm, withBrowserSession } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

/** A slow mobile network: 400 ms each way, about 400 kbit/s down, 150 up. */
async function slowNetwork(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 400,
    downloadThroughput: 50_000,
    uploadThroughput: 19_000,
  });
}

/** The admin section's Channels table, with a demo channel in it. */
async function channelsShown(page: Page): Promise<void> {
  const section = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Channels' }) });
  await section.getByText('Strategy Studio').first().waitFor({ timeout: 45_000 });
  expect(await section.getByText('Loading channels…').count()).toBe(0);
}

async function signedInAdmin(): Promise<Page> {
  const page = await windows.newPage({ viewport: { width: 390, height: 844 } });
  await slowNetwork(page);
  await signInWithForm(page, server.url + '/', 'admin@qupm.demo');
  await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor({ timeout: 45_000 });
  return page;
}

describe('Settings → Admin on the first visit, on a slow network at a phone’s size', () => {
  it('shows the channels when the admin goes there just after signing in', async () => {
    const page = await signedInAdmin();
    await page.goto(server.url + '/settings/admin');
    await channelsShown(page);
  });

  it('shows the channels when opened from Settings’ list, without a page load', async () => {
    const page = await signedInAdmin();
    await page.goto(server.url + '/settings');
    await page.getByRole('link', { name: /^Admin/ }).click();
    await channelsShown(page);
  });

  it('shows the channels after a reload on the section', async () => {
    const page = await signedInAdmin();
    await page.goto(server.url + '/settings/admin');
    await channelsShown(page);
    await page.reload();
    await channelsShown(page);
  });
});
