// Firestore, Functions and Messaging are loaded with import() the first time a port needs them, and each is
// initialised once. Every test starts from a fresh module registry, so `loaded` shows which SDK modules the
// adapter has required so far.

import type * as Adapter from '@/backend/firebase';
import type * as Chunks from '@/platform/chunks';
import type * as FirstScreen from '@/platform/firstScreen';
import { CONFIG, docSnapshot, fakeUser, flushPromises } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AppFake, AuthFake, FirestoreFake, FunctionsFake, MessagingFake } from './sdkFakes';

const mockLoaded: string[] = [];

jest.mock('firebase/app', () => {
  mockLoaded.push('app');
  return jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule();
});
jest.mock('firebase/auth', () => {
  mockLoaded.push('auth');
  return jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule();
});
jest.mock('firebase/firestore', () => {
  mockLoaded.push('firestore');
  return jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule();
});
jest.mock('firebase/functions', () => {
  mockLoaded.push('functions');
  return jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule();
});
jest.mock('firebase/messaging', () => {
  mockLoaded.push('messaging');
  return jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule();
});

beforeEach(() => {
  jest.resetModules();
  mockLoaded.length = 0;
});

function freshBackend() {
  const { createFirebaseBackend } = jest.requireActual<typeof Adapter>('@/backend/firebase');
  return createFirebaseBackend(CONFIG);
}
const sdk = <T extends object>(name: string): T => jest.requireMock<T>(`firebase/${name}`);

describe('lazy loading of the Firebase SDK', () => {
  it('loads only firebase/app and firebase/auth with the adapter', () => {
    freshBackend();
    expect(mockLoaded.sort()).toEqual(['app', 'auth']);
  });

  it('signs in, reads the current user and follows auth changes without loading anything else', async () => {
    const backend = freshBackend();
    sdk<AuthFake>('auth').signInWithEmailAndPassword.mockResolvedValue({ user: fakeUser() });
    await backend.auth.signIn({ email: 'a@b.co', password: 'pw' });
    backend.auth.currentUser();
    backend.auth.onAuthStateChanged(() => undefined);
    await flushPromises();
    expect(mockLoaded.sort()).toEqual(['app', 'auth']);
  });

  it('loads Firestore the first time a document port is used, and nothing else', async () => {
    const backend = freshBackend();
    expect(mockLoaded).not.toContain('firestore');
    // Unstubbed, the read fails; what matters here is what the adapter loaded to make it.
    await backend.users.getUser('u1').catch(() => undefined);
    expect(mockLoaded.sort()).toEqual(['app', 'auth', 'firestore']);
    expect(sdk<FirestoreFake>('firestore').getDoc).toHaveBeenCalledTimes(1);
  });

  it('waits for the first screen before loading Firestore, where the page asks it to', async () => {
    const { createFirebaseBackend } = jest.requireActual<typeof Adapter>('@/backend/firebase');
    const { firstScreenDrawn } = jest.requireActual<typeof FirstScreen>('@/platform/firstScreen');
    const backend = createFirebaseBackend(CONFIG, undefined, { firestoreAfterFirstScreen: true });
    const read = backend.users.getUser('u1').catch(() => undefined);
    await flushPromises();
    expect(mockLoaded).not.toContain('firestore');
    firstScreenDrawn();
    await read;
    expect(mockLoaded).toContain('firestore');
  });

  it('initialises Firestore once, even for calls made before the first load has finished', async () => {
    const backend = freshBackend();
    const subscription = backend.users.subscribeUser('u1', () => undefined);
    const channel = backend.channels.getChannel('ch1');
    const fs = sdk<FirestoreFake>('firestore');
    fs.getDoc.mockResolvedValue(docSnapshot('x'));
    await Promise.all([channel, backend.users.getUser('u1'), backend.pushTokens.deleteToken('u1', 't1')]);
    await flushPromises();
    expect(fs.initializeFirestore).toHaveBeenCalledTimes(1);
    // Node has no IndexedDB: the cache is in memory (sdkCache.test.ts has the persistent one).
    expect(fs.initializeFirestore).toHaveBeenCalledWith(
      sdk<AppFake>('app').initializeApp.mock.results[0]?.value,
      {},
    );
    subscription();
  });

  it('loads Functions only when a callable is called, once', async () => {
    const backend = freshBackend();
    expect(mockLoaded).not.toContain('functions');
    await Promise.all([
      backend.callables.clearPendingNotifications({ userId: 'u1' }).catch(() => undefined),
      backend.invitations.getInvitation('inv1').catch(() => undefined),
    ]);
    expect(mockLoaded.sort()).toEqual(['app', 'auth', 'functions']);
    const fn = sdk<FunctionsFake>('functions');
    expect(fn.getFunctions).toHaveBeenCalledTimes(1);
    expect(fn.callable).toHaveBeenCalledTimes(2);
  });

  it('loads Messaging only when the push provider is used, once', async () => {
    const backend = freshBackend();
    expect(mockLoaded).not.toContain('messaging');
    const options = { vapidKey: 'k', serviceWorkerRegistration: {} as ServiceWorkerRegistration };
    await Promise.all([backend.pushProvider.getToken(options), backend.pushProvider.getToken(options)]);
    expect(mockLoaded.sort()).toEqual(['app', 'auth', 'messaging']);
    expect(sdk<MessagingFake>('messaging').getMessaging).toHaveBeenCalledTimes(1);
  });

  it('tries loading again after a load that failed (a chunk that could not be fetched offline)', async () => {
    const backend = freshBackend();
    const fs = sdk<FirestoreFake>('firestore');
    fs.initializeFirestore.mockImplementationOnce(() => {
      throw Object.assign(new Error('Loading chunk firebase-firestore failed.'), { name: 'ChunkLoadError' });
    });
    await expect(backend.channels.getChannel('ch1')).rejects.toMatchObject({
      name: 'BackendError',
      status: 'UNAVAILABLE',
    });
    fs.getDoc.mockResolvedValue(docSnapshot('ch1'));
    await expect(backend.channels.getChannel('ch1')).resolves.toBeNull();
    expect(fs.initializeFirestore).toHaveBeenCalledTimes(2);
  });

  it('reports an SDK chunk that failed to load, so the spec recovery runs; other failures are not reported', async () => {
    const backend = freshBackend();
    const { onChunkLoadFailure } = jest.requireActual<typeof Chunks>('@/platform/chunks');
    const reported = jest.fn();
    const stop = onChunkLoadFailure(reported);
    const fs = sdk<FirestoreFake>('firestore');
    fs.initializeFirestore.mockImplementationOnce(() => {
      throw new Error('quota exceeded');
    });
    await expect(backend.channels.getChannel('ch1')).rejects.toMatchObject({ name: 'BackendError' });
    expect(reported).not.toHaveBeenCalled();
    fs.initializeFirestore.mockImplementationOnce(() => {
      throw Object.assign(new Error('Loading chunk firebase-firestore failed.'), { name: 'ChunkLoadError' });
    });
    await expect(backend.channels.getChannel('ch1')).rejects.toMatchObject({ name: 'BackendError' });
    expect(reported).toHaveBeenCalledTimes(1);
    stop();
  });
});
