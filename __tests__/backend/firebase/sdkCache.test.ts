// Firestore's cache on the device (src/backend/firebase/sdk.ts): persistent and shared by the tabs in a browser,
// and one person's only. Signing out, or a session that ends, deletes it; another person's is cleared before the
// first read. The SDK is faked at its edge (sdkFakes.ts); the page's IndexedDB is what decides the cache's kind.
import { createFirebaseBackend } from '@/backend/firebase';
import { LOCAL_STORAGE_KEYS } from '@/platform/storageKeys';
import { SIGN_OUT_CLEANUP_TIMEOUT_MS } from '@/timings';
import { createFakeStore, defineGlobal, restoreGlobals } from '../../platform/fakes';
import type { FakeStore } from '../../platform/fakes';
import { CONFIG, docSnapshot, fakeUser, flushPromises, resetSdkFakes } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AuthFake, FakeUser, FirestoreFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');
const OWNER = LOCAL_STORAGE_KEYS.firestoreCacheOwner;
let localStorage: FakeStore;

beforeEach(() => {
  resetSdkFakes();
  localStorage = createFakeStore();
  // A page: its localStorage, and an IndexedDB (the adapter only asks whether there is one).
  defineGlobal('window', { value: { localStorage } });
  defineGlobal('indexedDB', { value: {} });
  fs.getDoc.mockResolvedValue(docSnapshot('u1', { displayName: 'Ann' }));
});
afterEach(() => {
  restoreGlobals();
  jest.useRealTimers();
});

function signedInAs(user: FakeUser | null): void {
  auth.instance.currentUser = user;
}

/** The adapter's own auth listener (registered as auth is first made), to play a session's changes to. */
function authChanges(): (user: FakeUser | null) => void {
  const next = auth.onAuthStateChanged.mock.calls[0]?.[1];
  if (!next) throw new Error('the adapter did not listen to auth changes');
  return next;
}

const order = (mock: jest.Mock) => mock.mock.invocationCallOrder[0] ?? Number.NaN;

describe("Firestore's cache on the device", () => {
  it('is persistent and shared by the tabs where the browser has IndexedDB', async () => {
    signedInAs(fakeUser());
    await createFirebaseBackend(CONFIG).users.getUser('u1');
    expect(fs.persistentLocalCache.mock.calls[0]?.[0]).toStrictEqual({
      tabManager: { kind: 'persistentMultipleTab' },
    });
    expect(fs.initializeFirestore.mock.calls[0]?.[1]).toStrictEqual({
      localCache: fs.persistentLocalCache.mock.results[0]?.value,
    });
  });

  it('stays in memory where there is no IndexedDB', async () => {
    defineGlobal('indexedDB', { value: undefined });
    signedInAs(fakeUser());
    const backend = createFirebaseBackend(CONFIG);
    await backend.users.getUser('u1');
    await backend.auth.signOut();
    expect(fs.initializeFirestore.mock.calls[0]?.[1]).toStrictEqual({});
    expect(fs.clearIndexedDbPersistence).not.toHaveBeenCalled();
  });

  it('is stopped and deleted at sign-out before the session ends, and a new instance serves the next session', async () => {
    signedInAs(fakeUser());
    const backend = createFirebaseBackend(CONFIG);
    await backend.users.getUser('u1');
    await backend.auth.signOut();
    expect(fs.terminate).toHaveBeenCalledWith(fs.db);
    expect(fs.clearIndexedDbPersistence).toHaveBeenCalledWith(fs.db);
    expect(order(fs.terminate)).toBeLessThan(order(fs.clearIndexedDbPersistence));
    expect(order(fs.clearIndexedDbPersistence)).toBeLessThan(order(auth.signOut));
    expect(localStorage.getItem(OWNER)).toBeNull();

    signedInAs(fakeUser({ uid: 'u2' }));
    await backend.users.getUser('u2');
    expect(fs.initializeFirestore).toHaveBeenCalledTimes(2);
  });

  it('is deleted at sign-out also when this page never started Firestore (what an earlier page kept)', async () => {
    signedInAs(fakeUser());
    await createFirebaseBackend(CONFIG).auth.signOut();
    expect(fs.initializeFirestore).toHaveBeenCalledTimes(1);
    expect(order(fs.terminate)).toBeLessThan(order(fs.clearIndexedDbPersistence));
    expect(order(fs.clearIndexedDbPersistence)).toBeLessThan(order(auth.signOut));
  });

  it('never holds a sign-out up: a clearing refused by another tab, or one that hangs, still signs out', async () => {
    signedInAs(fakeUser());
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    fs.clearIndexedDbPersistence.mockRejectedValueOnce(
      Object.assign(new Error('in use by another tab'), { code: 'failed-precondition' }),
    );
    await createFirebaseBackend(CONFIG).auth.signOut();
    expect(auth.signOut).toHaveBeenCalledTimes(1);

    jest.useFakeTimers();
    fs.clearIndexedDbPersistence.mockReturnValueOnce(new Promise<void>(() => undefined));
    const signingOut = createFirebaseBackend(CONFIG).auth.signOut();
    await jest.advanceTimersByTimeAsync(SIGN_OUT_CLEANUP_TIMEOUT_MS - 1);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    await signingOut;
    expect(auth.signOut).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('is deleted when the session ends without this page asking (another tab, a revocation)', async () => {
    signedInAs(fakeUser());
    const backend = createFirebaseBackend(CONFIG);
    await backend.users.getUser('u1');
    const change = authChanges();
    change(fakeUser());
    expect(fs.terminate).not.toHaveBeenCalled();
    change(null);
    await flushPromises();
    expect(fs.terminate).toHaveBeenCalledWith(fs.db);
    expect(fs.clearIndexedDbPersistence).toHaveBeenCalledWith(fs.db);
  });

  it('is not touched as a page starts with nobody signed in', async () => {
    createFirebaseBackend(CONFIG).auth.onAuthStateChanged(() => undefined);
    authChanges()(null);
    await flushPromises();
    expect(fs.initializeFirestore).not.toHaveBeenCalled();
    expect(fs.clearIndexedDbPersistence).not.toHaveBeenCalled();
  });

  it("is cleared before the first read when it holds another person's documents", async () => {
    localStorage.setItem(OWNER, 'someone-else');
    signedInAs(fakeUser());
    await createFirebaseBackend(CONFIG).users.getUser('u1');
    expect(fs.clearIndexedDbPersistence).toHaveBeenCalledWith(fs.db);
    expect(order(fs.clearIndexedDbPersistence)).toBeLessThan(order(fs.getDoc));
    expect(localStorage.getItem(OWNER)).toBe('u1');
  });

  it('is kept across starts for the same person', async () => {
    localStorage.setItem(OWNER, 'u1');
    signedInAs(fakeUser());
    await createFirebaseBackend(CONFIG).users.getUser('u1');
    expect(fs.clearIndexedDbPersistence).not.toHaveBeenCalled();
  });
});
