// firebase-functions-test in offline mode (no project, no network), and the functions of functions.ts built
// over the real Firestore repository on the in-memory Admin SDK fake, with a push sender that records.
import firebaseFunctionsTest from 'firebase-functions-test';
import { createFirestoreRepository } from '../../src/firestoreRepository';
import { createFunctions } from '../../src/functions';
import type { Deps, FcmMessage, PushSender, SendResult } from '../../src/repository';
import { createAdminFirestore } from './adminFirestore';
import { MemoryFirestore } from './memoryFirestore';
import { MemoryBucket } from './memoryBucket';
import { createBucketFiles } from '../../src/storageFiles';

/** Offline mode: firebase-functions-test sets the environment firebase-functions needs (a project, and the default
 * bucket the Storage trigger is defined on) and stubs nothing. */
export const functionsTest = firebaseFunctionsTest({
  projectId: 'qupm-test',
  storageBucket: 'qupm-test.appspot.com',
});

export const APP_ORIGIN = 'https://qupm-test.web.app';

export class RecordingPushSender implements PushSender {
  readonly sent: FcmMessage[] = [];
  /** The answer for a token; success unless a test says otherwise. */
  answers = new Map<string, SendResult>();
  async send(messages: readonly FcmMessage[]): Promise<SendResult[]> {
    this.sent.push(...messages);
    return messages.map((message) => this.answers.get(message.token) ?? { success: true });
  }
}

/** Firebase Auth's accounts as the tests set them (uid → account, with its isAdmin custom claim). */
export type TestAccounts = Map<
  string,
  {
    email: string | null;
    displayName: string | null;
    isAdmin?: boolean;
    revokedAt?: number;
    emailVerified?: boolean;
  }
>;

/** The fake ID token requestAs gives a caller signed in at `issuedAt` (read back by sessionStands). */
export const fakeIdToken = (uid: string, issuedAt: number): string => `fake-id-token:${uid}:${issuedAt}`;

/** As verifyIdToken(token, true) decides: a token issued before its account's sessions were revoked is refused. */
export function fakeSessionStands(idToken: string, revokedAt: (uid: string) => number | undefined): boolean {
  const [prefix, uid, issuedAt] = idToken.split(':');
  if (prefix !== 'fake-id-token' || !uid || !issuedAt) return false;
  const since = revokedAt(uid);
  return since === undefined || Number(issuedAt) >= since;
}

export interface TestBackend {
  store: MemoryFirestore;
  accounts: TestAccounts;
  deps: Deps;
  push: RecordingPushSender;
  /** Cloud Storage's default bucket (attachments). */
  bucket: MemoryBucket;
  clock: { now: number };
  fns: ReturnType<typeof createFunctions>;
}

export function createTestBackend(start = Date.UTC(2026, 0, 15, 12)): TestBackend {
  const clock = { now: start };
  const store = new MemoryFirestore(() => clock.now);
  const push = new RecordingPushSender();
  const accounts: TestAccounts = new Map();
  const bucket = new MemoryBucket(() => clock.now);
  const deps: Deps = {
    repo: createFirestoreRepository(createAdminFirestore(store).sdk),
    push,
    files: createBucketFiles(bucket),
    accounts: {
      lookup: async (uid) => {
        const account = accounts.get(uid);
        return account
          ? {
              email: account.email,
              displayName: account.displayName,
              emailVerified: account.emailVerified === true,
            }
          : null;
      },
      admins: async (uids) => new Set(uids.filter((uid) => accounts.get(uid)?.isAdmin === true)),
      deleteAccount: async (uid) => {
        accounts.delete(uid);
      },
      revokeSessions: async (uid) => {
        const account = accounts.get(uid);
        if (account) account.revokedAt = clock.now;
        else accounts.set(uid, { email: null, displayName: null, revokedAt: clock.now });
        return Math.floor(clock.now / 1000);
      },
      revokedBefore: async (who) => {
        const uid =
          'uid' in who ? who.uid : [...accounts].find(([, account]) => account.email === who.email)?.[0];
        const account = uid === undefined ? undefined : accounts.get(uid);
        if (uid === undefined || !account) return null;
        return { uid, revokedBefore: Math.floor((account.revokedAt ?? 0) / 1000) };
      },
      sessionStands: async (idToken) => fakeSessionStands(idToken, (uid) => accounts.get(uid)?.revokedAt),
    },
    now: () => clock.now,
    appOrigin: () => APP_ORIGIN,
  };
  return { store, accounts, deps, push, bucket, clock, fns: createFunctions(() => deps) };
}

// For tests outside functions/ (the root's contract suite), which cannot resolve functions/'s packages.
export { HttpsError } from 'firebase-functions/v2/https';
export type { CallableRequest } from 'firebase-functions/v2/https';
