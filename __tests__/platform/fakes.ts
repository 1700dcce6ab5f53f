// Test doubles for the platform tests: an in-memory KeyValueStore that records what is done to it and can be
// told to fail the way browsers do, and a way to put a browser global in place for one test.
import type { KeyValueStore } from '@/platform';

export type StoreOperation = 'get' | 'set' | 'remove';

export interface FakeStore extends KeyValueStore {
  /** What the store holds now, as a plain object. */
  contents(): Record<string, string>;
  reads: string[];
  writes: Array<[string, string]>;
  removals: string[];
}

/** A store holding `initial`; each operation listed in `failOn` throws as a blocked or full browser storage. */
export function createFakeStore(
  initial: Record<string, string> = {},
  failOn: StoreOperation[] = [],
): FakeStore {
  const data = new Map(Object.entries(initial));
  const fail = (operation: StoreOperation) => {
    if (!failOn.includes(operation)) return;
    throw operation === 'set'
      ? new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      : new DOMException('The operation is insecure.', 'SecurityError');
  };
  const store: FakeStore = {
    reads: [],
    writes: [],
    removals: [],
    contents: () => Object.fromEntries(data),
    getItem(key) {
      store.reads.push(key);
      fail('get');
      return data.get(key) ?? null;
    },
    setItem(key, value) {
      store.writes.push([key, value]);
      fail('set');
      data.set(key, value);
    },
    removeItem(key) {
      store.removals.push(key);
      fail('remove');
      data.delete(key);
    },
  };
  return store;
}

const installed: Array<{ name: string; previous: PropertyDescriptor | undefined }> = [];

/** Defines a global (window, navigator, location, ...) until `restoreGlobals` runs. */
export function defineGlobal(name: string, descriptor: PropertyDescriptor): void {
  installed.push({ name, previous: Object.getOwnPropertyDescriptor(globalThis, name) });
  Object.defineProperty(globalThis, name, { configurable: true, ...descriptor });
}

/** Puts back every global `defineGlobal` replaced, newest first. */
export function restoreGlobals(): void {
  for (let entry = installed.pop(); entry; entry = installed.pop()) {
    if (entry.previous) Object.defineProperty(globalThis, entry.name, entry.previous);
    else Reflect.deleteProperty(globalThis, entry.name);
  }
}

/** A property getter that throws as a browser does when a sandbox or privacy setting blocks the API. */
export function throwingGetter(): PropertyDescriptor {
  return {
    get() {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    },
  };
}
