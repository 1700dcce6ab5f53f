// A stand-in for the service worker's global scope (src/sw/scope.ts): notifications as the browser keeps them
// (one per tag, a new one with the same tag replaces the old), window clients that record what they are sent,
// the Badging API, and Cache Storage that outlives a "restarted" worker.
import type { NotificationLike, WindowClientLike, WorkerScope } from '@/sw/scope';

export const ORIGIN = 'https://qupm.example';
export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

export interface ShownNotification extends NotificationLike {
  title: string;
  body: string | undefined;
  closed: boolean;
}

export interface FakeWindow extends WindowClientLike {
  url: string;
  focused: boolean;
  visibilityState: string;
  received: unknown[];
  focusCalls: number;
  navigations: string[];
  /** Called with each message the worker posts (a page's reaction). */
  onMessage?: (message: unknown) => void;
}

export function fakeWindow(options: Partial<Pick<FakeWindow, 'url' | 'focused' | 'visibilityState'>> = {}) {
  const win: FakeWindow = {
    url: options.url ?? `${ORIGIN}/`,
    focused: options.focused ?? false,
    visibilityState: options.visibilityState ?? 'visible',
    received: [],
    focusCalls: 0,
    navigations: [],
    postMessage(message) {
      win.received.push(message);
      win.onMessage?.(message);
    },
    async focus() {
      win.focusCalls += 1;
      return win;
    },
    async navigate(url) {
      win.navigations.push(url);
      win.url = url;
      return win;
    },
  };
  return win;
}

export type FakeCaches = Pick<CacheStorage, 'open'> & { stored: Map<string, Map<string, string>> };

export function fakeCaches(): FakeCaches {
  const stored = new Map<string, Map<string, string>>();
  return {
    stored,
    async open(name: string) {
      const entries = stored.get(name) ?? new Map<string, string>();
      stored.set(name, entries);
      return {
        async match(key: RequestInfo | URL) {
          const text = entries.get(String(key));
          return text === undefined ? undefined : new Response(text);
        },
        async put(key: RequestInfo | URL, response: Response) {
          entries.set(String(key), await response.text());
        },
      } as unknown as Cache;
    },
  };
}

export interface FakeScope extends WorkerScope {
  windows: FakeWindow[];
  /** Notifications on screen, in the order shown. */
  notifications: ShownNotification[];
  /** Every showNotification call, replaced ones included. */
  shownCount: number;
  badge: number | 'cleared' | 'untouched';
  opened: string[];
  caches: FakeCaches;
}

export function createScope(
  options: { userAgent?: string; windows?: FakeWindow[]; caches?: FakeCaches } = {},
) {
  const scope: FakeScope = {
    location: { origin: ORIGIN },
    windows: options.windows ?? [],
    notifications: [],
    shownCount: 0,
    badge: 'untouched',
    opened: [],
    caches: options.caches ?? fakeCaches(),
    navigator: {
      userAgent: options.userAgent ?? CHROME_UA,
      async setAppBadge(count?: number) {
        scope.badge = count ?? 0;
      },
      async clearAppBadge() {
        scope.badge = 'cleared';
      },
    },
    registration: {
      async showNotification(title, notificationOptions = {}) {
        scope.shownCount += 1;
        const tag = notificationOptions.tag ?? '';
        const notification: ShownNotification = {
          title,
          body: notificationOptions.body,
          tag,
          data: notificationOptions.data,
          closed: false,
          close() {
            notification.closed = true;
            scope.notifications = scope.notifications.filter((n) => n !== notification);
          },
        };
        scope.notifications = [
          ...scope.notifications.filter((n) => tag === '' || n.tag !== tag),
          notification,
        ];
      },
      async getNotifications() {
        return scope.notifications;
      },
    },
    clients: {
      async matchAll() {
        return scope.windows;
      },
      async openWindow(url) {
        scope.opened.push(url);
        return null;
      },
    },
  };
  return scope;
}
