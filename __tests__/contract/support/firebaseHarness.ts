// The contract's Firebase side: the real Firebase adapter on the SDK fakes of firebaseSdk.ts, seeded with the
// world, with functions/'s real callables and triggers over the real Firestore repository on the same store.
import { createFirebaseBackend } from '@/backend/firebase';
import type { FirebaseConfig } from '@/backend/firebase';
import type { Backend } from '@/backend/ports';
import { createAdminFirestore } from '../../../functions/__tests__/support/adminFirestore';
import {
  RecordingPushSender,
  fakeSessionStands,
  functionsTest,
} from '../../../functions/__tests__/support/functionsTest';
import { MemTimestamp, MemoryFirestore } from '../../../functions/__tests__/support/memoryFirestore';
import { createFirestoreRepository } from '../../../functions/src/firestoreRepository';
import { createPracticeRepository } from '../../../functions/src/practiceRepository';
import { createFunctions } from '../../../functions/src/functions';
import type { Deps } from '../../../functions/src/repository';
import { current, fire, setCloud, setNetwork } from './firebaseSdk';
import type { Account, Cloud, FakeApp } from './firebaseSdk';
import { signUpThroughMail } from './harness';
import type { Harness, MailPurpose } from './harness';
import { WORLD_ACCOUNTS, seedWorldDocuments } from './firebaseWorld';
import { PASSWORD, PEOPLE, START } from './world';

const CONFIG: FirebaseConfig = {
  apiKey: 'contract-key',
  authDomain: 'qupm-contract.firebaseapp.com',
  projectId: 'qupm-contract',
  appId: '1:1:web:contract',
  messagingSenderId: '1',
  vapidKey: 'contract-vapid',
  functionsRegion: 'us-central1',
};

/** The action-code mode Firebase Auth mails for each purpose. */
const MAIL_MODES: Record<MailPurpose, 'verifyEmail' | 'resetPassword' | 'verifyAndChangeEmail'> = {
  'verify-email': 'verifyEmail',
  'reset-password': 'resetPassword',
  'change-email': 'verifyAndChangeEmail',
  // A new account's confirmation link; a taken address's owner is mailed a link to choose a new password.
  'sign-up': 'verifyEmail',
  'sign-up-notice': 'resetPassword',
};

function seed(store: MemoryFirestore, accounts: Map<string, Account>): void {
  for (const account of WORLD_ACCOUNTS)
    accounts.set(account.email, { ...account, claims: { ...account.claims } });
  seedWorldDocuments(store);
}

export async function createFirebaseHarness(): Promise<Harness> {
  const clock = { now: START };
  const store = new MemoryFirestore(() => clock.now);
  const accounts = new Map<string, Account>();
  const objects: Cloud['objects'] = new Map();
  const sdk = createAdminFirestore(store).sdk;
  const deps: Deps = {
    repo: createFirestoreRepository(sdk),
    practice: createPracticeRepository(sdk),
    push: new RecordingPushSender(),
    // The Admin SDK's bucket over the same objects the client SDK fake stores (no rules bind it).
    files: {
      list: async (prefix) =>
        [...objects]
          .filter(([path]) => path.startsWith(prefix))
          .map(([path, object]) => ({
            path,
            size: object.size,
            contentType: object.contentType,
            createdAt: clock.now,
          })),
      read: async (path) => {
        const object = objects.get(path);
        if (!object) throw new Error(`No such object: ${path}`);
        return object.data;
      },
      delete: async (path) => void objects.delete(path),
      exists: async (path) => objects.has(path),
    },
    accounts: {
      lookup: async (uid) => {
        const account = [...accounts.values()].find((a) => a.uid === uid);
        return account ? { email: account.email, displayName: account.displayName } : null;
      },
      admins: async (uids) =>
        new Set(
          [...accounts.values()]
            .filter((account) => account.claims.isAdmin === true && uids.includes(account.uid))
            .map((account) => account.uid),
        ),
      deleteAccount: async (uid) => {
        for (const [email, account] of accounts) if (account.uid === uid) accounts.delete(email);
      },
      revokeSessions: async (uid) => {
        const account = [...accounts.values()].find((a) => a.uid === uid);
        if (account) account.revokedAt = clock.now;
        return Math.floor(clock.now / 1000);
      },
      revokedBefore: async (who) => {
        const account = [...accounts.values()].find((a) =>
          'uid' in who ? a.uid === who.uid : a.email === who.email.trim().toLowerCase(),
        );
        return account
          ? { uid: account.uid, revokedBefore: Math.floor((account.revokedAt ?? 0) / 1000) }
          : null;
      },
      sessionStands: async (idToken) =>
        fakeSessionStands(idToken, (uid) => [...accounts.values()].find((a) => a.uid === uid)?.revokedAt),
    },
    now: () => clock.now,
    appOrigin: () => 'https://qupm-contract.web.app',
  };
  const fns = createFunctions(() => deps);
  setCloud({ store, accounts, fns, pending: new Set(), failures: [], clock, apps: [], objects });
  // The device's clock agrees with the server's (the adapter estimates a write's time before reading it back).
  jest.spyOn(Date, 'now').mockImplementation(() => clock.now);
  seed(store, accounts);
  // Firestore's onDocumentUpdated for users/{uid}: a new or removed picture (functions/ on_user_photo_changed).
  const photos = new Map<string, unknown>();
  const stopPhotos = store.onWrite((event) => {
    const match = /^users\/([^/]+)$/.exec(event.path);
    if (!match || event.type !== 'update' || !event.data) return;
    const uid = match[1] ?? '';
    const before = photos.get(uid);
    photos.set(uid, event.data.photoURL);
    if (before === event.data.photoURL) return;
    fire(() =>
      functionsTest.wrap(fns.on_user_photo_changed)({
        data: { before: { photoURL: before ?? null }, after: { photoURL: event.data?.photoURL ?? null } },
        params: { uid },
      } as never),
    );
  });
  const nameFields = (data: Record<string, unknown> | undefined) =>
    Object.fromEntries(['nickname', 'displayName', 'email'].map((key) => [key, data?.[key] ?? null]));
  // The same event for a new public name (functions/ on_user_renamed), with the document before and after.
  const users = new Map<string, Record<string, unknown>>(
    store.query({ collection: 'users', filters: [], orderBy: [] }).map((doc) => [doc.id, doc.data]),
  );
  const stopNames = store.onWrite((event) => {
    const match = /^users\/([^/]+)$/.exec(event.path);
    if (!match || !event.data) return;
    const uid = match[1] ?? '';
    const before = users.get(uid);
    users.set(uid, event.data);
    if (event.type !== 'update' || !before) return;
    fire(() =>
      functionsTest.wrap(fns.on_user_renamed)({
        // The fields a name is made of (the test wrapper cannot encode the store's timestamps).
        data: { before: nameFields(before), after: nameFields(event.data) },
        params: { uid },
      } as never),
    );
  });
  // Firestore's onDocumentCreated for new messages, and onDocumentUpdated for changed ones (an edit, a deletion,
  // the quotes a deletion leaves without words).
  const known = new Map<string, Record<string, unknown>>();
  const stop = store.onWrite((event) => {
    const match = /^channels\/([^/]+)\/messages\/([^/]+)$/.exec(event.path);
    if (!match || !event.data) return;
    // The event's snapshot is built by firebase-functions-test, which encodes Dates but not Timestamps.
    const data = Object.fromEntries(
      Object.entries(event.data).map(([key, value]) => [
        key,
        value instanceof MemTimestamp ? value.toDate() : value,
      ]),
    );
    const before = known.get(event.path);
    known.set(event.path, data);
    const params = { channelId: match[1], messageId: match[2] };
    if (event.type === 'create') {
      fire(() => functionsTest.wrap(fns.on_message_created)({ data, params }));
    } else if (event.type === 'update') {
      // A message seeded before this listener has no known version: the trigger sees it as new.
      fire(() =>
        functionsTest.wrap(fns.on_message_deleted)({
          data: { before: before ?? {}, after: data },
          params,
        } as never),
      );
    }
  });

  // Each backend's Firebase app: the adapter initialises it the first time it is used (synchronously, on the way
  // to signing in), so the app made during that call is this backend's.
  const appOf = new WeakMap<Backend, FakeApp>();
  const adopt = async (backend: Backend, start: () => Promise<unknown>): Promise<Backend> => {
    const before = current().apps.length;
    const started = start();
    const app = current().apps[before];
    if (app) appOf.set(backend, app);
    await started;
    return backend;
  };
  const network = (backend: Backend, online: boolean): void => {
    const app = appOf.get(backend);
    if (!app) throw new Error('disconnect() and reconnect() take a backend from as() or signUp()');
    setNetwork(app, online);
  };

  /** A fresh adapter, its own app made at once (disconnect() finds it; a sign-up makes another, detached). */
  const signedOut = (): Backend => {
    const backend = createFirebaseBackend(CONFIG);
    void adopt(backend, async () => backend.auth.currentUser());
    return backend;
  };
  const mailedToken = async (email: string, purpose: MailPurpose): Promise<string> => {
    const mode = MAIL_MODES[purpose];
    const code = [...accounts.values()]
      .flatMap((account) => account.mailed ?? [])
      .filter((m) => m.mode === mode && m.to === email)
      .at(-1)?.code;
    if (!code) throw new Error(`no ${purpose} link was mailed to ${email}`);
    return code;
  };

  const settle = async (): Promise<void> => {
    while (current().pending.size > 0) await Promise.allSettled([...current().pending]);
    const failed = current().failures.shift();
    if (failed) throw failed;
  };

  return {
    kind: 'firebase',
    pushToken: (seed) => `fcm-${seed.replace(/[^A-Za-z0-9]/g, '')}:APA91bContractToken`,
    as(who) {
      const backend = createFirebaseBackend(CONFIG);
      return adopt(backend, () => backend.auth.signIn({ email: PEOPLE[who].email, password: PASSWORD }));
    },
    signedOut,
    signUp: (input) => signUpThroughMail({ signedOut, settle, mailedToken }, input),
    async unconfirmedAccount(input) {
      // Firebase Auth makes the account at once; its link is left unopened.
      const backend = signedOut();
      await backend.auth.signUp(input);
      await settle();
      await backend.auth.signIn(input);
      return backend;
    },
    async pendingCounts(uid) {
      const docs = store.query({ collection: `users/${uid}/pending`, filters: [], orderBy: [] });
      return Object.fromEntries(docs.map((doc) => [doc.id, doc.data.count as number]));
    },
    settle,
    mailedToken,
    // As Firestore's disableNetwork / enableNetwork: the app's listeners fall back to its cache (fromCache) and
    // hear nothing from others; its writes wait; on return, one snapshot brings what changed meanwhile.
    disconnect: (backend) => network(backend, false),
    reconnect: (backend) => network(backend, true),
    async fillStorage(who, bytes) {
      // The count check_attachment_upload keeps, which storage.rules and the adapter read.
      const path = `users/${PEOPLE[who].uid}`;
      store.set(path, { ...(store.get(path) ?? {}), attachmentBytes: bytes });
    },
    advance: async (ms) => {
      clock.now += ms;
    },
    async close() {
      await settle();
      stop();
      stopPhotos();
      stopNames();
      setCloud(null);
    },
  };
}
