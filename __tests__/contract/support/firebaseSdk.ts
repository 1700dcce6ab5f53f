// The Firebase JS SDK's modules, faked at module level for the contract suite (firebaseHarness.ts) by fakes that
// behave like the services behind them — one in-memory Firestore (functions/__tests__/support), a
// Firebase Auth keeping accounts and custom claims, and Cloud Functions that run functions/'s real callables and
// triggers (firebase-functions-test, offline) over the real Firestore repository on that same store. A
// callable's answer and error cross a JSON boundary as on the wire. Firestore rules are not modelled: what they
// alone decide is tested on the emulator (__tests__/rules/emulator).
//
// The test file mocks the SDK with:
//   jest.mock('firebase/app', () => firebaseModules().app) … for auth, firestore, functions and messaging.
import { HttpsError, functionsTest } from '../../../functions/__tests__/support/functionsTest';
import type { CallableRequest } from '../../../functions/__tests__/support/functionsTest';
import { MemTimestamp, StoreError, sentinels } from '../../../functions/__tests__/support/memoryFirestore';
import type {
  Data,
  Filter,
  FilterOp,
  QuerySpec,
  MemoryFirestore,
} from '../../../functions/__tests__/support/memoryFirestore';
import type { createFunctions } from '../../../functions/src/functions';

/** What the SDK throws: an Error with a `code` (and `details` from callables). */
class FirebaseError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'FirebaseError';
  }
}

export interface Account {
  uid: string;
  email: string;
  password: string;
  displayName: string | null;
  claims: Record<string, unknown>;
  /** The User object the SDK hands out, shared as the SDK shares it (updateProfile changes it in place). */
  user?: FakeUser;
}
interface FakeUser {
  uid: string;
  email: string | null;
  displayName: string | null;
}
interface FakeAuth {
  currentUser: FakeUser | null;
  listeners: Set<(user: FakeUser | null) => void>;
}
interface FakeApp {
  name: string;
  auth: FakeAuth;
}

/** The world behind the fakes; one per test, swapped in by createFirebaseHarness. */
export interface Cloud {
  store: MemoryFirestore;
  accounts: Map<string, Account>;
  fns: ReturnType<typeof createFunctions>;
  pending: Set<Promise<unknown>>;
  /** Triggers that threw: settle() rethrows them, so that a failing trigger fails its test. */
  failures: unknown[];
  clock: { now: number };
}
let cloud: Cloud | null = null;

/** Puts the world behind the fakes (null when a test is done with it). */
export function setCloud(next: Cloud | null): void {
  cloud = next;
}
export const current = (): Cloud => {
  if (!cloud) throw new Error('no Firebase harness is running');
  return cloud;
};

/**
 * Runs a trigger after the write that caused it, as Cloud Functions does, on a later turn of the event loop (a
 * trigger starts far later than a client's next request is sent); settle() waits for it.
 */
export function fire(work: () => Promise<unknown>): void {
  const world = current();
  const run: Promise<unknown> = new Promise((resolve) => setTimeout(resolve, 0))
    .then(work)
    .catch((error: unknown) => void world.failures.push(error))
    .finally(() => world.pending.delete(run));
  world.pending.add(run);
}

function userOf(account: Account): FakeUser {
  account.user ??= { uid: account.uid, email: account.email, displayName: account.displayName };
  return account.user;
}

function setUser(auth: FakeAuth, user: FakeUser | null): void {
  auth.currentUser = user;
  for (const listener of [...auth.listeners]) listener(user);
}

// ---- firebase/app and firebase/auth

function appModule() {
  let apps = 0;
  return {
    initializeApp: (): FakeApp => ({
      name: `app-${(apps += 1)}`,
      auth: { currentUser: null, listeners: new Set() },
    }),
  };
}

function authModule() {
  const find = (email: string) => current().accounts.get(email.trim().toLowerCase());
  return {
    indexedDBLocalPersistence: {},
    browserLocalPersistence: {},
    initializeAuth: (app: FakeApp) => app.auth,
    async createUserWithEmailAndPassword(auth: FakeAuth, email: string, password: string) {
      const key = email.trim().toLowerCase();
      if (find(key))
        throw new FirebaseError('auth/email-already-in-use', 'Firebase: Error (auth/email-already-in-use).');
      if (password.length < 6)
        throw new FirebaseError('auth/weak-password', 'Firebase: Error (auth/weak-password).');
      const account: Account = {
        uid: current().store.newId(),
        email: key,
        password,
        displayName: null,
        claims: {},
      };
      current().accounts.set(key, account);
      setUser(auth, userOf(account));
      // Auth's onCreate fires after the account exists, in the background.
      const { fns } = current();
      // The event carries the account as created: without the name updateProfile gives it next.
      const created = functionsTest.auth.makeUserRecord({ uid: account.uid, email: account.email });
      fire(() => functionsTest.wrap(fns.on_user_created)(created));
      return { user: userOf(account) };
    },
    async signInWithEmailAndPassword(auth: FakeAuth, email: string, password: string) {
      const account = find(email);
      if (!account || account.password !== password) {
        throw new FirebaseError('auth/invalid-credential', 'Firebase: Error (auth/invalid-credential).');
      }
      setUser(auth, userOf(account));
      return { user: userOf(account) };
    },
    async signOut(auth: FakeAuth) {
      setUser(auth, null);
    },
    async updateProfile(user: FakeUser, profile: { displayName?: string }) {
      const account = [...current().accounts.values()].find((a) => a.uid === user.uid);
      if (profile.displayName !== undefined) {
        user.displayName = profile.displayName;
        if (account) account.displayName = profile.displayName;
      }
    },
    async getIdTokenResult(user: FakeUser) {
      const account = [...current().accounts.values()].find((a) => a.uid === user.uid);
      return { claims: { ...(account?.claims ?? {}) } };
    },
    onAuthStateChanged(auth: FakeAuth, listener: (user: FakeUser | null) => void) {
      auth.listeners.add(listener);
      listener(auth.currentUser);
      return () => auth.listeners.delete(listener);
    },
  };
}

// ---- firebase/firestore (the modular client API the adapter calls)

interface Ref {
  kind: 'doc' | 'collection';
  app: FakeApp;
  path: string;
  id: string;
}
interface Query {
  kind: 'query';
  app: FakeApp;
  spec: QuerySpec;
}
type Constraint =
  | { where: Filter }
  | { orderBy: { field: string; direction: 'asc' | 'desc' } }
  | { limit: number }
  | { startAfter: unknown[] };

function clientError(error: unknown): unknown {
  if (error instanceof StoreError) return new FirebaseError(error.kind, `Firestore: ${error.message}`);
  return error;
}

async function guard<T>(work: () => T): Promise<T> {
  try {
    return work();
  } catch (error) {
    throw clientError(error);
  }
}

function snapshotOf(id: string, data: Data | undefined) {
  return { id, exists: () => data !== undefined, data: () => data };
}

function firestoreModule() {
  const ref = (kind: Ref['kind'], db: { app: FakeApp }, segments: string[]): Ref => {
    const path = segments.join('/');
    return { kind, app: db.app, path, id: segments.at(-1) ?? '' };
  };
  return {
    Timestamp: MemTimestamp,
    getFirestore: (app: FakeApp) => ({ app }),
    collection: (db: { app: FakeApp }, ...segments: string[]) => ref('collection', db, segments),
    doc: (db: { app: FakeApp }, ...segments: string[]) => ref('doc', db, segments),
    where: (field: string, op: FilterOp, value: unknown): Constraint => ({ where: { field, op, value } }),
    orderBy: (field: string, direction: 'asc' | 'desc' = 'asc'): Constraint => ({
      orderBy: { field, direction },
    }),
    limit: (limit: number): Constraint => ({ limit }),
    startAfter: (...values: unknown[]): Constraint => ({ startAfter: values }),
    serverTimestamp: sentinels.serverTimestamp,
    deleteField: sentinels.deleteField,
    query(base: Ref, ...constraints: Constraint[]): Query {
      const spec: QuerySpec = { collection: base.path, filters: [], orderBy: [] };
      for (const c of constraints) {
        if ('where' in c) spec.filters.push(c.where);
        else if ('orderBy' in c) spec.orderBy.push(c.orderBy);
        else if ('limit' in c) spec.limit = c.limit;
        else spec.startAfter = c.startAfter;
      }
      return { kind: 'query', app: base.app, spec };
    },
    getDoc: (target: Ref) => guard(() => snapshotOf(target.id, current().store.get(target.path))),
    getDocs: (target: Ref | Query) =>
      guard(() => {
        const spec =
          target.kind === 'query' ? target.spec : { collection: target.path, filters: [], orderBy: [] };
        const docs = current()
          .store.query(spec)
          .map((doc) => ({ ...snapshotOf(doc.id, doc.data), data: () => doc.data }));
        return { docs, empty: docs.length === 0, size: docs.length };
      }),
    async addDoc(target: Ref, data: Data) {
      const id = current().store.newId();
      await guard(() => current().store.create(`${target.path}/${id}`, data));
      return { id, path: `${target.path}/${id}` };
    },
    setDoc: (target: Ref, data: Data) => guard(() => current().store.set(target.path, data)),
    updateDoc: (target: Ref, data: Data) => guard(() => current().store.update(target.path, data)),
    deleteDoc: (target: Ref) => guard(() => current().store.delete(target.path)),
    onSnapshot() {
      throw new Error('live listeners are outside the contract suite');
    },
  };
}

// ---- firebase/functions: the callable protocol, in process

function functionsModule() {
  /** JSON across the wire: what the callable protocol can carry, and nothing else. */
  const wire = <T>(value: T): T =>
    value === undefined ? (null as T) : (JSON.parse(JSON.stringify(value)) as T);
  return {
    getFunctions: (app: FakeApp) => ({ app }),
    httpsCallable: (functions: { app: FakeApp }, name: string) => async (data: unknown) => {
      const fn = (current().fns as Record<string, unknown>)[name] as
        { __endpoint?: { callableTrigger?: unknown }; run?: unknown } | undefined;
      if (!fn?.__endpoint?.callableTrigger) throw new FirebaseError('functions/not-found', 'not-found');
      const user = functions.app.auth.currentUser;
      const account = user ? [...current().accounts.values()].find((a) => a.uid === user.uid) : undefined;
      const request = {
        data: wire(data),
        rawRequest: {},
        acceptsStreaming: false,
        ...(user
          ? { auth: { uid: user.uid, token: { email: user.email, ...(account?.claims ?? {}) } } }
          : {}),
      } as unknown as CallableRequest;
      try {
        const wrapped = functionsTest.wrap(fn as (typeof current)['prototype']['fns']['get_invitation']);
        return { data: wire(await wrapped(request)) };
      } catch (error) {
        if (error instanceof HttpsError) {
          throw new FirebaseError(`functions/${error.code}`, error.message, wire(error.details));
        }
        throw new FirebaseError('functions/internal', 'internal');
      }
    },
  };
}

function messagingModule() {
  return {
    isSupported: async () => false,
    getMessaging: () => ({}),
    getToken: async () => {
      throw new Error('push is outside the contract suite');
    },
    deleteToken: async () => false,
  };
}

/** The SDK modules, for the test file's jest.mock factories. */
export function firebaseModules() {
  return {
    app: appModule(),
    auth: authModule(),
    firestore: firestoreModule(),
    functions: functionsModule(),
    messaging: messagingModule(),
  };
}
