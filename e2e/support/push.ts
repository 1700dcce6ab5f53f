// Pushes for browser tests: the DevTools protocol delivers a push straight to the real service worker
// (ServiceWorker.deliverPushMessage; offline there is no push service), the worker's notifications are read
// with registration.getNotifications(), and its counts through the app's own HEALTH_CHECK.
import type { BrowserContext, CDPSession, Page, Worker } from 'playwright-core';

export interface PushTarget {
  cdp: CDPSession;
  origin: string;
  registrationId: string;
}

interface Registration {
  registrationId: string;
  scopeURL: string;
  isDeleted: boolean;
}

/** How long a browser test waits for the worker to do something before saying what it saw instead. */
const WAIT_MS = 20_000;

/** Polls `read` until `done` says its value is enough; fails with `what` and the last value after WAIT_MS. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Gave up waiting for ${what}; last saw ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A DevTools session on `page` that can push to the app's registration at `${origin}/`. */
export async function pushTarget(context: BrowserContext, page: Page, origin: string): Promise<PushTarget> {
  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, Registration>();
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: Registration[] }) => {
      for (const registration of event.registrations) {
        registrations.set(registration.registrationId, registration);
        if (registration.scopeURL === `${origin}/` && !registration.isDeleted)
          resolve(registration.registrationId);
      }
    });
  });
  await cdp.send('ServiceWorker.enable');
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(
      () =>
        reject(
          new Error(`No registration at ${origin}/ among ${JSON.stringify([...registrations.values()])}`),
        ),
      WAIT_MS,
    ),
  );
  return { cdp, origin, registrationId: await Promise.race([found, timeout]) };
}

export async function deliverPush(target: PushTarget, data: string): Promise<void> {
  await target.cdp.send('ServiceWorker.deliverPushMessage', {
    origin: target.origin,
    registrationId: target.registrationId,
    data,
  });
}

/** ARCHITECTURE.md "Push payload". */
export function pushPayload(messageId: string, title = 'Dana', body = 'Your session notes are ready') {
  return JSON.stringify({
    messageId,
    data: { type: 'message', badge_count: 2, channelId: 'AbCdEfGhIj0123456789' },
    notification: { title, body },
  });
}

async function appWorker(context: BrowserContext): Promise<Worker> {
  const [worker] = context.serviceWorkers();
  return worker ?? context.waitForEvent('serviceworker', { timeout: WAIT_MS });
}

export interface ShownNotification {
  title: string;
  body: string;
  tag: string;
}

/** The system notifications the app's worker has on screen. */
export async function notificationsOnScreen(context: BrowserContext): Promise<ShownNotification[]> {
  const worker = await appWorker(context);
  return worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration };
    const list = await scope.registration.getNotifications();
    return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
  });
}

/** Waits until the worker has `count` notifications on screen, then returns them. */
export async function waitForNotifications(
  context: BrowserContext,
  count: number,
): Promise<ShownNotification[]> {
  return until(
    `${count} notification(s) on screen`,
    () => notificationsOnScreen(context),
    (list) => list.length >= count,
  );
}

export interface PushCounts {
  shown: number;
  inApp: number;
  generic: number;
  duplicates: number;
}

/** The worker's push counts, asked over the app's protocol (HEALTH_CHECK) from an open page of the app. */
export async function pushCounts(page: Page): Promise<PushCounts> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const answer = await new Promise<{ pushes: PushCounts }>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data as { pushes: PushCounts });
      registration.active!.postMessage({ type: 'HEALTH_CHECK', timestamp: Date.now() }, [channel.port2]);
    });
    return answer.pushes;
  });
}

/** Waits until the worker has finished handling `total` pushes (shown, in-app, generic or repeated). */
export async function waitForPushesHandled(page: Page, total: number): Promise<PushCounts> {
  return until(
    `the worker to handle ${total} push(es)`,
    () => pushCounts(page),
    (counts) => counts.shown + counts.inApp + counts.generic + counts.duplicates >= total,
  );
}

/** Playwright tells every page it has focus; the focus tests need the browser's real focus instead. */
export async function useRealFocus(context: BrowserContext, pages: Page[]): Promise<void> {
  for (const page of pages) {
    const session = await context.newCDPSession(page);
    await session.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  }
}

/**
 * The browser's push subscription, as a push service would hand it out. Like a real one it outlives a reload of
 * the tab (kept in session storage); counts subscribe and unsubscribe calls.
 */
export function fakePushManager(subscription: object): string {
  return `(() => {
    const json = ${JSON.stringify({ ...subscription, expirationTime: null })};
    const KEY = '__fakePush';
    const load = () => JSON.parse(sessionStorage.getItem(KEY) || '{"key":null,"subscribed":0,"unsubscribed":0}');
    const save = (state) => sessionStorage.setItem(KEY, JSON.stringify(state));
    const make = (state) => state.key === null ? null : {
      endpoint: json.endpoint,
      options: { applicationServerKey: Uint8Array.from(state.key).buffer },
      toJSON: () => json,
      unsubscribe: async () => { const s = load(); s.key = null; s.unsubscribed += 1; save(s); return true; },
    };
    window.__push = () => load();
    PushManager.prototype.subscribe = async function (options) {
      const state = load();
      state.subscribed += 1;
      state.key = Array.from(new Uint8Array(options.applicationServerKey.buffer ?? options.applicationServerKey));
      save(state);
      return make(state);
    };
    PushManager.prototype.getSubscription = async function () { return make(load()); };
  })();`;
}

/** Blocks notifications for `origin` in the page's browser context, as a person who chose "Block" has. */
export async function blockNotifications(context: BrowserContext, page: Page, origin: string): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.send('Browser.setPermission', {
    permission: { name: 'notifications' },
    setting: 'denied',
    origin,
    browserContextId: targetInfo.browserContextId,
  });
}
