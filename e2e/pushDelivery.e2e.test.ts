// Each push reaches the person exactly once (QUALITY.md): pushed with the DevTools protocol to the real
// worker of the real build, served by the real server, with 0, 1 and 2 tabs open.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitForServiceWorkerControl, watchErrors } from './support/browser';
import {
  deliverPush,
  notificationsOnScreen,
  pushPayload,
  pushTarget,
  useRealFocus,
  waitForNotifications,
  waitForPushesHandled,
} from './support/push';
import type { RunningServer } from './support/server';
import { submitSignIn, withBrowserSession } from './support/session';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
withBrowserSession((started) => ({ server, browser } = started));

beforeEach(async () => {
  context = await browser.newContext();
  await context.grantPermissions(['notifications'], { origin: server.url });
});

afterEach(async () => {
  await context.close();
});

async function openApp(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await waitForServiceWorkerControl(page);
  return page;
}

/**
 * The app signed in through its form once its worker controls the page, the order a person's first visit has. (A
 * session restored on load instead lets push setup start before the worker is there, which Chromium's incognito
 * contexts answer with a console error, sometimes.)
 */
async function signedInApp(): Promise<Page> {
  const page = await openApp();
  await submitSignIn(page, 'member@qupm.demo');
  await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
  return page;
}

/** A second tab of the app, signed in through the shared session. */
async function secondTab(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
  return page;
}

describe('a push with no tab of the app open', () => {
  it('shows one system notification with the title and body, tagged by the message id', async () => {
    const app = await openApp();
    const other = await context.newPage();
    const target = await pushTarget(context, other, server.url);
    await app.close();
    await deliverPush(target, pushPayload('m-closed'));
    expect(await waitForNotifications(context, 1)).toEqual([
      { title: 'Dana', body: 'Your session notes are ready', tag: 'm-closed' },
    ]);
  });
});

describe('a push with the app open', () => {
  it('shows one in-app notice and no system notification in the one focused tab', async () => {
    const page = await signedInApp();
    const errors = watchErrors(page);
    await useRealFocus(context, [page]);
    await page.bringToFront();
    const target = await pushTarget(context, page, server.url);
    await deliverPush(target, pushPayload('m-one-tab'));
    const notice = page.locator('.notice');
    await notice.waitFor();
    expect(await waitForPushesHandled(page, 1)).toEqual({ shown: 0, inApp: 1, generic: 0, duplicates: 0 });
    expect(await notificationsOnScreen(context)).toEqual([]);
    expect(await notice.count()).toBe(1);
    expect(await notice.innerText()).toContain('Your session notes are ready');
    expect(errors).toEqual([]);
  });

  it('shows the notice in the focused one of two tabs only, and no system notification', async () => {
    const background = await signedInApp();
    const focused = await secondTab();
    await useRealFocus(context, [background, focused]);
    await focused.bringToFront();
    const target = await pushTarget(context, focused, server.url);
    await deliverPush(target, pushPayload('m-two-tabs'));
    await focused.locator('.notice').waitFor();
    expect(await waitForPushesHandled(focused, 1)).toEqual({ shown: 0, inApp: 1, generic: 0, duplicates: 0 });
    expect(await notificationsOnScreen(context)).toEqual([]);
    expect(await focused.locator('.notice').count()).toBe(1);
    expect(await background.locator('.notice').count()).toBe(0);
  });

  it('shows a system notification, and no notice, when no tab of the app has focus', async () => {
    const app = await signedInApp();
    const other = await context.newPage();
    await useRealFocus(context, [app, other]);
    await other.bringToFront();
    const target = await pushTarget(context, other, server.url);
    await deliverPush(target, pushPayload('m-unfocused'));
    expect(await waitForPushesHandled(app, 1)).toEqual({ shown: 1, inApp: 0, generic: 0, duplicates: 0 });
    expect((await notificationsOnScreen(context)).map((n) => n.tag)).toEqual(['m-unfocused']);
    expect(await app.locator('.notice').count()).toBe(0);
  });
});

describe('a repeated message id', () => {
  it('shows nothing the second time in a focused tab', async () => {
    const page = await signedInApp();
    await useRealFocus(context, [page]);
    await page.bringToFront();
    const target = await pushTarget(context, page, server.url);
    await deliverPush(target, pushPayload('m-again'));
    await page.locator('.notice').waitFor();
    await deliverPush(target, pushPayload('m-again'));
    expect(await waitForPushesHandled(page, 2)).toEqual({ shown: 0, inApp: 1, generic: 0, duplicates: 1 });
    expect(await page.locator('.notice').count()).toBe(1);
    expect(await notificationsOnScreen(context)).toEqual([]);
  });

  it('shows no second system notification', async () => {
    const app = await openApp();
    const other = await context.newPage();
    await useRealFocus(context, [app, other]);
    await other.bringToFront();
    const target = await pushTarget(context, other, server.url);
    await deliverPush(target, pushPayload('m-twice'));
    await waitForNotifications(context, 1);
    // The person dismissed it; the same message pushed again must not bring it back.
    const [worker] = context.serviceWorkers();
    await worker!.evaluate(async () => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration };
      for (const n of await scope.registration.getNotifications()) n.close();
    });
    await deliverPush(target, pushPayload('m-twice'));
    expect(await waitForPushesHandled(app, 2)).toEqual({ shown: 1, inApp: 0, generic: 0, duplicates: 1 });
    expect(await notificationsOnScreen(context)).toEqual([]);
  });
});

describe('a push without the app shape', () => {
  it.each([
    ['an empty payload', ''],
    ['text that is not JSON', 'not json {'],
    ['JSON of another shape', JSON.stringify({ hello: 'world' })],
  ])('still shows one notification for %s', async (_label, data) => {
    const app = await openApp();
    const other = await context.newPage();
    await useRealFocus(context, [app, other]);
    await other.bringToFront();
    const target = await pushTarget(context, other, server.url);
    await deliverPush(target, data);
    expect(await waitForPushesHandled(app, 1)).toEqual({ shown: 0, inApp: 0, generic: 1, duplicates: 0 });
    expect(await notificationsOnScreen(context)).toEqual([
      { title: 'QuPM', body: 'You have something new in QuPM.', tag: 'qupm-generic' },
    ]);
  });
});
