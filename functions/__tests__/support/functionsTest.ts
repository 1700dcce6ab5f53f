// firebase-functions-test in offline mode (no project, no network), and the functions of functions.ts built
// over the real Firestore repository on the in-memory Admin SDK fake, with a push sender that records.
import firebaseFunctionsTest from 'firebase-functions-test';
import { createFirestoreRepository } from '../../src/firestoreRepository';
import { createFunctions } from '../../src/functions';
import type { Deps, FcmMessage, PushSender, SendResult } from '../../src/repository';
import { createAdminFirestore } from './adminFirestore';
import { MemoryFirestore } from './memoryFirestore';

/** Offline mode: firebase-functions-test sets the environment firebase-functions needs and stubs nothing. */
export const functionsTest = firebaseFunctionsTest({ projectId: 'qupm-test' });

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
  { email: string | null; displayName: string | null; isAdmin?: boolean }
>;

export interface TestBackend {
  store: MemoryFirestore;
  accounts: TestAccounts;
  deps: Deps;
  push: RecordingPushSender;
  clock: { now: number };
  fns: ReturnType<typeof createFunctions>;
}

export function createTestBackend(start = Date.UTC(2026, 0, 15, 12)): TestBackend {
  const clock = { now: start };
  const store = new MemoryFirestore(() => clock.now);
  const push = new RecordingPushSender();
  const accounts: TestAccounts = new Map();
  const deps: Deps = {
    repo: createFirestoreRepository(createAdminFirestore(store).sdk),
    push,
    accounts: {
      lookup: async (uid) => {
        const account = accounts.get(uid);
        return account ? { email: account.email, displayName: account.displayName } : null;
      },
      admins: async (uids) => new Set(uids.filter((uid) => accounts.get(uid)?.isAdmin === true)),
    },
    now: () => clock.now,
    appOrigin: () => APP_ORIGIN,
  };
  return { store, accounts, deps, push, clock, fns: createFunctions(() => deps) };
}

// For tests outside functions/ (the root's contract suite), which cannot resolve functions/'s packages.
export { HttpsError } from 'firebase-functions/v2/https';
export type { CallableRequest } from 'firebase-functions/v2/https';
