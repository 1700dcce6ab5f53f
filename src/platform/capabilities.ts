// Whether this browser can receive push at all, and if not, what it lacks. The result is plain data so it can
// sit in the Redux store (STYLE 5) and be shown in diagnostics.

// spec §5: push support requires service worker, push manager, Notification API, fetch and IndexedDB.
export type PushCapability = 'serviceWorker' | 'pushManager' | 'notification' | 'fetch' | 'indexedDb';

/** The notification permission as the app reads it: the browser's three answers, or no Notification API at all. */
export type PermissionState = 'default' | 'granted' | 'denied' | 'unsupported';

export interface PushSupport {
  supported: boolean;
  missing: PushCapability[];
}

/** The globals push depends on; pass the window (or globalThis) itself so its getters are read here. */
export interface PushGlobals {
  navigator?: unknown;
  PushManager?: unknown;
  Notification?: unknown;
  fetch?: unknown;
  indexedDB?: unknown;
}

const isPresent = (value: unknown): boolean => value !== undefined && value !== null;

// In spec order, so `missing` always lists capabilities in the same order.
const CHECKS: ReadonlyArray<readonly [PushCapability, (g: PushGlobals) => boolean]> = [
  [
    'serviceWorker',
    (g) => {
      const nav = g.navigator;
      // `in` and not a read: reading navigator.serviceWorker throws in some private modes even where it exists.
      return typeof nav === 'object' && nav !== null && 'serviceWorker' in nav;
    },
  ],
  ['pushManager', (g) => isPresent(g.PushManager)],
  ['notification', (g) => isPresent(g.Notification)],
  ['fetch', (g) => typeof g.fetch === 'function'],
  ['indexedDb', (g) => isPresent(g.indexedDB)],
];

function has(g: PushGlobals, check: (g: PushGlobals) => boolean): boolean {
  try {
    return check(g);
  } catch {
    // A getter that throws (Firefox private windows throw from indexedDB, sandboxed frames from more) means
    // the capability cannot be used, which for push is the same as missing.
    return false;
  }
}

/** Which of the capabilities push needs are missing from the given globals. */
export function detectPushSupport(g: PushGlobals): PushSupport {
  const missing = CHECKS.filter(([, check]) => !has(g, check)).map(([capability]) => capability);
  return { supported: missing.length === 0, missing };
}

/** Push support of the running browser (or worker); never throws. */
export function browserPushSupport(): PushSupport {
  return detectPushSupport(globalThis);
}
