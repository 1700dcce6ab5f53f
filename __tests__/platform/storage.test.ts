import {
  LOCAL_STORAGE_KEYS,
  SESSION_STORAGE_KEYS,
  browserLocalStorage,
  browserSessionStorage,
  readString,
  removeKey,
  writeString,
  hasStoredLocalSession,
} from '@/platform';
import type { KeyValueStore } from '@/platform';
import { createFakeStore, defineGlobal, restoreGlobals, throwingGetter } from './fakes';

afterEach(restoreGlobals);

describe('storage keys', () => {
  it('uses the local storage key names of spec §3, plus the local backend session, the token record and the Firestore cache owner', () => {
    expect(Object.values(LOCAL_STORAGE_KEYS).sort()).toEqual(
      [
        'qupm_session',
        'qupm_firestore_cache_owner',
        'device_id',
        'enable_update_notifications',
        'fcmToken',
        'fcm_refresh_needed_after_sw_update',
        'fcm_token',
        'fcm_token_record',
        'force_version_check',
        'last_app_start',
        'app_restarts',
        'version_update_pending',
      ].sort(),
    );
  });

  it('uses the session storage key name of spec §3', () => {
    expect(SESSION_STORAGE_KEYS).toEqual({ chunkErrorReloaded: 'chunk_error_reloaded' });
  });
});

describe('readString', () => {
  it('returns the stored value', () => {
    const store = createFakeStore({ last_app_start: '1700000000000' });
    expect(readString(store, 'last_app_start')).toBe('1700000000000');
  });

  it('returns null when nothing is stored under the key', () => {
    expect(readString(createFakeStore(), 'last_app_start')).toBeNull();
  });

  it('returns null when there is no store', () => {
    expect(readString(null, 'last_app_start')).toBeNull();
  });

  it('returns null instead of throwing when storage is blocked', () => {
    const store = createFakeStore({ last_app_start: '1' }, ['get']);
    expect(readString(store, 'last_app_start')).toBeNull();
  });

  it('returns null when a non-conforming store hands back something other than a string', () => {
    const store = {
      getItem: () => undefined,
      setItem: () => {},
      removeItem: () => {},
    } as unknown as KeyValueStore;
    expect(readString(store, 'last_app_start')).toBeNull();
  });
});

describe('writeString', () => {
  it('stores the value and reports success', () => {
    const store = createFakeStore();
    expect(writeString(store, 'force_version_check', 'true')).toBe(true);
    expect(store.contents()).toEqual({ force_version_check: 'true' });
  });

  it('reports failure when there is no store', () => {
    expect(writeString(null, 'force_version_check', 'true')).toBe(false);
  });

  it('reports failure instead of throwing when storage is full', () => {
    const store = createFakeStore({}, ['set']);
    expect(writeString(store, 'force_version_check', 'true')).toBe(false);
    expect(store.contents()).toEqual({});
  });
});

describe('removeKey', () => {
  it('removes the key and leaves the others', () => {
    const store = createFakeStore({ version_update_pending: 'true', force_version_check: 'true' });
    expect(removeKey(store, 'version_update_pending')).toBe(true);
    expect(store.contents()).toEqual({ force_version_check: 'true' });
  });

  it('reports success when the key was not there', () => {
    expect(removeKey(createFakeStore(), 'version_update_pending')).toBe(true);
  });

  it('reports failure when there is no store', () => {
    expect(removeKey(null, 'version_update_pending')).toBe(false);
  });

  it('reports failure instead of throwing when storage is blocked', () => {
    const store = createFakeStore({ version_update_pending: 'true' }, ['remove']);
    expect(removeKey(store, 'version_update_pending')).toBe(false);
    expect(store.contents()).toEqual({ version_update_pending: 'true' });
  });
});

describe.each([
  ['browserLocalStorage', browserLocalStorage, 'localStorage'],
  ['browserSessionStorage', browserSessionStorage, 'sessionStorage'],
] as const)('%s', (_name, getStorage, property) => {
  it('returns null when there is no window', () => {
    expect(getStorage()).toBeNull();
  });

  it("returns the window's storage", () => {
    const storage = createFakeStore();
    defineGlobal('window', { value: { [property]: storage } });
    expect(getStorage()).toBe(storage);
  });

  it('returns null when reading the storage property throws a SecurityError', () => {
    defineGlobal('window', { value: Object.defineProperty({}, property, throwingGetter()) });
    expect(getStorage()).toBeNull();
  });

  it('returns null when the window has no such storage', () => {
    defineGlobal('window', { value: {} });
    expect(getStorage()).toBeNull();
  });
});

describe('hasStoredLocalSession', () => {
  it('tells whether the embedded backend’s session is stored (then nobody is known signed out)', () => {
    expect(hasStoredLocalSession(createFakeStore({ qupm_session: '{"x":1}' }))).toBe(true);
    expect(hasStoredLocalSession(createFakeStore())).toBe(false);
    expect(hasStoredLocalSession(null)).toBe(false);
    // A store that cannot be read is read as "nothing stored", like every other storage failure.
    expect(hasStoredLocalSession(createFakeStore({ qupm_session: 'x' }, ['get']))).toBe(false);
  });
});
