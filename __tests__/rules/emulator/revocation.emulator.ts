// firestore.rules on the Firestore emulator: a revoked session is refused at once. Firebase ID tokens live an
// hour and rules cannot ask Firebase Auth about them, so functions/ keep revocations/{uid} ({revokedBefore}: the
// second before which the account's sessions were ended, Auth's tokensValidAfterTime) and the rules compare it
// with the token's auth_time, as Firebase documents ("Detect ID token revocation in Firebase Security Rules"). A
// session that began in the very second of the revocation stands, as verifyIdToken(token, true) decides.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import {
  collection,
  deleteDoc,
  doc,
  getDoc,
  getDocs,
  limit,
  orderBy,
  query,
  serverTimestamp,
  setDoc,
  updateDoc,
  where,
} from 'firebase/firestore';

const OWNER = 'ConsultantUid0000001';
const MEMBER = 'MemberUid00000000001';
const CHANNEL = 'ChannelStudio0000001';
/** When MEMBER's sessions were revoked (seconds, as auth_time counts). */
const REVOKED_BEFORE = 1_800_000_000;

let env: RulesTestEnvironment;

beforeAll(async () => {
  env = await initializeTestEnvironment({
    projectId: 'demo-qupm-revocation',
    firestore: { rules: readFileSync(path.resolve(__dirname, '../../../firestore.rules'), 'utf8') },
  });
});

afterAll(() => env.cleanup());

beforeEach(async () => {
  await env.clearFirestore();
  await env.withSecurityRulesDisabled(async (context) => {
    const db = context.firestore();
    await setDoc(doc(db, 'users', OWNER), { email: 'dana@qupm.test', isOwner: true });
    await setDoc(doc(db, 'users', MEMBER), { email: 'morgan@qupm.test', nickname: 'Morgan' });
    await setDoc(doc(db, 'channels', CHANNEL), {
      channelId: 'strategy-studio',
      ownerId: OWNER,
      title: 'Strategy Studio',
      description: '',
      members: [MEMBER],
      createdAt: serverTimestamp(),
    });
    await setDoc(doc(db, 'channelHandles', 'strategy-studio'), { id: CHANNEL });
    await setDoc(doc(db, 'users', MEMBER, 'FCMTokens', 'TokenMember000000001'), {
      token: 'fcm-token-0123456789abcdef:APA91b',
      status: 'active',
      lastUsed: serverTimestamp(),
    });
    await setDoc(doc(db, 'users', MEMBER, 'channelPrefs', CHANNEL), { mutedUntil: 1 });
    await setDoc(doc(db, 'offers', 'OfferActive000000001'), { userId: MEMBER, status: 'active' });
    await setDoc(doc(db, 'revocations', MEMBER), { revokedBefore: REVOKED_BEFORE });
  });
});

/** MEMBER's Firestore, with an ID token of a session that began at `authTime` (seconds). */
const memberSignedInAt = (authTime: number) =>
  env
    .authenticatedContext(MEMBER, {
      auth_time: authTime,
      email: 'morgan@qupm.test',
      email_verified: true,
    })
    .firestore();

type Db = ReturnType<typeof memberSignedInAt>;

/** Everything the client does with its own session (on MEMBER's Firestore at `authTime`), each a promise. */
function everyUse(authTime: number): Array<[string, () => Promise<unknown>]> {
  const uses: Array<[string, (db: Db) => Promise<unknown>]> = [
    ['reads their user document', (db) => getDoc(doc(db, 'users', MEMBER))],
    ['changes their nickname', (db) => updateDoc(doc(db, 'users', MEMBER), { nickname: 'Mo' })],
    ['reads a channel', (db) => getDoc(doc(db, 'channels', CHANNEL))],
    [
      'lists their channels',
      (db) => getDocs(query(collection(db, 'channels'), where('members', 'array-contains', MEMBER))),
    ],
    ['resolves a handle', (db) => getDoc(doc(db, 'channelHandles', 'strategy-studio'))],
    [
      'reads messages',
      (db) =>
        getDocs(query(collection(db, 'channels', CHANNEL, 'messages'), orderBy('createdAt'), limit(50))),
    ],
    [
      'sends a message',
      (db) =>
        setDoc(doc(db, 'channels', CHANNEL, 'messages', 'ClientChosenId000001'), {
          senderId: MEMBER,
          senderName: 'Morgan',
          text: 'Still here?',
          createdAt: serverTimestamp(),
        }),
    ],
    ['reads their push tokens', (db) => getDocs(collection(db, 'users', MEMBER, 'FCMTokens'))],
    [
      'touches their push token',
      (db) =>
        updateDoc(doc(db, 'users', MEMBER, 'FCMTokens', 'TokenMember000000001'), {
          lastUsed: serverTimestamp(),
        }),
    ],
    ['reads their mutes', (db) => getDocs(collection(db, 'users', MEMBER, 'channelPrefs'))],
    ['reads their offers', (db) => getDoc(doc(db, 'offers', 'OfferActive000000001'))],
    [
      'deletes their push token',
      (db) => deleteDoc(doc(db, 'users', MEMBER, 'FCMTokens', 'TokenMember000000001')),
    ],
  ];
  // The context is made when the test runs: the environment does not exist yet when it.each reads this.
  return uses.map(([label, use]) => [label, () => use(memberSignedInAt(authTime))]);
}

describe('a revoked session', () => {
  it.each(everyUse(REVOKED_BEFORE - 3600))('is refused when it %s', async (_label, use) => {
    await assertFails(use());
  });
});

describe('a session that began after the revocation (a new sign-in)', () => {
  it.each(everyUse(REVOKED_BEFORE + 1))('%s', async (_label, use) => {
    await assertSucceeds(use());
  });

  it('includes one that began in the very second of the revocation, as verifyIdToken(token, true) decides', async () => {
    await assertSucceeds(getDoc(doc(memberSignedInAt(REVOKED_BEFORE), 'users', MEMBER)));
  });
});

describe('revocations/{uid}', () => {
  it('is read by its own account, revoked or not, so that a refused client can tell why', async () => {
    const revoked = memberSignedInAt(REVOKED_BEFORE - 3600);
    const snapshot = await assertSucceeds(getDoc(doc(revoked, 'revocations', MEMBER)));
    expect(snapshot.data()).toEqual({ revokedBefore: REVOKED_BEFORE });
    // An account never revoked reads that it has none.
    const owner = env.authenticatedContext(OWNER, { auth_time: REVOKED_BEFORE }).firestore();
    expect((await assertSucceeds(getDoc(doc(owner, 'revocations', OWNER)))).exists()).toBe(false);
  });

  it('is read by nobody else, and written by no client: a revoked session cannot undo its revocation', async () => {
    const revoked = memberSignedInAt(REVOKED_BEFORE - 3600);
    const fresh = memberSignedInAt(REVOKED_BEFORE + 1);
    const owner = env.authenticatedContext(OWNER, { auth_time: REVOKED_BEFORE }).firestore();
    await assertFails(getDoc(doc(owner, 'revocations', MEMBER)));
    await assertFails(getDocs(collection(fresh, 'revocations')));
    await assertFails(getDoc(doc(env.unauthenticatedContext().firestore(), 'revocations', MEMBER)));
    for (const db of [revoked, fresh]) {
      await assertFails(updateDoc(doc(db, 'revocations', MEMBER), { revokedBefore: 0 }));
      await assertFails(deleteDoc(doc(db, 'revocations', MEMBER)));
    }
    await assertFails(setDoc(doc(owner, 'revocations', OWNER), { revokedBefore: 0 }));
  });
});
