// The push-token lifecycle (#4) in a real browser against the real server: notification permission granted or
// denied in Chromium, the settings state, the token document on the server, and its removal at sign-out.
// Offline, a real PushManager.subscribe never answers, so the push provider is given a subscription at the
// browser edge: PushManager's subscribe/getSubscription are replaced before the app loads.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { watchErrors } from './support/browser';
import { readDatabase } from './support/server';
import type { RunningServer } from './support/server';
import { signInHome, withBrowserSession } from './support/session';
import { subscriptionToken } from '../drivers/webPushTokens';
import { blockNotifications, fakePushManager } from './support/push';

let server: RunningServer;
let browser: Browser;
withBrowserSession((started) => ({ server, browser } = started));

type PushState = { subscribed: number; unsubscribed: number };
const pushState = (page: Page) =>
  page.evaluate(() => (window as unknown as { __push: () => PushState }).__push());

function tokenRows(uid?: string): Array<{ uid: string; token: string; device_id: string; status: string }> {
  return readDatabase(server, (db) => {
    const sql = 'SELECT uid, token, device_id, status FROM push_tokens' + (uid ? ' WHERE uid = ?' : '');
    return (uid ? db.prepare(sql).all(uid) : db.prepare(sql).all()) as ReturnType<typeof tokenRows>;
  });
}

function uidOf(email: string): string {
  return readDatabase(
    server,
    (db) => (db.prepare('SELECT uid FROM users WHERE email = ?').get(email) as { uid: string }).uid,
  );
}

const signIn = (page: Page, email: string) => signInHome(page, server.url, email);

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('push token lifecycle in Chromium', () => {
  let context: BrowserContext;
  afterEach(() => context?.close());

  it('with notifications allowed: the token document appears, and disappears at sign-out', async () => {
    const { subscription, token } = subscriptionToken('granted');
    context = await browser.newContext();
    await context.grantPermissions(['notifications'], { origin: server.url });
    await context.addInitScript(fakePushManager(subscription));
    const page = await context.newPage();
    const errors = watchErrors(page);
    const uid = uidOf('member@qupm.demo');

    await signIn(page, 'member@qupm.demo');
    await page.goto(server.url + '/settings/notifications');
    await page.getByTestId('push-status').getByText('On: this device receives your notifications').waitFor();
    expect(await page.getByTestId('push-permission').textContent()).toBe('Allowed');
    // spec §8's results in words for people (src/ui/pushWords.ts; the exact ones stay in the state).
    expect(await page.getByTestId('push-last-check').textContent()).toMatch(
      /^All good: (this device is now registered for notifications|this device gets your notifications)/,
    );
    const deviceId = await page.evaluate(() => localStorage.getItem('device_id'));
    expect(tokenRows(uid)).toEqual([{ uid, token, device_id: deviceId, status: 'active' }]);
    expect(await page.evaluate(() => localStorage.getItem('fcm_token'))).toBe(token);

    // A second tab of the same browser: still one document for this (user, device).
    const second = await context.newPage();
    await second.goto(server.url + '/settings/notifications');
    await second
      .getByTestId('push-status')
      .getByText('On: this device receives your notifications')
      .waitFor();
    expect(tokenRows(uid)).toHaveLength(1);
    await second.close();

    await page.goto(server.url + '/logout');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(tokenRows(uid)).toEqual([]);
    expect(await pushState(page)).toEqual({ key: null, subscribed: 1, unsubscribed: 1 });
    expect(await page.evaluate(() => localStorage.getItem('fcm_token'))).toBeNull();
    expect(errors).toEqual([]);
  });

  it('asks from the main screen’s prompt and creates the token once the person allows it', async () => {
    const { subscription, token } = subscriptionToken('prompted');
    context = await browser.newContext();
    await context.addInitScript(fakePushManager(subscription));
    await context.addInitScript(`Notification.requestPermission = () =>
      new Promise((resolve) => { window.answerPermission = resolve; });`);
    const page = await context.newPage();
    const uid = uidOf('consultant@qupm.demo');
    await signIn(page, 'consultant@qupm.demo');
    const prompt = page.getByRole('button', { name: 'Turn on notifications' });
    await prompt.click();
    // Headless Chromium shows no permission prompt: the click's request waits here until the test plays the
    // person answering "Allow" (the browser grants it, then the request resolves).
    await page.waitForFunction(() => 'answerPermission' in window);
    await context.grantPermissions(['notifications'], { origin: server.url });
    await page.evaluate(() =>
      (window as unknown as { answerPermission: (p: string) => void }).answerPermission('granted'),
    );
    await prompt.waitFor({ state: 'detached' });
    await waitFor(() => tokenRows(uid).some((row) => row.token === token), 'the token document');
    await page.goto(server.url + '/logout');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(tokenRows(uid)).toEqual([]);
  });

  it('with notifications blocked: no token, and settings shows the provider’s message', async () => {
    const { subscription } = subscriptionToken('denied');
    context = await browser.newContext();
    await context.addInitScript(fakePushManager(subscription));
    const page = await context.newPage();
    await blockNotifications(context, page, server.url);
    const uid = uidOf('admin@qupm.demo');
    await signIn(page, 'admin@qupm.demo');
    await page.goto(server.url + '/settings/notifications');
    await page.getByTestId('push-status').getByText('Blocked in this browser').waitFor();
    expect(await page.getByTestId('push-permission').textContent()).toBe('Blocked');
    // The app's words and how to allow notifications again, with the provider's own message beside them.
    expect(await page.getByRole('alert').first().textContent()).toBe(
      'Notifications are blocked for QuPM in this browser.',
    );
    expect(await page.getByTestId('push-provider-message').textContent()).toBe(
      'Registration failed - permission denied',
    );
    expect(await page.getByTestId('push-unblock-steps').textContent()).toMatch(/Notifications to Allow/);
    expect(await page.getByRole('button', { name: 'Turn on notifications' }).count()).toBe(0);
    expect(tokenRows(uid)).toEqual([]);
    expect((await pushState(page)).subscribed).toBe(0);
  });
});
