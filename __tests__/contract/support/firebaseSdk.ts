// The Firebase JS SDK's modules, faked at module level for the contract suite (firebaseHarness.ts) by fakes that
// behave like the services behind them — one in-memory Firestore (functions/__tests__/support), a
// Firebase Auth keeping accounts and custom claims, and Cloud Functions that run functions/'s real callables and
// triggers (firebase-functions-test, offline) over the real Firestore repository on that same store. A
// callable's answer and error cross a JSON boundary as on the wire. Of Firestore's rules the blocks the adapter's
// behaviour depends on are modelled (rulesModel.ts: messages, channels and their handles, token documents, upload
// records, revoked sessions); the rest is tested on the emulator (__tests__/rules/emulator). Firestore's client is modelled below as far as the adapter relies on it:
// latency-compensated writes, live queries with their metadata, and a network switch per app.
//
// The test file mocks the SDK with:
//   jest.mock('firebase/app', () => firebaseModules().app) … for auth, firestore, functions and messaging.
import { HttpsError, fakeIdToken, functionsTest } from '../../../functions/__tests__/support/functionsTest';
import type { CallableRequest } from '../../../functions/__tests__/support/functionsTest';
import {
  DOCUMENT_ID,
  MemTimestamp,
  PendingServerTimestamp,
  StoreError,
  clone,
  runQuery,
  sentinels,
} from '../../../functions/__tests__/support/memoryFirestore';
import type {
  Data,
  Filter,
  FilterOp,
  QuerySpec,
  MemoryFirestore,
  StoredDoc,
} from '../../../functions/__tests__/support/memoryFirestore';
import type { createFunctions } from '../../../functions/src/functions';
import {
  attachmentObjectOf,
  mayCreateObject,
  mayDeleteObject,
  mayReadCollection,
  mayReadObject,
  mayReadMessages,
  mayReadUpload,
  mayWriteMessage,
  mayWriteToken,
  mayWriteTyping,
  typingChannelOf,
  mayWriteUpload,
  messagesChannelOf,
  sessionStands,
  uploadRecordOf,
} from './rulesModel';
import type { RulesContext, StorageObject } from './rulesModel';

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
  /** Whether the email is confirmed (the ID token's email_verified): a new password account's is not. */
  emailVerified: boolean;
  /** How many confirmation emails were asked for (sendEmailVerification). */
  verificationsSent?: number;
  /**
   * The action codes Firebase Auth mailed this account: confirmation (verifyEmail, 3 days as Firebase's
   * are) and password reset (resetPassword, 1 hour), newest last.
   */
  mailed?: MailedCode[];
  /**
   * The User objects the SDK handed out, one per signed-in app as each app of the SDK keeps its own (updateProfile
   * changes the one it is given in place).
   */
  users?: FakeUser[];
  /** When the password was last proven (sign-in, sign-up, re-authentication): the ID token's auth_time. */
  authTime?: number;
  /** When its sessions were last revoked (revokeRefreshTokens, or a change of password). */
  revokedAt?: number;
}
export interface MailedCode {
  mode: 'verifyEmail' | 'resetPassword' | 'verifyAndChangeEmail';
  /** The address it was mailed to (a new address, for a change of email). */
  to: string;
  code: string;
  expiresAt: number;
  used: boolean;
}
interface FakeUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  /** As the SDK's User: what Firebase Auth said at sign-in or at the last reload(). */
  emailVerified: boolean;
}
interface FakeAuth {
  currentUser: FakeUser | null;
  /** The SDK's: resolves once the stored session is restored (here it always is). */
  authStateReady(): Promise<void>;
  listeners: Set<(user: FakeUser | null) => void>;
  /** onIdTokenChanged's: told at sign-in and sign-out, and when a token is refreshed (getIdToken(user, true)). */
  tokenListeners: Set<(user: FakeUser | null) => void>;
  /** When this app's session signed in (its ID token's auth_time, read back by revocation checks). */
  signedInAt?: number;
}
export interface FakeApp {
  name: string;
  auth: FakeAuth;
  /** Its Firestore client, made the first time the app uses Firestore. */
  firestore?: Client;
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
  /** Every app initialised, in order (the harness finds a backend's app by it). */
  apps: FakeApp[];
  /** Cloud Storage's objects by path (attachments). */
  objects: Map<string, StorageObject & { data: Uint8Array<ArrayBuffer> }>;
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

/** Which app's session each User object is (its ID token's auth_time is that session's). */
const sessionOf = new WeakMap<FakeUser, FakeAuth>();

/** A new session of `account` in the app of `auth`: a User object of its own. */
function userOf(account: Account, auth: FakeAuth): FakeUser {
  const user: FakeUser = {
    uid: account.uid,
    email: account.email,
    displayName: account.displayName,
    emailVerified: account.emailVerified,
  };
  (account.users ??= []).push(user);
  sessionOf.set(user, auth);
  return user;
}

/** When the session of this User object began (sign-in or re-authentication), epoch ms. */
export function sessionStartOf(user: FakeUser): number {
  return sessionOf.get(user)?.signedInAt ?? 0;
}

function setUser(auth: FakeAuth, user: FakeUser | null): void {
  auth.currentUser = user;
  auth.signedInAt = current().clock.now;
  for (const listener of [...auth.listeners, ...auth.tokenListeners]) listener(user);
}

// ---- firebase/app and firebase/auth

function appModule() {
  let apps = 0;
  return {
    initializeApp: (): FakeApp => {
      const app: FakeApp = {
        name: `app-${(apps += 1)}`,
        auth: {
          currentUser: null,
          listeners: new Set(),
          tokenListeners: new Set(),
          authStateReady: () => Promise.resolve(),
        },
      };
      current().apps.push(app);
      return app;
    },
    async deleteApp(app: FakeApp) {
      const all = current().apps;
      if (all.includes(app)) all.splice(all.indexOf(app), 1);
    },
  };
}

function authModule() {
  const find = (email: string) => current().accounts.get(email.trim().toLowerCase());
  const mail = (account: Account, mode: MailedCode['mode'], ttl: number, to = account.email): void => {
    (account.mailed ??= []).push({
      mode,
      to,
      code: `${mode}-${current().store.newId()}${current().store.newId()}`,
      expiresAt: current().clock.now + ttl,
      used: false,
    });
  };
  const redeem = (
    code: string,
    mode: MailedCode['mode'] | MailedCode['mode'][],
  ): { account: Account; mailed: MailedCode } => {
    const modes = typeof mode === 'string' ? [mode] : mode;
    for (const account of current().accounts.values()) {
      const mailed = account.mailed?.find((m) => m.code === code && modes.includes(m.mode));
      if (!mailed) continue;
      if (mailed.used)
        throw new FirebaseError('auth/invalid-action-code', 'Firebase: Error (auth/invalid-action-code).');
      if (mailed.expiresAt <= current().clock.now)
        throw new FirebaseError('auth/expired-action-code', 'Firebase: Error (auth/expired-action-code).');
      mailed.used = true;
      return { account, mailed };
    }
    throw new FirebaseError('auth/invalid-action-code', 'Firebase: Error (auth/invalid-action-code).');
  };
  return {
    indexedDBLocalPersistence: {},
    browserLocalPersistence: {},
    inMemoryPersistence: {},
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
        emailVerified: false,
      };
      account.authTime = current().clock.now;
      current().accounts.set(key, account);
      const user = userOf(account, auth);
      setUser(auth, user);
      // Auth's onCreate fires after the account exists, in the background.
      const { fns } = current();
      // The event carries the account as created: without the name updateProfile gives it next.
      const created = functionsTest.auth.makeUserRecord({ uid: account.uid, email: account.email });
      fire(() => functionsTest.wrap(fns.on_user_created)(created));
      return { user };
    },
    async sendEmailVerification(user: FakeUser) {
      const account = [...current().accounts.values()].find((a) => a.uid === user.uid);
      if (account) {
        account.verificationsSent = (account.verificationsSent ?? 0) + 1;
        mail(account, 'verifyEmail', 3 * 24 * 60 * 60 * 1000);
      }
    },
    async sendPasswordResetEmail(_auth: FakeAuth, email: string) {
      // Email enumeration protection (on by default): nothing is said of an unknown address.
      const account = find(email);
      if (account) mail(account, 'resetPassword', 60 * 60 * 1000);
    },
    async applyActionCode(_auth: FakeAuth, code: string) {
      const { account, mailed } = redeem(code, ['verifyEmail', 'verifyAndChangeEmail']);
      if (mailed.mode === 'verifyAndChangeEmail') {
        if (find(mailed.to))
          throw new FirebaseError(
            'auth/email-already-in-use',
            'Firebase: Error (auth/email-already-in-use).',
          );
        current().accounts.delete(account.email);
        account.email = mailed.to;
        current().accounts.set(mailed.to, account);
        for (const user of account.users ?? []) user.email = mailed.to;
      }
      account.emailVerified = true;
    },
    async verifyBeforeUpdateEmail(user: FakeUser, newEmail: string) {
      const account = [...current().accounts.values()].find((a) => a.uid === user.uid);
      if (account)
        mail(account, 'verifyAndChangeEmail', 3 * 24 * 60 * 60 * 1000, newEmail.trim().toLowerCase());
    },
    async confirmPasswordReset(_auth: FakeAuth, code: string, newPassword: string) {
      const { account } = redeem(code, 'resetPassword');
      if (newPassword.length < 6)
        throw new FirebaseError('auth/weak-password', 'Firebase: Error (auth/weak-password).');
      account.password = newPassword;
      account.emailVerified = true;
      account.revokedAt = current().clock.now;
      // Firebase Auth revokes the account's refresh tokens: every app signed in as it is signed out.
      for (const app of current().apps)
        if (app.auth.currentUser?.uid === account.uid) setUser(app.auth, null);
    },
    async reload(user: FakeUser) {
      const account = [...current().accounts.values()].find((a) => a.uid === user.uid);
      if (account) user.emailVerified = account.emailVerified;
    },
    async getIdToken(user: FakeUser, forceRefresh = false) {
      if (forceRefresh) {
        for (const app of current().apps) {
          if (app.auth.currentUser?.uid !== user.uid) continue;
          for (const listener of [...app.auth.tokenListeners]) listener(app.auth.currentUser);
        }
      }
      return `id-token-${user.uid}`;
    },
    async signInWithEmailAndPassword(auth: FakeAuth, email: string, password: string) {
      const account = find(email);
      if (!account || account.password !== password) {
        throw new FirebaseError('auth/invalid-credential', 'Firebase: Error (auth/invalid-credential).');
      }
      account.authTime = current().clock.now;
      const user = userOf(account, auth);
      setUser(auth, user);
      return { user };
    },
    EmailAuthProvider: {
      credential: (email: string, password: string) => ({ providerId: 'password', email, password }),
    },
    async reauthenticateWithCredential(user: FakeUser, credential: { email: string; password: string }) {
      const account = [...current().accounts.values()].find((a) => a.uid === user.uid);
      if (!account)
        throw new FirebaseError('auth/user-token-expired', 'Firebase: Error (auth/user-token-expired).');
      if (
        account.email !== credential.email.trim().toLowerCase() ||
        account.password !== credential.password
      ) {
        throw new FirebaseError('auth/invalid-credential', 'Firebase: Error (auth/invalid-credential).');
      }
      account.authTime = current().clock.now;
      // A session proven again: its ID token's auth_time is now.
      const session = sessionOf.get(user);
      if (session) session.signedInAt = current().clock.now;
      return { user };
    },
    async signOut(auth: FakeAuth) {
      setUser(auth, null);
    },
    // A new password ends the account's other sessions (Firebase revokes refresh tokens).
    async updatePassword(user: FakeUser, password: string) {
      const account = [...current().accounts.values()].find((a) => a.uid === user.uid);
      if (!account)
        throw new FirebaseError('auth/user-token-expired', 'Firebase: Error (auth/user-token-expired).');
      if (password.length < 6)
        throw new FirebaseError('auth/weak-password', 'Firebase: Error (auth/weak-password).');
      account.password = password;
      // Every session signed in before now is revoked (tokensValidAfterTime moves), as on the Auth emulator; the
      // adapter proves its own session again with the new password and reports the revocation.
      account.revokedAt = current().clock.now;
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
      // auth_time as Firebase Auth writes it in the token: seconds, as a string in the SDK's claims.
      return {
        claims: { ...(account?.claims ?? {}), auth_time: String(Math.floor(sessionStartOf(user) / 1000)) },
      };
    },
    async verifyPasswordResetCode(_auth: FakeAuth, code: string) {
      for (const account of current().accounts.values()) {
        const mailed = account.mailed?.find((m) => m.code === code && m.mode === 'resetPassword');
        if (mailed && !mailed.used && mailed.expiresAt > current().clock.now) return account.email;
      }
      throw new FirebaseError('auth/invalid-action-code', 'Firebase: Error (auth/invalid-action-code).');
    },
    onAuthStateChanged(auth: FakeAuth, listener: (user: FakeUser | null) => void) {
      auth.listeners.add(listener);
      listener(auth.currentUser);
      return () => auth.listeners.delete(listener);
    },
    onIdTokenChanged(auth: FakeAuth, listener: (user: FakeUser | null) => void) {
      auth.tokenListeners.add(listener);
      listener(auth.currentUser);
      return () => auth.tokenListeners.delete(listener);
    },
  };
}

// ---- firebase/firestore (the modular client API the adapter calls)
//
// Each app has a client of its own, as the SDK keeps per Firestore instance: the server is the shared store,
// reached while the app's network is on (disableNetwork / enableNetwork, or the harness's disconnect); a cache
// holds what its live queries last received from the server (the SDK's memory cache with its default eager
// garbage collection keeps no more); the app's own writes apply to its local view at once (hasPendingWrites) and
// go to the server in order, or wait while the network is off. Live queries are raised as the SDK raises them:
// asynchronously, from the cache first when it holds something or the network is off (fromCache), then from the
// server; docChanges() removed, then added, then modified, in query order; a change of metadata alone (fromCache,
// hasPendingWrites) only to a listener that asked for metadata changes, and in docChanges() only when asked
// for too. Not modelled: oldIndex/newIndex, `serverTimestamps: 'previous'` (read as null), listeners that only
// read the cache, waitForPendingWrites, and every rule but the blocks rulesModel.ts transcribes.

/** `documentId()`: the document-id pseudo-field. */
const DOCUMENT_ID_FIELD = { __documentId: true } as const;
type FieldRef = string | typeof DOCUMENT_ID_FIELD;
const fieldName = (field: FieldRef): string => (typeof field === 'string' ? field : DOCUMENT_ID);

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

/** A document as a client sees it: the server's, or with the client's own writes on it (pending). */
interface LocalDoc extends StoredDoc {
  pending: boolean;
}

interface PendingWrite {
  path: string;
  kind: 'set' | 'update' | 'delete';
  data: Data;
  merge: boolean;
  /** The device's clock when written: what a pending server timestamp estimates. */
  localTime: number;
}

const PERMISSION_DENIED = () =>
  new FirebaseError('permission-denied', 'Missing or insufficient permissions.');

function clientError(error: unknown): unknown {
  if (error instanceof StoreError) return new FirebaseError(error.kind, `Firestore: ${error.message}`);
  return error;
}

async function guard<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw clientError(error);
  }
}

/** A document reference's query: its collection, filtered to its id. */
function specOf(target: Ref | Query): QuerySpec {
  if (target.kind === 'query') return target.spec;
  if (target.kind === 'collection') return { collection: target.path, filters: [], orderBy: [] };
  return {
    collection: target.path.split('/').slice(0, -1).join('/'),
    filters: [{ field: DOCUMENT_ID, op: '==', value: target.id }],
    orderBy: [],
  };
}

function inScope(path: string, spec: QuerySpec): boolean {
  const parts = path.split('/');
  return spec.collection !== undefined
    ? parts.slice(0, -1).join('/') === spec.collection
    : parts.at(-2) === spec.collectionGroup;
}

function isSentinelValue(value: unknown): value is { __sentinel: string; elements?: unknown[]; by?: number } {
  return typeof value === 'object' && value !== null && '__sentinel' in value;
}

/** A write applied to the local view, as the SDK does before the server answers. */
function applyLocally(existing: Data | undefined, write: PendingWrite): Data | undefined {
  if (write.kind === 'delete') return undefined;
  if (write.kind === 'update' && existing === undefined) return undefined;
  const next: Data = write.kind === 'update' || write.merge ? { ...(existing ?? {}) } : {};
  for (const [key, value] of Object.entries(write.data)) {
    // An update reads a dotted key as a path into a map ('reactions.uid'), as the SDK does; a set does not.
    const dot = write.kind === 'update' ? key.indexOf('.') : -1;
    if (dot > 0) {
      const head = key.slice(0, dot);
      const inner = next[head];
      const map = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Data) : {};
      next[head] = applyLocally(map, { ...write, data: { [key.slice(dot + 1)]: value } });
      continue;
    }
    if (!isSentinelValue(value)) {
      next[key] = clone(value);
    } else if (value.__sentinel === 'serverTimestamp') {
      next[key] = new PendingServerTimestamp(write.localTime);
    } else if (value.__sentinel === 'delete') {
      delete next[key];
    } else if (value.__sentinel === 'arrayUnion') {
      const items = Array.isArray(next[key]) ? [...(next[key] as unknown[])] : [];
      for (const element of value.elements ?? []) if (!items.includes(element)) items.push(element);
      next[key] = items;
    } else if (value.__sentinel === 'increment') {
      next[key] = (typeof next[key] === 'number' ? (next[key] as number) : 0) + (value.by ?? 0);
    }
  }
  return next;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof MemTimestamp || b instanceof MemTimestamp) {
    return a instanceof MemTimestamp && a.isEqual(b);
  }
  if (a instanceof PendingServerTimestamp || b instanceof PendingServerTimestamp) {
    return (
      a instanceof PendingServerTimestamp &&
      b instanceof PendingServerTimestamp &&
      a.localMillis === b.localMillis
    );
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]))
    );
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => key in b && sameValue((a as Data)[key], (b as Data)[key]))
    );
  }
  return a === b;
}

/** data(options): pending server timestamps as null, or as the local estimate when asked. */
function readData(value: unknown, options: { serverTimestamps?: string } | undefined): unknown {
  if (value instanceof PendingServerTimestamp) {
    return options?.serverTimestamps === 'estimate' ? MemTimestamp.fromMillis(value.localMillis) : null;
  }
  if (value instanceof MemTimestamp) return value;
  if (Array.isArray(value)) return value.map((item) => readData(item, options));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readData(v, options)]));
  }
  return value;
}

function documentSnapshot(app: FakeApp, path: string, doc: LocalDoc | undefined, fromCache: boolean) {
  const id = path.split('/').at(-1) ?? '';
  return {
    id,
    ref: { kind: 'doc' as const, app, path, id },
    exists: () => doc !== undefined,
    data: (options?: { serverTimestamps?: string }) =>
      doc === undefined ? undefined : (readData(doc.data, options) as Data),
    get: (field: string) => (doc === undefined ? undefined : readData(doc.data[field], undefined)),
    metadata: { hasPendingWrites: doc?.pending ?? false, fromCache },
  };
}

interface Change {
  type: 'added' | 'modified' | 'removed';
  doc: LocalDoc;
  /** Only hasPendingWrites changed. */
  metadataOnly: boolean;
}

function querySnapshot(
  app: FakeApp,
  docs: LocalDoc[],
  fromCache: boolean,
  changes: Change[] = docs.map((doc) => ({ type: 'added' as const, doc, metadataOnly: false })),
  listenedWithMetadata = false,
) {
  const snap = (doc: LocalDoc) => documentSnapshot(app, doc.path, doc, fromCache);
  const snaps = docs.map(snap);
  return {
    docs: snaps,
    size: snaps.length,
    empty: snaps.length === 0,
    forEach: (each: (doc: (typeof snaps)[number]) => void) => snaps.forEach(each),
    metadata: { fromCache, hasPendingWrites: docs.some((doc) => doc.pending) },
    docChanges(options: { includeMetadataChanges?: boolean } = {}) {
      if (options.includeMetadataChanges && !listenedWithMetadata) {
        throw new FirebaseError(
          'invalid-argument',
          'To include metadata changes with your document changes, you must also pass { includeMetadataChanges:true } to onSnapshot().',
        );
      }
      return changes
        .filter((change) => options.includeMetadataChanges === true || !change.metadataOnly)
        .map((change) => ({ type: change.type, doc: snap(change.doc) }));
    },
  };
}

interface Observer {
  next: (snapshot: never) => void;
  error?: (error: unknown) => void;
}

/** One onSnapshot: what it last raised, and what the server last answered for its query (its cache share). */
class LiveQuery {
  last: Map<string, LocalDoc> | null = null;
  fromCache = true;
  hasPendingWrites = false;
  synced: StoredDoc[] = [];
  started = false;
  stopped = false;
  /** The server has answered this query at least once. */
  heard = false;
  constructor(
    readonly target: Ref | Query,
    readonly spec: QuerySpec,
    readonly includeMetadata: boolean,
    readonly observer: Observer,
  ) {}
}

/** One app's Firestore client: its network switch, cache, pending writes and live queries. */
class Client {
  online = true;
  readonly pending: PendingWrite[] = [];
  private readonly listeners = new Set<LiveQuery>();
  private held: Array<() => void> = [];
  private stopWatching: (() => void) | null = null;
  private refreshQueued = false;

  constructor(
    readonly app: FakeApp,
    readonly world: Cloud,
  ) {}

  private rulesContext(channelId: string): RulesContext {
    const auth = this.rulesAuth();
    return {
      auth,
      channelId,
      channel: this.world.store.get(`channels/${channelId}`),
      caller: auth ? this.world.store.get(`users/${auth.uid}`) : undefined,
    };
  }

  private rulesAuth(): RulesContext['auth'] {
    const user = this.app.auth.currentUser;
    const account = user ? [...this.world.accounts.values()].find((a) => a.uid === user.uid) : undefined;
    if (!user) return null;
    return {
      uid: user.uid,
      isAdmin: account?.claims.isAdmin === true,
      authTime: Math.floor(sessionStartOf(user) / 1000),
      ...(account ? { email: account.email } : {}),
    };
  }

  /** signedIn() in every rule: a session its account's revocation ended is refused everything. */
  private sessionEnded(): boolean {
    const auth = this.rulesAuth();
    return auth !== null && !sessionStands(auth, this.world.store.get(`revocations/${auth.uid}`));
  }

  /** The server's documents in the query's scope, as rules let this client read them. */
  private serverDocs(spec: QuerySpec): StoredDoc[] {
    const docs = this.world.store.documentsIn(spec);
    const getting = spec.filters.length === 1 && spec.filters[0]?.field === DOCUMENT_ID;
    const target = getting ? docs.find((doc) => doc.id === spec.filters[0]?.value) : undefined;
    const auth = this.rulesAuth();
    // revocations/{uid}: its own account reads it, revoked or not; nobody else, and no list.
    if (spec.collection === 'revocations') {
      if (!getting || !auth || spec.filters[0]?.value !== auth.uid) throw PERMISSION_DENIED();
      return docs;
    }
    if (this.sessionEnded()) throw PERMISSION_DENIED();
    const channelId = spec.collection === undefined ? null : messagesChannelOf(spec.collection);
    if (channelId !== null && !mayReadMessages(this.rulesContext(channelId))) throw PERMISSION_DENIED();
    const upload = spec.collection === undefined ? null : uploadRecordOf(`${spec.collection}/x`);
    if (upload !== null) {
      const context = { ...this.rulesContext(upload.channelId), resource: target?.data };
      if (!getting || !mayReadUpload(context)) throw PERMISSION_DENIED();
      return docs;
    }
    const handleChannel =
      spec.collection === 'channelHandles' && typeof target?.data.id === 'string'
        ? this.world.store.get(`channels/${target.data.id}`)
        : undefined;
    const stored = getting ? target?.data : docs[0]?.data;
    if (!mayReadCollection(spec, auth, stored, handleChannel)) throw PERMISSION_DENIED();
    return docs;
  }

  /** What the cache holds in the query's scope: the documents live queries last received. */
  private cacheDocs(spec: QuerySpec): StoredDoc[] {
    const cached = new Map<string, StoredDoc>();
    for (const live of this.listeners) {
      for (const doc of live.synced) if (inScope(doc.path, spec)) cached.set(doc.path, doc);
    }
    return [...cached.values()];
  }

  /** `base` with this client's pending writes on it. */
  private local(base: StoredDoc[], spec: QuerySpec): LocalDoc[] {
    const docs = new Map<string, LocalDoc>(base.map((doc) => [doc.path, { ...doc, pending: false }]));
    for (const write of this.pending) {
      if (!inScope(write.path, spec)) continue;
      const data = applyLocally(docs.get(write.path)?.data, write);
      if (data === undefined) docs.delete(write.path);
      else
        docs.set(write.path, {
          path: write.path,
          id: write.path.split('/').at(-1) ?? '',
          data,
          pending: true,
        });
    }
    return [...docs.values()];
  }

  private view(spec: QuerySpec, fromServer: boolean): LocalDoc[] {
    const base = fromServer ? this.serverDocs(spec) : this.cacheDocs(spec);
    return runQuery(this.local(base, spec), spec) as LocalDoc[];
  }

  async getDoc(ref: Ref) {
    const spec = specOf(ref);
    if (this.online) return documentSnapshot(this.app, ref.path, this.view(spec, true)[0], false);
    const doc = this.view(spec, false)[0];
    if (doc === undefined) {
      throw new FirebaseError('unavailable', 'Failed to get document because the client is offline.');
    }
    return documentSnapshot(this.app, ref.path, doc, true);
  }

  async getDocs(target: Ref | Query) {
    const spec = specOf(target);
    return querySnapshot(this.app, this.view(spec, this.online), !this.online);
  }

  /** A write: in the local view at once; sent to the server in order, when the network is on. */
  write(path: string, kind: PendingWrite['kind'], data: Data, merge = false): Promise<void> {
    return this.writeAll([{ path, kind, data, merge }]);
  }

  /** A batch (writeBatch): in the local view at once; sent as one, applied whole or not at all. */
  writeAll(batch: Array<Pick<PendingWrite, 'path' | 'kind' | 'data' | 'merge'>>): Promise<void> {
    const writes: PendingWrite[] = batch.map((write) => ({
      ...write,
      data: clone(write.data),
      localTime: Date.now(),
    }));
    this.pending.push(...writes);
    this.scheduleRefresh();
    return new Promise((resolve, reject) => {
      const send = (): void => {
        setTimeout(() => {
          if (!this.online) {
            this.held.push(send);
            return;
          }
          try {
            this.commit(writes);
            resolve();
          } catch (error) {
            reject(clientError(error));
          } finally {
            for (const write of writes) this.pending.splice(this.pending.indexOf(write), 1);
            this.scheduleRefresh();
          }
        }, 0);
      };
      if (this.online) send();
      else this.held.push(send);
    });
  }

  /** The server applies the writes of one request, as rules let each of them (get() before, getAfter() after). */
  private commit(writes: PendingWrite[]): void {
    const { store } = this.world;
    const after = new Map<string, Data | undefined>();
    for (const write of writes) {
      if (
        write.kind === 'update' &&
        (after.has(write.path) ? after.get(write.path) : store.get(write.path)) === undefined
      ) {
        throw new StoreError('not-found', `No document to update: ${write.path}`);
      }
      after.set(
        write.path,
        applyLocally(after.has(write.path) ? after.get(write.path) : store.get(write.path), write),
      );
    }
    const get = (path: string) => store.get(path);
    const getAfter = (path: string) => (after.has(path) ? after.get(path) : store.get(path));
    for (const write of writes) this.authorize(write, get, getAfter);
    for (const write of writes) {
      if (write.kind === 'delete') store.delete(write.path);
      else if (write.kind === 'update') store.update(write.path, write.data);
      else store.set(write.path, write.data, { merge: write.merge });
    }
  }

  /** Whether rules allow one write of a request; throws PERMISSION_DENIED when not. */
  private authorize(
    write: PendingWrite,
    get: (path: string) => Data | undefined,
    getAfter: (path: string) => Data | undefined,
  ): void {
    const exists = get(write.path) !== undefined;
    const operation =
      write.kind === 'delete' ? 'delete' : write.kind === 'set' && !exists ? 'create' : 'update';
    const id = write.path.split('/').at(-1) ?? '';
    if (this.sessionEnded()) throw PERMISSION_DENIED();
    const channelId = messagesChannelOf(write.path);
    if (channelId !== null) {
      const context = {
        ...this.rulesContext(channelId),
        resource: get(write.path),
        now: this.world.clock.now,
        get,
        getAfter,
      };
      if (!mayWriteMessage(operation, id, write.data, context)) throw PERMISSION_DENIED();
    }
    const upload = uploadRecordOf(write.path);
    if (upload !== null) {
      const context = { ...this.rulesContext(upload.channelId), resource: get(write.path), get, getAfter };
      if (!mayWriteUpload(operation, id, write.data, context)) throw PERMISSION_DENIED();
    }
    const typingIn = typingChannelOf(write.path);
    if (
      typingIn !== null &&
      !mayWriteTyping(write.path, operation, write.data, this.rulesContext(typingIn))
    ) {
      throw PERMISSION_DENIED();
    }
    if (write.path.startsWith('revocations/')) throw PERMISSION_DENIED();
    if (!mayWriteToken(write.path, operation, write.data, this.rulesAuth(), exists))
      throw PERMISSION_DENIED();
  }

  setNetwork(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    if (online) {
      const held = this.held;
      this.held = [];
      for (const send of held) send();
    }
    this.scheduleRefresh();
  }

  listen(target: Ref | Query, includeMetadata: boolean, observer: Observer): () => void {
    const live = new LiveQuery(target, specOf(target), includeMetadata, observer);
    this.listeners.add(live);
    this.stopWatching ??= this.world.store.onWrite(() => {
      if (this.online) this.scheduleRefresh();
    });
    setTimeout(() => {
      if (live.stopped) return;
      live.started = true;
      // The SDK's first event: from the cache when it holds something for the query, or the network is off.
      const cached = this.view(live.spec, false);
      if (cached.length > 0 || !this.online) this.raise(live, cached, true);
      if (this.online) setTimeout(() => this.refresh(live), 0);
    }, 0);
    return () => this.stop(live);
  }

  /** Every live query of this app has had the server's answer (offline, none can). */
  caughtUp(): boolean {
    return [...this.listeners].every((live) => live.heard);
  }

  private stop(live: LiveQuery): void {
    live.stopped = true;
    this.listeners.delete(live);
    if (this.listeners.size === 0) {
      this.stopWatching?.();
      this.stopWatching = null;
    }
  }

  private scheduleRefresh(): void {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    setTimeout(() => {
      this.refreshQueued = false;
      for (const live of [...this.listeners]) if (live.started) this.refresh(live);
    }, 0);
  }

  private refresh(live: LiveQuery): void {
    if (live.stopped) return;
    if (!this.online) {
      this.raise(live, this.view(live.spec, false), true);
      return;
    }
    let server: StoredDoc[];
    try {
      server = this.serverDocs(live.spec);
    } catch (error) {
      // The server ends a listen the rules refuse; the SDK reports it once and stops.
      this.stop(live);
      live.observer.error?.(error);
      return;
    }
    live.synced = runQuery(server, live.spec);
    live.heard = true;
    this.raise(live, runQuery(this.local(server, live.spec), live.spec) as LocalDoc[], false);
  }

  /** Raises a snapshot of `docs` when the SDK would: the first, a change of data, or of metadata if asked. */
  private raise(live: LiveQuery, docs: LocalDoc[], fromCache: boolean): void {
    const previous = live.last;
    const next = new Map(docs.map((doc) => [doc.path, doc]));
    const removed: Change[] = [];
    const added: Change[] = [];
    const modified: Change[] = [];
    for (const doc of previous?.values() ?? []) {
      if (!next.has(doc.path)) removed.push({ type: 'removed', doc, metadataOnly: false });
    }
    for (const doc of docs) {
      const before = previous?.get(doc.path);
      if (!before) added.push({ type: 'added', doc, metadataOnly: false });
      else if (!sameValue(before.data, doc.data))
        modified.push({ type: 'modified', doc, metadataOnly: false });
      else if (before.pending !== doc.pending) modified.push({ type: 'modified', doc, metadataOnly: true });
    }
    const changes = [...removed, ...added, ...modified];
    const hasPendingWrites = docs.some((doc) => doc.pending);
    const metadataChanged = fromCache !== live.fromCache || hasPendingWrites !== live.hasPendingWrites;
    live.last = next;
    live.fromCache = fromCache;
    live.hasPendingWrites = hasPendingWrites;
    const dataChanged = changes.some((change) => !change.metadataOnly);
    const raise =
      previous === null || dataChanged || (live.includeMetadata && (metadataChanged || changes.length > 0));
    if (!raise) return;
    const snapshot =
      live.target.kind === 'doc'
        ? documentSnapshot(this.app, live.target.path, docs[0], fromCache)
        : querySnapshot(this.app, docs, fromCache, changes, live.includeMetadata);
    live.observer.next(snapshot as never);
  }
}

function clientOf(app: FakeApp): Client {
  app.firestore ??= new Client(app, current());
  return app.firestore;
}

/**
 * Resolves once every live query of every app has had the server's answer: a test's "the listeners are up" before
 * it changes what they watch (a fixed wait is not enough on a loaded machine). Gives up after `timeoutMs`.
 */
export async function listenersCaughtUp(timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  do {
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (current().apps.every((app) => !app.firestore || app.firestore.caughtUp())) return;
  } while (Date.now() < end);
}

/** The app's network, as disableNetwork / enableNetwork switch it (the harness's disconnect and reconnect). */
export function setNetwork(app: FakeApp, online: boolean): void {
  clientOf(app).setNetwork(online);
}

function firestoreModule() {
  const ref = (kind: Ref['kind'], db: { app: FakeApp }, segments: string[]): Ref => {
    const path = segments.join('/');
    return { kind, app: db.app, path, id: segments.at(-1) ?? '' };
  };
  return {
    Timestamp: MemTimestamp,
    initializeFirestore: (app: FakeApp, _settings?: unknown) => ({ app }),
    collection: (db: { app: FakeApp }, ...segments: string[]) => ref('collection', db, segments),
    doc: (db: { app: FakeApp }, ...segments: string[]) => ref('doc', db, segments),
    documentId: () => DOCUMENT_ID_FIELD,
    where: (field: FieldRef, op: FilterOp, value: unknown): Constraint => ({
      where: { field: fieldName(field), op, value },
    }),
    orderBy: (field: FieldRef, direction: 'asc' | 'desc' = 'asc'): Constraint => ({
      orderBy: { field: fieldName(field), direction },
    }),
    limit: (limit: number): Constraint => ({ limit }),
    startAfter: (...values: unknown[]): Constraint => ({ startAfter: values }),
    serverTimestamp: sentinels.serverTimestamp,
    deleteField: sentinels.deleteField,
    query(base: Ref | Query, ...constraints: Constraint[]): Query {
      const from = specOf(base);
      const spec: QuerySpec = { ...from, filters: [...from.filters], orderBy: [...from.orderBy] };
      for (const c of constraints) {
        if ('where' in c) spec.filters.push(c.where);
        else if ('orderBy' in c) spec.orderBy.push(c.orderBy);
        else if ('limit' in c) spec.limit = c.limit;
        else spec.startAfter = c.startAfter;
      }
      return { kind: 'query', app: base.app, spec };
    },
    getDoc: (target: Ref) => guard(() => clientOf(target.app).getDoc(target)),
    getDocs: (target: Ref | Query) => guard(() => clientOf(target.app).getDocs(target)),
    async addDoc(target: Ref, data: Data) {
      const id = current().store.newId();
      const path = `${target.path}/${id}`;
      await guard(() => clientOf(target.app).write(path, 'set', data));
      return { kind: 'doc' as const, app: target.app, id, path };
    },
    setDoc: (target: Ref, data: Data, options: { merge?: boolean } = {}) =>
      guard(() => clientOf(target.app).write(target.path, 'set', data, options.merge === true)),
    updateDoc: (target: Ref, data: Data) =>
      guard(() => clientOf(target.app).write(target.path, 'update', data)),
    deleteDoc: (target: Ref) => guard(() => clientOf(target.app).write(target.path, 'delete', {})),
    writeBatch(db: { app: FakeApp }) {
      const writes: Array<Pick<PendingWrite, 'path' | 'kind' | 'data' | 'merge'>> = [];
      return {
        set(target: Ref, data: Data, options: { merge?: boolean } = {}) {
          writes.push({ path: target.path, kind: 'set', data, merge: options.merge === true });
        },
        update(target: Ref, data: Data) {
          writes.push({ path: target.path, kind: 'update', data, merge: false });
        },
        delete(target: Ref) {
          writes.push({ path: target.path, kind: 'delete', data: {}, merge: false });
        },
        commit: () => guard(() => clientOf(db.app).writeAll(writes)),
      };
    },
    disableNetwork: async (db: { app: FakeApp }) => clientOf(db.app).setNetwork(false),
    enableNetwork: async (db: { app: FakeApp }) => clientOf(db.app).setNetwork(true),
    /**
     * onSnapshot(target, next, error?), onSnapshot(target, {next, error}), and either after an options object
     * ({includeMetadataChanges}).
     */
    onSnapshot(target: Ref | Query, ...args: unknown[]): () => void {
      const options =
        typeof args[0] === 'object' && args[0] !== null && !('next' in args[0])
          ? (args.shift() as { includeMetadataChanges?: boolean })
          : {};
      const first = args[0];
      const observer: Observer =
        typeof first === 'function'
          ? { next: first as Observer['next'], error: args[1] as Observer['error'] }
          : (first as Observer);
      return clientOf(target.app).listen(target, options.includeMetadataChanges === true, observer);
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
          ? {
              auth: {
                uid: user.uid,
                // The ID token as verifyIdToken(token, true) reads it (fakeSessionStands), and its
                // auth_time: when this app's session began (signed in, or proven again).
                rawToken: fakeIdToken(user.uid, sessionStartOf(user)),
                token: {
                  email: user.email,
                  email_verified: account?.emailVerified === true,
                  auth_time: Math.floor(sessionStartOf(user) / 1000),
                  ...(account?.claims ?? {}),
                },
              },
            }
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

/** Cloud Storage over `objects`, with storage.rules (rulesModel.ts) deciding every request as the service does. */
function storageModule() {
  interface StorageRef {
    storage: { app: FakeApp };
    fullPath: string;
  }
  const denied = () => new FirebaseError('storage/unauthorized', 'User does not have permission to access');
  const contextOf = (ref: StorageRef, channelId: string): RulesContext => {
    const user = ref.storage.app.auth.currentUser;
    const account = user ? [...current().accounts.values()].find((a) => a.uid === user.uid) : undefined;
    return {
      auth: user ? { uid: user.uid, isAdmin: account?.claims.isAdmin === true } : null,
      channelId,
      channel: current().store.get(`channels/${channelId}`),
    };
  };
  /** The upload record of an object (firestore.get() in storage.rules). */
  const uploadOf = (object: { channelId: string; attachmentId: string }) =>
    current().store.get(`channels/${object.channelId}/uploads/${object.attachmentId}`);
  /** storage.rules' photos/{uid}/{photoId} (core/photos.ts): its person alone writes, an image up to 512 KB. */
  const photoOf = (fullPath: string) => /^photos\/([^/]+)\/([A-Za-z0-9]{20})$/.exec(fullPath);
  const mayWritePhoto = (ref: StorageRef, file?: { size: number; contentType?: string }): boolean => {
    const match = photoOf(ref.fullPath);
    const user = ref.storage.app.auth.currentUser;
    if (!match || !user || user.uid !== match[1]) return false;
    return (
      file === undefined ||
      (file.size >= 1 &&
        file.size <= 512 * 1024 &&
        ['image/webp', 'image/png', 'image/jpeg'].includes(file.contentType ?? ''))
    );
  };
  const DOWNLOAD_PREFIX = 'https://firebasestorage.googleapis.com/v0/b/qupm-contract.appspot.com/o/';
  return {
    getStorage: (app: FakeApp) => ({ app }),
    // A download URL names its object too, as the SDK's ref() reads one.
    ref: (storage: { app: FakeApp }, pathOrUrl: string): StorageRef => ({
      storage,
      fullPath: pathOrUrl.startsWith(DOWNLOAD_PREFIX)
        ? decodeURIComponent(pathOrUrl.slice(DOWNLOAD_PREFIX.length).split('?')[0] ?? '')
        : pathOrUrl,
    }),
    async uploadBytes(ref: StorageRef, data: Uint8Array, metadata: { contentType?: string } = {}) {
      if (!mayWritePhoto(ref, { size: data.length, contentType: metadata.contentType })) throw denied();
      current().objects.set(ref.fullPath, {
        size: data.length,
        contentType: metadata.contentType ?? 'application/octet-stream',
        contentDisposition: '',
        metadata: {},
        data: data.slice(),
      });
      return { ref };
    },
    async getDownloadURL(ref: StorageRef): Promise<string> {
      if (!ref.storage.app.auth.currentUser) throw denied();
      if (!current().objects.has(ref.fullPath))
        throw new FirebaseError('storage/object-not-found', 'No object exists');
      return `${DOWNLOAD_PREFIX}${encodeURIComponent(ref.fullPath)}?alt=media&token=0f1e2d3c-4b5a-6978`;
    },
    uploadBytesResumable(
      ref: StorageRef,
      data: Uint8Array,
      metadata: {
        contentType?: string;
        contentDisposition?: string;
        customMetadata?: Record<string, string>;
      },
    ) {
      let cancelled = false;
      return {
        on(
          _event: 'state_changed',
          next: (snapshot: { bytesTransferred: number; totalBytes: number }) => void,
          error: (e: unknown) => void,
          complete: () => void,
        ) {
          // The bytes go out on a later turn, in two halves, so that a cancel can land in between.
          setTimeout(() => {
            const object = attachmentObjectOf(ref.fullPath);
            const file: StorageObject = {
              size: data.length,
              contentType: metadata.contentType ?? 'application/octet-stream',
              contentDisposition: metadata.contentDisposition ?? '',
              metadata: { ...metadata.customMetadata },
            };
            if (cancelled) return error(new FirebaseError('storage/canceled', 'User canceled the upload'));
            if (
              !object ||
              current().objects.has(ref.fullPath) ||
              !mayCreateObject(object.attachmentId, file, contextOf(ref, object.channelId), uploadOf(object))
            ) {
              return error(denied());
            }
            next({ bytesTransferred: Math.floor(data.length / 2), totalBytes: data.length });
            setTimeout(() => {
              if (cancelled) return error(new FirebaseError('storage/canceled', 'User canceled the upload'));
              current().objects.set(ref.fullPath, { ...file, data: data.slice() });
              next({ bytesTransferred: data.length, totalBytes: data.length });
              complete();
            }, 0);
          }, 0);
        },
        cancel() {
          cancelled = true;
          return true;
        },
      };
    },
    async getBlob(ref: StorageRef): Promise<Blob> {
      const object = attachmentObjectOf(ref.fullPath);
      if (!object || !mayReadObject(contextOf(ref, object.channelId), uploadOf(object))) throw denied();
      const stored = current().objects.get(ref.fullPath);
      if (!stored) throw new FirebaseError('storage/object-not-found', 'No object exists');
      return new Blob([new Uint8Array(stored.data)], { type: stored.contentType });
    },
    async deleteObject(ref: StorageRef): Promise<void> {
      if (photoOf(ref.fullPath)) {
        if (!mayWritePhoto(ref)) throw denied();
        if (!current().objects.delete(ref.fullPath))
          throw new FirebaseError('storage/object-not-found', 'No object exists');
        return;
      }
      const object = attachmentObjectOf(ref.fullPath);
      const stored = current().objects.get(ref.fullPath);
      if (!object) throw denied();
      if (!stored) throw new FirebaseError('storage/object-not-found', 'No object exists');
      if (!mayDeleteObject(stored, contextOf(ref, object.channelId))) throw denied();
      current().objects.delete(ref.fullPath);
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
    storage: storageModule(),
  };
}
