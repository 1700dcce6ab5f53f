// The real thing for functions/'s emulator tests: the functions of functions.ts over the Admin SDK against the
// Firestore and Auth emulators (the deployed wiring: firestoreRepository.ts, accounts.ts), and people signed in
// with the Firebase JS SDK against the same emulators, reading and writing through firestore.rules. A callable is
// called as the callable protocol hands it to a function: the caller's ID token verified by the Admin SDK. Cloud
// Storage and FCM cannot run here: an in-memory bucket and a recording sender stand in for them.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deleteApp as deleteAdminApp, initializeApp as initializeAdminApp } from 'firebase-admin/app';
import { getAuth as getAdminAuth } from 'firebase-admin/auth';
import { FieldValue, Timestamp, getFirestore as getAdminFirestore } from 'firebase-admin/firestore';
import { deleteApp, initializeApp } from 'firebase/app';
import type { FirebaseApp } from 'firebase/app';
import { connectAuthEmulator, getAuth, signInWithEmailAndPassword } from 'firebase/auth';
import type { Auth } from 'firebase/auth';
import { connectFirestoreEmulator, getFirestore, setLogLevel, terminate } from 'firebase/firestore';
import type { Firestore } from 'firebase/firestore';
import { createAdminAccounts } from '../../../src/accounts';
import { createFirestoreRepository } from '../../../src/firestoreRepository';
import { createFunctions } from '../../../src/functions';
import type { Deps } from '../../../src/repository';
import { createBucketFiles } from '../../../src/storageFiles';
import { APP_ORIGIN, RecordingPushSender, functionsTest } from '../../support/functionsTest';
import { MemoryBucket } from '../../support/memoryBucket';

/** The project the Auth emulator was started with (single-project mode). */
export const PROJECT = process.env.QUPM_EMULATOR_PROJECT ?? 'demo-qupm';
const FIRESTORE_HOST = process.env.FIRESTORE_EMULATOR_HOST ?? '';
const AUTH_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '';

async function emulatorRequest(url: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(url, init);
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  const body = await response.text();
  return body ? (JSON.parse(body) as unknown) : null;
}

/** Loads this repository's firestore.rules into the Firestore emulator for PROJECT. */
export async function loadFirestoreRules(): Promise<void> {
  const rules = readFileSync(path.resolve(__dirname, '../../../../firestore.rules'), 'utf8');
  await emulatorRequest(`http://${FIRESTORE_HOST}/emulator/v1/projects/${PROJECT}:securityRules`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: rules }] } }),
  });
}

/** Empties the emulators' Firestore database and Auth accounts of PROJECT. */
export async function clearEmulators(): Promise<void> {
  await emulatorRequest(
    `http://${FIRESTORE_HOST}/emulator/v1/projects/${PROJECT}/databases/(default)/documents`,
    { method: 'DELETE' },
  );
  await emulatorRequest(`http://${AUTH_HOST}/emulator/v1/projects/${PROJECT}/accounts`, { method: 'DELETE' });
}

/** The out-of-band codes the Auth emulator "mailed" (password resets, email confirmations). */
export async function mailedCodes(): Promise<Array<{ email: string; requestType: string; oobCode: string }>> {
  const body = (await emulatorRequest(`http://${AUTH_HOST}/emulator/v1/projects/${PROJECT}/oobCodes`)) as {
    oobCodes?: Array<{ email: string; requestType: string; oobCode: string }>;
  };
  return body.oobCodes ?? [];
}

/** Waits into the next second: a revocation after this is later than any session begun before it. */
export async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
}

export interface EmulatorBackend {
  deps: Deps;
  fns: ReturnType<typeof createFunctions>;
  admin: { db: ReturnType<typeof getAdminFirestore>; auth: ReturnType<typeof getAdminAuth> };
  bucket: MemoryBucket;
  close(): Promise<void>;
}

/** functions.ts over the Admin SDK on the emulators, as index.ts builds it (bucket and FCM stand-ins aside). */
export function emulatorBackend(): EmulatorBackend {
  const app = initializeAdminApp({ projectId: PROJECT }, `functions-${randomUUID()}`);
  const db = getAdminFirestore(app);
  const auth = getAdminAuth(app);
  const bucket = new MemoryBucket(Date.now);
  const deps: Deps = {
    repo: createFirestoreRepository({
      db,
      fieldValue: FieldValue,
      timestampFromMillis: (ms) => Timestamp.fromMillis(ms),
    }),
    push: new RecordingPushSender(),
    files: createBucketFiles(bucket),
    accounts: createAdminAccounts(auth),
    now: Date.now,
    appOrigin: () => APP_ORIGIN,
  };
  return {
    deps,
    fns: createFunctions(() => deps),
    admin: { db, auth },
    bucket,
    close: () => deleteAdminApp(app),
  };
}

/** A person's browser: the Firebase JS SDK's Auth and Firestore on the emulators. */
export interface Client {
  auth: Auth;
  db: Firestore;
  close(): Promise<void>;
}

// The SDK logs every refused write as a warning; the tests assert the refusals themselves.
setLogLevel('error');

export function newClient(): Client {
  const app: FirebaseApp = initializeApp(
    { apiKey: 'demo-api-key', projectId: PROJECT, authDomain: `${PROJECT}.firebaseapp.com` },
    `client-${randomUUID()}`,
  );
  const auth = getAuth(app);
  connectAuthEmulator(auth, `http://${AUTH_HOST}`, { disableWarnings: true });
  const db = getFirestore(app);
  const [host, port] = FIRESTORE_HOST.split(':');
  connectFirestoreEmulator(db, host ?? '127.0.0.1', Number(port));
  return {
    auth,
    db,
    async close() {
      await terminate(db);
      await deleteApp(app);
    },
  };
}

/** A browser signed in as `email`: a new session of that account. */
export async function signedIn(email: string, password: string): Promise<Client> {
  const client = newClient();
  await signInWithEmailAndPassword(client.auth, email, password);
  return client;
}

/**
 * An ID token's claims, as the callable protocol hands them to a function. Read here without the Admin SDK: on
 * the emulator its verifyIdToken always checks revocation (in production only when asked), which would answer
 * for the very check under test. The Auth emulator's tokens are unsigned; production verifies the signature.
 */
function claimsOf(idToken: string): Record<string, unknown> {
  const payload = idToken.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A callable as the callable protocol runs it: the caller's ID token read, then the function. */
export async function call(
  backend: EmulatorBackend,
  name: keyof EmulatorBackend['fns'],
  client: Client | null,
  data: unknown = null,
): Promise<unknown> {
  const user = client?.auth.currentUser;
  let auth: { uid: string; token: unknown; rawToken: string } | undefined;
  if (user) {
    const rawToken = await user.getIdToken();
    auth = { uid: user.uid, token: { ...claimsOf(rawToken), uid: user.uid }, rawToken };
  }
  const wrapped = functionsTest.wrap(backend.fns[name] as never) as (request: unknown) => unknown;
  return wrapped({ data, auth, rawRequest: {} });
}

/** What a failed call was refused with: the HttpsError's code, message and reason. */
export async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  return promise.then(
    (result) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
    },
    (error: { code?: string; message?: string }) => ({
      code: error.code ?? '',
      message: error.message ?? '',
    }),
  );
}

/** What a Firestore request through the rules answered: 'ok', or the error's code. */
export async function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? 'error',
  );
}
