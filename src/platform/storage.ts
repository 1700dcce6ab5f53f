// Web storage that never throws. Browsers throw from storage in ordinary situations: a SecurityError when
// storage is blocked (cookies off, sandboxed iframe), a QuotaExceededError when it is full or in some private
// modes. QuPM treats each of those as "nothing stored" so that no storage failure can break start-up.
import type { StorageKey } from './storageKeys';
import { LOCAL_STORAGE_KEYS } from './storageKeys';

/** The part of the Web Storage interface QuPM uses; a plain object can stand in for it in tests. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The stored string, or null when nothing is stored, there is no store, or reading fails. */
export function readString(store: KeyValueStore | null, key: StorageKey): string | null {
  if (!store) return null;
  try {
    const value = store.getItem(key);
    // A non-conforming store (or a test double) may hand back undefined; only a string counts as stored.
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Whether the value was written. */
export function writeString(store: KeyValueStore | null, key: StorageKey, value: string): boolean {
  if (!store) return false;
  try {
    store.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** Whether the key was removed (removing a key that is not there counts as success). */
export function removeKey(store: KeyValueStore | null, key: StorageKey): boolean {
  if (!store) return false;
  try {
    store.removeItem(key);
    return true;
  } catch {
    return false;
  }
}

function browserStorage(name: 'localStorage' | 'sessionStorage'): KeyValueStore | null {
  try {
    if (typeof window === 'undefined') return null;
    // The property read itself is what throws a SecurityError when storage is blocked.
    return window[name] ?? null;
  } catch {
    return null;
  }
}

/** The page's localStorage, or null when there is no window or access to it is refused. */
export function browserLocalStorage(): KeyValueStore | null {
  return browserStorage('localStorage');
}

/** The page's sessionStorage, or null when there is no window or access to it is refused. */
export function browserSessionStorage(): KeyValueStore | null {
  return browserStorage('sessionStorage');
}

/**
 * Whether the embedded backend's session is stored in this browser. Without one, nobody is signed in here: the
 * first screen can say so at once instead of waiting for the backend's chunk to load and answer.
 */
export function hasStoredLocalSession(store: KeyValueStore | null): boolean {
  return readString(store, LOCAL_STORAGE_KEYS.localSession) !== null;
}
