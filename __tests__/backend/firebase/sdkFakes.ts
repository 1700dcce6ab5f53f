// Module fakes of the Firebase SDK at the port edge, for jest.mock factories:
//   jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
// Each function is a jest.fn with a default behaviour that resetSdkFakes() puts back before every test. The fake
// references (collections, docs, queries, constraints) are plain objects, so a test reads which path and which
// constraints a port used straight from the calls.

import type { FirebaseConfig } from '@/backend/firebase';

const defaults: Array<() => void> = [];

/** A jest.fn whose default implementation survives tests that override it. */
function fake<R, A extends unknown[]>(implementation: (...args: A) => R): jest.Mock<R, A> {
  const mock = jest.fn(implementation);
  defaults.push(() => {
    mock.mockReset();
    mock.mockImplementation(implementation);
  });
  return mock;
}

function notStubbed(name: string): () => Promise<never> {
  return () => Promise.reject(new Error(`${name} was called without a stub`));
}

const resets: Array<() => void> = [];

/** Puts every fake's default behaviour and state back. */
export function resetSdkFakes(): void {
  for (const reset of defaults) reset();
  for (const reset of resets) reset();
}

export const CONFIG: FirebaseConfig = {
  apiKey: 'api-key',
  authDomain: 'qupm-test.firebaseapp.com',
  projectId: 'qupm-test',
  appId: '1:123:web:abc',
  messagingSenderId: '123',
  vapidKey: 'config-vapid-key',
  functionsRegion: 'europe-west1',
};

/** What the SDK throws: an Error with a `code` (and, from callables, `details`). */
export class FakeFirebaseError extends Error {
  constructor(
    readonly code: string,
    message = `Firebase: Error (${code}).`,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'FirebaseError';
  }
}

// ---- firebase/app

export function createAppModule() {
  return {
    initializeApp: fake((options: object, name = '[DEFAULT]') => ({
      name,
      options,
      automaticDataCollectionEnabled: false,
    })),
    deleteApp: fake((_app: unknown) => Promise.resolve()),
  };
}
export type AppFake = ReturnType<typeof createAppModule>;

// ---- firebase/auth

export interface FakeUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  /** What the ID token says of the address (email_verified). */
  emailVerified: boolean;
  /** A stand-in for everything else on a Firebase User, which must never reach a caller. */
  refreshToken: string;
}

export function fakeUser(overrides: Partial<FakeUser> = {}): FakeUser {
  return {
    uid: 'u1',
    email: 'ann@example.com',
    displayName: 'Ann',
    emailVerified: true,
    refreshToken: 'secret',
    ...overrides,
  };
}

export interface FakeAuthInstance {
  currentUser: FakeUser | null;
  /** Not part of the SDK: the name of the app it belongs to. */
  appName: string;
}

export function createAuthModule() {
  const instance: FakeAuthInstance & { authStateReady: jest.Mock<Promise<void>, []> } = {
    currentUser: null,
    appName: '[DEFAULT]',
    authStateReady: fake(() => Promise.resolve()),
  };
  /** The Auth objects of other apps than the default one (a detached app's, for a sign-up). */
  const others: FakeAuthInstance[] = [];
  resets.push(() => {
    instance.currentUser = null;
    others.length = 0;
  });
  return {
    /** Not part of the SDK: the Auth object initializeAuth hands out for the default app, whose currentUser a test sets. */
    instance,
    /** Not part of the SDK: the Auth objects it handed out for other apps. */
    others,
    indexedDBLocalPersistence: { type: 'LOCAL', name: 'indexedDB' },
    browserLocalPersistence: { type: 'LOCAL', name: 'localStorage' },
    inMemoryPersistence: { type: 'NONE', name: 'inMemory' },
    browserPopupRedirectResolver: { name: 'popupRedirectResolver' },
    initializeAuth: fake((app: { name?: string } | undefined, _deps?: unknown) => {
      const name = app?.name ?? '[DEFAULT]';
      if (name === '[DEFAULT]') return instance;
      const other: FakeAuthInstance = { currentUser: null, appName: name };
      others.push(other);
      return other;
    }),
    connectAuthEmulator: fake((_auth: unknown, _url: string, _options?: unknown) => undefined),
    createUserWithEmailAndPassword: fake(
      notStubbed('createUserWithEmailAndPassword') as (...args: unknown[]) => Promise<{ user: FakeUser }>,
    ),
    signInWithEmailAndPassword: fake(
      notStubbed('signInWithEmailAndPassword') as (...args: unknown[]) => Promise<{ user: FakeUser }>,
    ),
    signOut: fake((_auth: unknown) => Promise.resolve()),
    sendEmailVerification: fake((_user: unknown) => Promise.resolve()),
    sendPasswordResetEmail: fake((_auth: unknown, _email: string) => Promise.resolve()),
    updateProfile: fake((_user: unknown, _profile: unknown) => Promise.resolve()),
    applyActionCode: fake((_auth: unknown, _code: string) => Promise.resolve()),
    reload: fake((_user: unknown) => Promise.resolve()),
    getIdToken: fake((_user: unknown, _force?: boolean) => Promise.resolve('id-token')),
    getIdTokenResult: fake(
      notStubbed('getIdTokenResult') as (...args: unknown[]) => Promise<{ claims: Record<string, unknown> }>,
    ),
    onAuthStateChanged: fake((_auth: unknown, _next: (user: FakeUser | null) => void) => jest.fn()),
    /** Called back at once with the current user, as the SDK does once the session is known. */
    onIdTokenChanged: fake((_auth: unknown, next: (user: FakeUser | null) => void) => {
      next(instance.currentUser);
      return jest.fn();
    }),
  };
}
export type AuthFake = ReturnType<typeof createAuthModule>;

// ---- firebase/firestore

export class FakeTimestamp {
  constructor(
    readonly seconds: number,
    readonly nanoseconds: number,
  ) {}
  static fromMillis(ms: number): FakeTimestamp {
    return new FakeTimestamp(Math.floor(ms / 1000), (ms % 1000) * 1e6);
  }
  toMillis(): number {
    return this.seconds * 1000 + this.nanoseconds / 1e6;
  }
}

export const SERVER_TIMESTAMP = { serverTimestamp: true };
/** What documentId() hands out (a FieldPath in the SDK). */
export const DOCUMENT_ID = { documentId: true };
export const DELETE_FIELD = { deleteField: true };

export interface FakeRef {
  type: 'collection' | 'doc';
  path: string;
  id: string;
}
export interface FakeQuery {
  type: 'query';
  path: string;
  constraints: unknown[];
}

export interface FakeDocSnapshot {
  id: string;
  exists(): boolean;
  data: jest.Mock<Record<string, unknown> | undefined, [options?: unknown]>;
  metadata: { hasPendingWrites: boolean; fromCache: boolean };
}

/**
 * A document snapshot; without data, one of a document that does not exist. `hasPendingWrites`: it carries this
 * device's writes that the server has not confirmed yet.
 */
export function docSnapshot(
  id: string,
  data?: Record<string, unknown>,
  { hasPendingWrites = false, fromCache = false } = {},
): FakeDocSnapshot {
  return {
    id,
    exists: () => data !== undefined,
    data: jest.fn(() => data),
    metadata: { hasPendingWrites, fromCache },
  };
}

export function querySnapshot(docs: FakeDocSnapshot[]) {
  return { docs, empty: docs.length === 0, size: docs.length };
}

export interface FakeChange {
  type: 'added' | 'modified' | 'removed';
  doc: FakeDocSnapshot;
}

/**
 * A live query snapshot: its changes since the previous one (docChanges() answers them whatever it is asked:
 * the test decides what the snapshot holds), and whether it comes from the cache only.
 */
export function liveSnapshot(changes: FakeChange[], fromCache = false) {
  return {
    docs: changes.filter((c) => c.type !== 'removed').map((c) => c.doc),
    docChanges: jest.fn((_options?: { includeMetadataChanges?: boolean }) => changes),
    metadata: { fromCache, hasPendingWrites: changes.some((c) => c.doc.metadata.hasPendingWrites) },
  };
}

export function createFirestoreModule() {
  const db = { type: 'firestore' };
  const commitBatch = (writes: Array<{ op: string; path: string; data?: Record<string, unknown> }>) =>
    module.commitBatch(writes);
  const ref = (type: FakeRef['type'], segments: string[]): FakeRef => ({
    type,
    path: segments.join('/'),
    id: segments[segments.length - 1] ?? '',
  });
  const module = {
    /** Not part of the SDK: the Firestore instance initializeFirestore hands out. */
    db,
    Timestamp: FakeTimestamp,
    initializeFirestore: fake((_app?: unknown, _settings?: Record<string, unknown>) => db),
    persistentMultipleTabManager: fake(() => ({ kind: 'persistentMultipleTab' })),
    persistentLocalCache: fake((settings?: Record<string, unknown>) => ({ kind: 'persistent', ...settings })),
    terminate: fake((_db: unknown) => Promise.resolve()),
    clearIndexedDbPersistence: fake((_db: unknown) => Promise.resolve()),
    connectFirestoreEmulator: fake((_db: unknown, _host: string, _port: number) => undefined),
    collection: fake((_db: unknown, ...segments: string[]) => ref('collection', segments)),
    doc: fake((_db: unknown, ...segments: string[]) => ref('doc', segments)),
    query: fake((base: FakeRef, ...constraints: unknown[]): FakeQuery => ({
      type: 'query',
      path: base.path,
      constraints,
    })),
    where: fake((field: string, op: string, value: unknown) => ({ where: [field, op, value] })),
    orderBy: fake((field: string, direction = 'asc') => ({ orderBy: [field, direction] })),
    limit: fake((count: number) => ({ limit: count })),
    startAfter: fake((...values: unknown[]) => ({ startAfter: values })),
    documentId: fake(() => DOCUMENT_ID),
    endBefore: fake((...values: unknown[]) => ({ endBefore: values })),
    serverTimestamp: fake(() => SERVER_TIMESTAMP),
    deleteField: fake(() => DELETE_FIELD),
    getDoc: fake(notStubbed('getDoc') as (ref: FakeRef) => Promise<FakeDocSnapshot>),
    getDocs: fake(
      notStubbed('getDocs') as (q: FakeQuery | FakeRef) => Promise<ReturnType<typeof querySnapshot>>,
    ),
    addDoc: fake((_ref: FakeRef, _data: Record<string, unknown>) => Promise.resolve({ id: 'new-id' })),
    setDoc: fake((_ref: FakeRef, _data: Record<string, unknown>) => Promise.resolve()),
    updateDoc: fake((_ref: FakeRef, _data: Record<string, unknown>) => Promise.resolve()),
    deleteDoc: fake((_ref: FakeRef) => Promise.resolve()),
    onSnapshot: fake((..._args: unknown[]) => jest.fn()),
    /** A batch whose writes a test reads from `writes`; commit() answers what `commitBatch` says. */
    writeBatch: fake((_db: unknown) => {
      const writes: Array<{ op: 'set' | 'update' | 'delete'; path: string; data?: Record<string, unknown> }> =
        [];
      const batch = {
        writes,
        set: (ref: FakeRef, data: Record<string, unknown>) =>
          void writes.push({ op: 'set', path: ref.path, data }),
        update: (ref: FakeRef, data: Record<string, unknown>) =>
          void writes.push({ op: 'update', path: ref.path, data }),
        delete: (ref: FakeRef) => void writes.push({ op: 'delete', path: ref.path }),
        commit: () => commitBatch(writes),
      };
      return batch;
    }),
    commitBatch: fake(
      (_writes: Array<{ op: string; path: string; data?: Record<string, unknown> }>): Promise<void> =>
        Promise.resolve(),
    ),
  };
  return module;
}
export type FirestoreFake = ReturnType<typeof createFirestoreModule>;

// ---- firebase/functions

export function createFunctionsModule() {
  const functions = { type: 'functions' };
  /** The callable every httpsCallable hands out; a test stubs its answer. */
  const callable = fake(notStubbed('a callable') as (data: unknown) => Promise<{ data: unknown }>);
  return {
    functions,
    callable,
    getFunctions: fake((_app?: unknown, _region?: string) => functions),
    connectFunctionsEmulator: fake((_functions: unknown, _host: string, _port: number) => undefined),
    httpsCallable: fake((_functions: unknown, _name: string) => callable),
  };
}
export type FunctionsFake = ReturnType<typeof createFunctionsModule>;

// ---- firebase/messaging

export function createMessagingModule() {
  const messaging = { type: 'messaging' };
  return {
    messaging,
    isSupported: fake(() => Promise.resolve(true)),
    getMessaging: fake((_app?: unknown) => messaging),
    getToken: fake((_messaging: unknown, _options?: unknown) => Promise.resolve('fcm-token')),
    deleteToken: fake((_messaging: unknown) => Promise.resolve(true)),
  };
}
export type MessagingFake = ReturnType<typeof createMessagingModule>;

/** Lets pending promise callbacks (lazy loads, listeners starting) run. */
export function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
