// A revoked session on the real emulators: signed out everywhere, or by a password reset or change, a session
// that began before is refused at once by firestore.rules and by every callable (not an hour later, when its ID
// token would expire), as the embedded server refuses it; a session begun after works. The functions' own code on
// the Admin SDK, against the Auth emulator (revokeRefreshTokens, tokensValidAfterTime, verifyIdToken(token, true))
// and the Firestore emulator with firestore.rules; people signed in with the Firebase JS SDK.
import { doc, getDoc, serverTimestamp, setDoc } from 'firebase/firestore';
import {
  EmailAuthProvider,
  confirmPasswordReset,
  reauthenticateWithCredential,
  sendPasswordResetEmail,
  updatePassword,
} from 'firebase/auth';
import { SESSION_ENDED_MESSAGE } from '../../src/callable';
import type { EmulatorBackend, Client } from './support/emulators';
import {
  call,
  clearEmulators,
  emulatorBackend,
  loadFirestoreRules,
  mailedCodes,
  newClient,
  nextSecond,
  outcome,
  refusal,
  signedIn,
} from './support/emulators';

const EMAIL = 'morgan@qupm.test';
const PASSWORD = 'first-password-1';
const NEW_PASSWORD = 'second-password-2';
const CHANNEL = 'ChannelStudio0000001';
const ENDED = { code: 'unauthenticated', message: SESSION_ENDED_MESSAGE };

let backend: EmulatorBackend;
let uid: string;
const clients: Client[] = [];

/** A new session of the member's (closed after the test). */
async function session(password = PASSWORD): Promise<Client> {
  const client = await signedIn(EMAIL, password);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  await loadFirestoreRules();
  backend = emulatorBackend();
});

afterAll(() => backend.close());

beforeEach(async () => {
  await clearEmulators();
  const owner = await backend.admin.auth.createUser({ email: 'dana@qupm.test', password: PASSWORD });
  const member = await backend.admin.auth.createUser({
    email: EMAIL,
    password: PASSWORD,
    emailVerified: true,
  });
  uid = member.uid;
  const { db } = backend.admin;
  await db.doc(`users/${owner.uid}`).set({ email: 'dana@qupm.test', isOwner: true, nickname: 'Dana' });
  await db.doc(`users/${uid}`).set({ email: EMAIL, isOwner: false, nickname: 'Morgan' });
  await db.doc(`channels/${CHANNEL}`).set({
    channelId: 'strategy-studio',
    ownerId: owner.uid,
    title: 'Strategy Studio',
    description: '',
    members: [uid],
    createdAt: new Date(),
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** What `client`'s session can still do: through the rules, and through callables. */
async function reach(client: Client) {
  const message = doc(client.db, 'channels', CHANNEL, 'messages', `Msg${Date.now()}`.padEnd(20, '0'));
  return {
    readsProfile: await outcome(getDoc(doc(client.db, 'users', uid))),
    readsChannel: await outcome(getDoc(doc(client.db, 'channels', CHANNEL))),
    sends: await outcome(
      setDoc(message, { senderId: uid, senderName: 'Morgan', text: 'Hi', createdAt: serverTimestamp() }),
    ),
    overview: await outcome(call(backend, 'get_channel_overview', client)),
    exports: await outcome(call(backend, 'export_my_data', client)),
  };
}

const STANDS = { readsProfile: 'ok', readsChannel: 'ok', sends: 'ok', overview: 'ok', exports: 'ok' };
const REFUSED = {
  readsProfile: 'permission-denied',
  readsChannel: 'permission-denied',
  sends: 'permission-denied',
  overview: 'unauthenticated',
  exports: 'unauthenticated',
};

describe('Sign out everywhere (revoke_sessions)', () => {
  it('refuses every session begun before it at once, through the rules and the callables', async () => {
    const laptop = await session();
    expect(await reach(laptop)).toEqual(STANDS);
    await nextSecond();
    const phone = await session();
    await expect(call(backend, 'revoke_sessions', phone)).resolves.toEqual({ success: true });
    expect(await reach(laptop)).toEqual(REFUSED);
    expect(await refusal(call(backend, 'mark_channel_read', laptop, { channelId: CHANNEL }))).toEqual(ENDED);
    expect(await refusal(call(backend, 'save_push_token', laptop, {}))).toEqual(ENDED);
  });

  it('lets the refused client tell why: its own revocation time is after its session began', async () => {
    const laptop = await session();
    await nextSecond();
    await call(backend, 'revoke_sessions', await session());
    const revocation = await getDoc(doc(laptop.db, 'revocations', uid));
    const { claims } = await laptop.auth.currentUser!.getIdTokenResult();
    expect(revocation.data()?.revokedBefore).toBeGreaterThan(Number(claims.auth_time));
  });

  it('lets a session begun after it work', async () => {
    const laptop = await session();
    await nextSecond();
    await call(backend, 'revoke_sessions', laptop);
    expect(await reach(await session())).toEqual(STANDS);
  });
});

describe('a password reset (Firebase Auth revokes the sessions itself)', () => {
  async function resetPassword(): Promise<void> {
    const visitor = newClient();
    clients.push(visitor);
    await sendPasswordResetEmail(visitor.auth, EMAIL);
    const mailed = (await mailedCodes()).find(
      (code) => code.email === EMAIL && code.requestType === 'PASSWORD_RESET',
    );
    await confirmPasswordReset(visitor.auth, mailed?.oobCode ?? '', NEW_PASSWORD);
  }

  it('refuses every session begun before it once the client reports it (record_revocation)', async () => {
    const laptop = await session();
    await nextSecond();
    await resetPassword();
    await expect(call(backend, 'record_revocation', null, { email: EMAIL })).resolves.toEqual({
      success: true,
    });
    expect(await reach(laptop)).toEqual(REFUSED);
    expect(await reach(await session(NEW_PASSWORD))).toEqual(STANDS);
  });

  it('is found by a callable that asks Firebase Auth when no client reported it, and recorded for the rest', async () => {
    const laptop = await session();
    await nextSecond();
    await resetPassword();
    expect(await refusal(call(backend, 'export_my_data', laptop))).toEqual(ENDED);
    expect(await reach(laptop)).toEqual(REFUSED);
  });
});

describe('a password change (the Firebase adapter: re-authenticate, change, re-authenticate, report)', () => {
  it('refuses the other sessions, and keeps the one that changed it', async () => {
    const laptop = await session();
    const phone = await session();
    await nextSecond();
    const user = phone.auth.currentUser!;
    await reauthenticateWithCredential(user, EmailAuthProvider.credential(EMAIL, PASSWORD));
    await updatePassword(user, NEW_PASSWORD);
    await reauthenticateWithCredential(user, EmailAuthProvider.credential(EMAIL, NEW_PASSWORD));
    await call(backend, 'record_revocation', null, { email: EMAIL });
    expect(await reach(laptop)).toEqual(REFUSED);
    expect(await reach(phone)).toEqual(STANDS);
  });
});
