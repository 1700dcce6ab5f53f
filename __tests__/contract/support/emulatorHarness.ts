// The contract's Firebase side on the real thing: the real Firebase JS SDK (firebase/app, auth, firestore,
// functions; nothing mocked) in the real Firebase adapter, against the Auth emulator of firebase-tools and Google's
// Firestore emulator with firestore.rules loaded, with functions/'s real code behind them on the Admin SDK,
// pointing at the same emulators:
//   - callables: each function's own request handler (the one deployed), served over HTTP in this process
//     (callableHost.ts); the client's connectFunctionsEmulator points at it, and ID tokens are verified by the
//     Admin SDK against the Auth emulator as production verifies them (a revoked session is the functions' own
//     to refuse);
//   - on_message_created and on_message_deleted: fired from an Admin SDK listener on every messages collection,
//     with the listener's snapshots as the events' documents;
//   - on_user_renamed: fired from an Admin SDK listener on users, with its snapshots before and after;
//   - on_user_created: fired when the Auth emulator answers a sign-up (the client reaches Auth through a small
//     proxy that sees it), with the account as created.
// The emulators are started once for the run (emulator/globalSetup.ts); between tests their data is cleared
// through their REST endpoints and the world seeded again through the Admin SDK, so a test costs no start.
// What the emulators cannot do stays with the faked SDK (firebase.test.ts; README "Test it" lists each case).
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app';
import type { App as AdminApp } from 'firebase-admin/app';
import { getAuth as getAdminAuth } from 'firebase-admin/auth';
import type { Auth as AdminAuth } from 'firebase-admin/auth';
import { FieldValue, Timestamp, getFirestore as getAdminFirestore } from 'firebase-admin/firestore';
import type { DocumentSnapshot, Firestore as AdminFirestore } from 'firebase-admin/firestore';
import { deleteApp, getApp, getApps } from 'firebase/app';
import { disableNetwork, enableNetwork, getFirestore, setLogLevel } from 'firebase/firestore';
import { createFirebaseBackend } from '@/backend/firebase';
import type { FirebaseConfig } from '@/backend/firebase';
import type { Backend } from '@/backend/ports';
import { authEmulatorAt } from '../../../drivers/authEmulator';
import { firestoreEmulatorAt } from '../../../drivers/firestoreEmulator';
import { MemoryBucket } from '../../../functions/__tests__/support/memoryBucket';
import { MemTimestamp } from '../../../functions/__tests__/support/memoryFirestore';
import { createAdminAccounts } from '../../../functions/src/accounts';
import { createFirestoreRepository } from '../../../functions/src/firestoreRepository';
import { createPracticeRepository } from '../../../functions/src/practiceRepository';
import { createFunctions } from '../../../functions/src/functions';
import type { Deps, FcmMessage, PushSender, SendResult } from '../../../functions/src/repository';
import { createBucketFiles } from '../../../functions/src/storageFiles';
import { hostCallables } from './callableHost';
import { EMULATOR_PROJECT_ID } from '../../support/emulators/project';
import type { CallableHost } from './callableHost';
import { WORLD_ACCOUNTS, seedWorldDocuments } from './firebaseWorld';
import { signUpThroughMail } from './harness';
import type { Harness, MailPurpose } from './harness';
import { PASSWORD, PEOPLE, START } from './world';

const REGION = 'us-central1';
const RULES_FILE = `${__dirname}/../../../firestore.rules`;
/** The longest step of the clock that advance() also waits out. */
const WAITED_STEP_MS = 1_000;

/** FCM cannot be reached from here: pushes are recorded and answered as delivered (README lists FCM delivery). */
class RecordingPushSender implements PushSender {
  readonly sent: FcmMessage[] = [];
  async send(messages: readonly FcmMessage[]): Promise<SendResult[]> {
    this.sent.push(...messages);
    return messages.map(() => ({ success: true }));
  }
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set: run this suite with npm run test:contract:emulators, which starts the emulators`,
    );
  }
  return value;
}

/** The world's timestamps (MemTimestamp, from the shared seed helpers) as the Admin SDK's. */
function toAdmin(value: unknown): unknown {
  if (value instanceof MemTimestamp) return new Timestamp(value.seconds, value.nanoseconds);
  if (Array.isArray(value)) return value.map(toAdmin);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toAdmin(item)]));
  }
  return value;
}

/**
 * What the Admin SDK's verifyIdToken refuses only on the Auth emulator, where it always looks the account up
 * (in production only with checkRevoked): each comes after the token itself has been verified.
 */
const EMULATOR_ONLY_REFUSALS: ReadonlySet<unknown> = new Set([
  'auth/id-token-revoked',
  'auth/user-disabled',
  'auth/user-not-found',
]);

/** Whether Cloud Functions in production would take `idToken` as the caller's (callableHost.ts). */
async function verifiedAsInProduction(auth: AdminAuth, idToken: string): Promise<boolean> {
  try {
    await auth.verifyIdToken(idToken);
    return true;
  } catch (error) {
    return EMULATOR_ONLY_REFUSALS.has((error as { code?: unknown } | null)?.code);
  }
}

/** Triggers fired and not finished yet, and what they threw (settle() rethrows it). */
interface Background {
  pending: Set<Promise<unknown>>;
  failures: unknown[];
  /** How many were ever fired: settle() goes round again while a round fired more (a trigger's own writes). */
  fired: number;
}

function fire(background: Background, work: () => Promise<unknown>): void {
  const run: Promise<unknown> = Promise.resolve()
    .then(work)
    .catch((error: unknown) => void background.failures.push(error))
    .finally(() => background.pending.delete(run));
  background.pending.add(run);
  background.fired += 1;
}

/**
 * A proxy in front of the Auth emulator for the clients: Auth's onCreate trigger fires from what it sees, as Cloud
 * Functions fires it once an account exists (the emulator alone has no trigger to call).
 */
async function authProxy(target: string, onSignUp: (account: { uid: string; email: string }) => void) {
  const [targetHost, targetPort] = target.split(':');
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(
      {
        host: targetHost,
        port: Number(targetPort),
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        const signUp = /\/accounts:signUp\b/.test(incoming.url ?? '') && answer.statusCode === 200;
        if (!signUp) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const account = JSON.parse(body.toString('utf8')) as { localId?: string; email?: string };
          if (account.localId) onSignUp({ uid: account.localId, email: account.email ?? '' });
          outgoing.writeHead(answer.statusCode ?? 200, answer.headers);
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => {
      outgoing.statusCode = 502;
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What every test of the run shares: the Admin SDK, functions/ and the servers in front of them. */
interface Environment {
  admin: AdminApp;
  db: AdminFirestore;
  auth: AdminAuth;
  firestoreHost: string;
  rest: { firestore: ReturnType<typeof firestoreEmulatorAt>; auth: ReturnType<typeof authEmulatorAt> };
  fns: ReturnType<typeof createFunctions>;
  callables: CallableHost;
  proxy: { port: number; close(): Promise<void> };
  /** The clock functions/ reads (deps.now): the emulators' own clocks are the machine's. */
  clock: { now: number };
  background: Background;
  /** The harness of the test under way, whose sign-ups the proxy reports. */
  onSignUp: (account: { uid: string; email: string }) => void;
}

let environment: Promise<Environment> | null = null;
/** Each backend's own Firebase app (two people signed in at once), named in order over the run. */
let devices = 0;

async function createEnvironment(): Promise<Environment> {
  const firestoreHost = requiredEnv('FIRESTORE_EMULATOR_HOST');
  const authHost = requiredEnv('FIREBASE_AUTH_EMULATOR_HOST');
  // What firebase-functions reads as it is defined and called (as the Functions runtime sets it).
  process.env.GCLOUD_PROJECT = EMULATOR_PROJECT_ID;
  process.env.FIREBASE_CONFIG = JSON.stringify({
    projectId: EMULATOR_PROJECT_ID,
    storageBucket: `${EMULATOR_PROJECT_ID}.appspot.com`,
  });
  process.env.QUPM_ENFORCE_APP_CHECK ??= 'false';
  process.env.QUPM_FUNCTIONS_REGION ??= REGION;
  const rest = {
    firestore: firestoreEmulatorAt(firestoreHost),
    auth: authEmulatorAt(authHost, EMULATOR_PROJECT_ID),
  };
  await rest.firestore.loadRules(EMULATOR_PROJECT_ID, readFileSync(RULES_FILE, 'utf8'));

  // The default app, which firebase-functions also takes to verify callers' ID tokens.
  const admin = initializeAdminApp({ projectId: EMULATOR_PROJECT_ID });
  const db = getAdminFirestore(admin);
  const auth = getAdminAuth(admin);
  const clock = { now: START };
  const deps: Deps = {
    repo: createFirestoreRepository({
      db,
      fieldValue: FieldValue,
      timestampFromMillis: (ms) => Timestamp.fromMillis(ms),
    }),
    practice: createPracticeRepository({
      db,
      fieldValue: FieldValue,
      timestampFromMillis: (ms) => Timestamp.fromMillis(ms),
    }),
    push: new RecordingPushSender(),
    // Cloud Storage has no emulator here (its emulator downloads a jar at start): an empty bucket.
    files: createBucketFiles(new MemoryBucket(() => clock.now)),
    accounts: createAdminAccounts(auth),
    now: () => clock.now,
    appOrigin: () => `https://${EMULATOR_PROJECT_ID}.web.app`,
  };
  const fns = createFunctions(() => deps);
  const callables = await hostCallables(
    Object.fromEntries(
      Object.entries(fns).filter(
        ([, fn]) => (fn as { __endpoint?: { callableTrigger?: object } }).__endpoint?.callableTrigger,
      ),
    ),
    {
      projectId: EMULATOR_PROJECT_ID,
      region: REGION,
      verifyIdToken: (idToken) => verifiedAsInProduction(auth, idToken),
    },
  );
  const background: Background = { pending: new Set(), failures: [], fired: 0 };
  // The SDK warns of every write the rules refuse, which the contract makes on purpose.
  setLogLevel('error');
  const env: Environment = {
    admin,
    db,
    auth,
    firestoreHost,
    rest,
    fns,
    callables,
    proxy: { port: 0, close: async () => undefined },
    clock,
    background,
    onSignUp: () => undefined,
  };
  env.proxy = await authProxy(authHost, (account) => env.onSignUp(account));
  return env;
}

/** Ends what the run shared (the test file's afterAll). */
export async function closeEmulatorEnvironment(): Promise<void> {
  if (!environment) return;
  const env = await environment;
  environment = null;
  await Promise.allSettled([...env.background.pending]);
  await Promise.all([env.callables.close(), env.proxy.close()]);
  await deleteAdminApp(env.admin);
}

const MESSAGE_PATH = /^channels\/([^/]+)\/messages\/([^/]+)$/;
const MARKERS = 'contract/settle/messages';
/** How long settle() waits for the listener to see its marker (a write takes milliseconds). */
const MARKER_TIMEOUT_MS = 20_000;

/**
 * Firestore's triggers on messages, from one Admin SDK listener on every `messages` collection: a new document
 * fires on_message_created, a changed one on_message_deleted (which acts on deletions only), each with the
 * listener's snapshots. settle() writes a marker into a messages collection of its own: once the listener has
 * seen it, it has seen every write made before it.
 */
function listenForMessages(env: Environment) {
  const known = new Map<string, DocumentSnapshot>();
  const markersSeen = new Set<string>();
  const markerWaiters = new Map<string, () => void>();
  let first: (() => void) | null = null;
  let failed: ((error: unknown) => void) | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    first = resolve;
    failed = reject;
  });
  const stop = env.db.collectionGroup('messages').onSnapshot(
    (snapshot) => {
      const initial = first !== null;
      for (const change of snapshot.docChanges()) {
        const path = change.doc.ref.path;
        if (path.startsWith(`${MARKERS}/`)) {
          markersSeen.add(change.doc.id);
          markerWaiters.get(change.doc.id)?.();
          continue;
        }
        const match = MESSAGE_PATH.exec(path);
        const before = known.get(path);
        if (change.type === 'removed') known.delete(path);
        else known.set(path, change.doc);
        if (initial || !match) continue;
        const params = { channelId: match[1] ?? '', messageId: match[2] ?? '' };
        if (change.type === 'added') {
          const data = change.doc;
          fire(env.background, () =>
            (env.fns.on_message_created as unknown as { run(event: object): Promise<unknown> }).run({
              params,
              data,
            }),
          );
        } else if (change.type === 'modified' && before) {
          const after = change.doc;
          fire(env.background, () =>
            (env.fns.on_message_deleted as unknown as { run(event: object): Promise<unknown> }).run({
              params,
              data: { before, after },
            }),
          );
        }
      }
      if (first) {
        first();
        first = null;
      }
    },
    (error) => {
      failed?.(error);
      env.background.failures.push(error);
    },
  );
  let markers = 0;
  return {
    ready,
    stop,
    /** Resolves once the listener has seen every write made before this call. */
    async caughtUp(): Promise<void> {
      markers += 1;
      const id = `marker${Date.now()}${markers}`;
      const seen = new Promise<void>((resolve) => {
        if (markersSeen.has(id)) resolve();
        else markerWaiters.set(id, resolve);
      });
      await env.db.doc(`${MARKERS}/${id}`).set({ at: FieldValue.serverTimestamp() });
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          seen,
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error('The trigger listener did not see a write within 20 s')),
              MARKER_TIMEOUT_MS,
            );
          }),
        ]);
      } finally {
        clearTimeout(timer);
        markerWaiters.delete(id);
      }
    },
  };
}

/**
 * Firestore's onDocumentUpdated on users/{uid} for a new public name (on_user_renamed), from an Admin SDK listener
 * on the users collection with its snapshots before and after. Tests of it wait for its outcome (eventually).
 */
function listenForNames(env: Environment) {
  const known = new Map<string, DocumentSnapshot>();
  let first: (() => void) | null = null;
  const ready = new Promise<void>((resolve) => {
    first = resolve;
  });
  const stop = env.db.collection('users').onSnapshot(
    (snapshot) => {
      const initial = first !== null;
      for (const change of snapshot.docChanges()) {
        const before = known.get(change.doc.id);
        if (change.type === 'removed') known.delete(change.doc.id);
        else known.set(change.doc.id, change.doc);
        if (initial || change.type !== 'modified' || !before) continue;
        const after = change.doc;
        fire(env.background, () =>
          (env.fns.on_user_renamed as unknown as { run(event: object): Promise<unknown> }).run({
            params: { uid: change.doc.id },
            data: { before, after },
          }),
        );
      }
      first?.();
      first = null;
    },
    (error) => void env.background.failures.push(error),
  );
  return { ready, stop };
}

async function seedWorld(env: Environment): Promise<void> {
  await Promise.all([env.rest.firestore.clear(EMULATOR_PROJECT_ID), env.rest.auth.clear()]);
  await Promise.all(
    WORLD_ACCOUNTS.map(async (account) => {
      await env.auth.createUser({
        uid: account.uid,
        email: account.email,
        password: account.password,
        displayName: account.displayName,
        emailVerified: account.emailVerified,
      });
      if (Object.keys(account.claims).length > 0)
        await env.auth.setCustomUserClaims(account.uid, account.claims);
    }),
  );
  const batch = env.db.batch();
  seedWorldDocuments({
    set: (path, data) => void batch.set(env.db.doc(path), toAdmin(data) as Record<string, unknown>),
  });
  await batch.commit();
}

const OOB_REQUEST_TYPES: Record<MailPurpose, string> = {
  'verify-email': 'VERIFY_EMAIL',
  'reset-password': 'PASSWORD_RESET',
  'change-email': 'VERIFY_AND_CHANGE_EMAIL',
  // A new account's confirmation link; a taken address's owner is mailed a link to choose a new password.
  'sign-up': 'VERIFY_EMAIL',
  'sign-up-notice': 'PASSWORD_RESET',
};

export async function createEmulatorHarness(): Promise<Harness> {
  environment ??= createEnvironment().catch((error: unknown) => {
    environment = null;
    throw error;
  });
  const env = await environment;
  env.clock.now = START;
  await seedWorld(env);
  const messages = listenForMessages(env);
  const names = listenForNames(env);
  await Promise.all([messages.ready, names.ready]);
  env.onSignUp = ({ uid, email }) =>
    fire(env.background, () =>
      // The event carries the account as created; the handler reads it again for the name given next.
      (env.fns.on_user_created as unknown as { run(user: object, context: object): Promise<unknown> }).run(
        { uid, email, emailVerified: false, disabled: false, metadata: {}, providerData: [] },
        { params: {}, eventId: `signup-${uid}`, timestamp: new Date().toISOString() },
      ),
    );

  const [firestoreHost, firestorePort] = env.firestoreHost.split(':');
  const config: FirebaseConfig = {
    apiKey: 'demo-api-key',
    authDomain: `${EMULATOR_PROJECT_ID}.firebaseapp.com`,
    projectId: EMULATOR_PROJECT_ID,
    appId: '1:1:web:contract',
    messagingSenderId: '1',
    vapidKey: 'contract-vapid',
    functionsRegion: REGION,
    emulators: {
      auth: { host: '127.0.0.1', port: env.proxy.port },
      firestore: { host: firestoreHost ?? '127.0.0.1', port: Number(firestorePort) },
      functions: { host: env.callables.host, port: env.callables.port },
    },
  };
  const appNames = new WeakMap<Backend, string>();
  const device = (): Backend => {
    devices += 1;
    const appName = `contract-device-${devices}`;
    const backend = createFirebaseBackend(config, undefined, { appName });
    appNames.set(backend, appName);
    return backend;
  };
  const firestoreOf = (backend: Backend) => {
    const name = appNames.get(backend);
    if (!name) throw new Error('disconnect() and reconnect() take a backend of this harness');
    return getFirestore(getApp(name));
  };

  const settle = async (): Promise<void> => {
    let fired: number;
    do {
      fired = env.background.fired;
      await messages.caughtUp();
      while (env.background.pending.size > 0) await Promise.allSettled([...env.background.pending]);
    } while (env.background.fired !== fired);
    const failed = env.background.failures.shift();
    if (failed) throw failed;
  };

  const mailedToken = async (email: string, purpose: MailPurpose): Promise<string> => {
    const wanted = OOB_REQUEST_TYPES[purpose];
    const code = (await env.rest.auth.oobCodes())
      .filter(
        (oob) =>
          oob.requestType === wanted &&
          (purpose === 'change-email' ? oob.newEmail === email : oob.email === email),
      )
      .at(-1)?.oobCode;
    if (!code) throw new Error(`no ${purpose} link was mailed to ${email}`);
    return code;
  };

  return {
    kind: 'firebase',
    pushToken: (seed) => `fcm-${seed.replace(/[^A-Za-z0-9]/g, '')}:APA91bContractToken`,
    async as(who) {
      const backend = device();
      await backend.auth.signIn({ email: PEOPLE[who].email, password: PASSWORD });
      return backend;
    },
    signedOut: device,
    signUp: (input) => signUpThroughMail({ signedOut: device, settle, mailedToken }, input),
    async unconfirmedAccount(input) {
      // Firebase Auth makes the account at once; its link is left unopened.
      const backend = device();
      await backend.auth.signUp(input);
      await settle();
      await backend.auth.signIn(input);
      return backend;
    },
    async pendingCounts(uid) {
      const { docs } = await env.db.collection(`users/${uid}/pending`).get();
      return Object.fromEntries(docs.map((doc) => [doc.id, doc.get('count') as number]));
    },
    settle,
    mailedToken,
    // Firestore's own switch: the app's listeners fall back to the cache and hear nothing; on return the SDK
    // brings what changed meanwhile.
    async fillStorage(who, bytes) {
      // The count check_attachment_upload keeps, which storage.rules and the adapter read.
      await env.db.doc(`users/${PEOPLE[who].uid}`).set({ attachmentBytes: bytes }, { merge: true });
    },
    disconnect: (backend) => void disableNetwork(firestoreOf(backend)),
    reconnect: (backend) => void enableNetwork(firestoreOf(backend)),
    async advance(ms) {
      env.clock.now += ms;
      // A short step is waited out, so that the emulators' time moves with it: Auth revokes sessions by the
      // second (a token from the second of a password change still stands).
      if (ms <= WAITED_STEP_MS) await new Promise((resolve) => setTimeout(resolve, ms));
    },
    async close() {
      try {
        await settle();
      } finally {
        messages.stop();
        names.stop();
        env.onSignUp = () => undefined;
        await Promise.all(
          getApps()
            .filter((app) => app.name.startsWith('contract-device-'))
            .map((app) => deleteApp(app)),
        );
      }
    },
  };
}
