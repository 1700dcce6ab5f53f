// firestore.rules of read receipts and typing on the Firestore emulator: channels/{id}/receipts are listed only by
// the channel's participants who share receipts, only where `sharing == true`, and written by functions/ alone;
// channels/{id}/typing/{uid} is written by its typer alone ({at}, the server's time) and read by the channel's
// people. Run with `npm run test:rules`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import {
  Timestamp,
  collection,
  deleteDoc,
  doc,
  getDocs,
  query,
  serverTimestamp,
  setDoc,
  where,
  writeBatch,
} from 'firebase/firestore';

const OWNER = 'ConsultantUid0000001';
const MEMBER = 'MemberUid00000000001';
const QUIET = 'QuietUid000000000001';
const STRANGER = 'StrangerUid000000001';
const ADMIN = 'AdminUid000000000001';
const CHANNEL = 'ChannelStudio0000001';
let env: RulesTestEnvironment;

beforeAll(async () => {
  env = await initializeTestEnvironment({
    projectId: 'demo-qupm-receipts-rules',
    firestore: { rules: readFileSync(path.resolve(__dirname, '../../../firestore.rules'), 'utf8') },
  });
});

afterAll(() => env.cleanup());

beforeEach(async () => {
  await env.clearFirestore();
  await env.withSecurityRulesDisabled(async (context) => {
    const db = context.firestore();
    const batch = writeBatch(db);
    for (const uid of [OWNER, MEMBER, STRANGER, ADMIN])
      batch.set(doc(db, 'users', uid), { email: `${uid}@x.test` });
    batch.set(doc(db, 'users', QUIET), { email: 'quiet@x.test', readReceipts: false });
    batch.set(doc(db, 'channels', CHANNEL), {
      ownerId: OWNER,
      title: 'Strategy Studio',
      members: [MEMBER, QUIET],
      createdAt: serverTimestamp(),
    });
    const mark = { createdAt: 1, id: 'MessageOne0000000001' };
    const receipt = (uid: string, sharing: boolean) =>
      batch.set(doc(db, 'channels', CHANNEL, 'receipts', uid), {
        uid,
        name: uid,
        sharing,
        read: mark,
        readAt: 2,
        delivered: mark,
      });
    receipt(OWNER, true);
    receipt(MEMBER, true);
    receipt(QUIET, false);
    await batch.commit();
  });
});

const dbOf = (uid: string) =>
  env.authenticatedContext(uid, uid === ADMIN ? { isAdmin: true } : {}).firestore();
const receipts = (uid: string) => collection(dbOf(uid), 'channels', CHANNEL, 'receipts');
const sharing = (uid: string) => query(receipts(uid), where('sharing', '==', true));
const typingOf = (uid: string, typer = uid) => doc(dbOf(uid), 'channels', CHANNEL, 'typing', typer);

describe('channels/{id}/receipts', () => {
  it("lists the sharing participants' receipts to a participant who shares them", async () => {
    const listed = await assertSucceeds(getDocs(sharing(MEMBER)));
    expect(listed.docs.map((d) => d.id).sort()).toEqual([MEMBER, OWNER].sort());
    await assertSucceeds(getDocs(sharing(OWNER)));
  });

  it('refuses any query that could return someone who turned receipts off', async () => {
    await assertFails(getDocs(receipts(MEMBER)));
    await assertFails(getDocs(query(receipts(MEMBER), where('sharing', '==', false))));
  });

  it('refuses a participant who turned receipts off: they see none', async () => {
    await assertFails(getDocs(sharing(QUIET)));
  });

  it('refuses strangers and admins (who are no participants)', async () => {
    await assertFails(getDocs(sharing(STRANGER)));
    await assertFails(getDocs(sharing(ADMIN)));
  });

  it('lets no client write one, not even its own', async () => {
    await assertFails(
      setDoc(doc(receipts(MEMBER), MEMBER), {
        uid: MEMBER,
        name: 'M',
        sharing: true,
        read: null,
        readAt: null,
        delivered: null,
      }),
    );
    await assertFails(deleteDoc(doc(receipts(MEMBER), MEMBER)));
  });
});

describe('channels/{id}/typing', () => {
  it("lets a participant signal in their own document at the server's time, and the channel's people read it", async () => {
    await assertSucceeds(setDoc(typingOf(MEMBER), { at: serverTimestamp() }));
    await assertSucceeds(setDoc(typingOf(MEMBER), { at: serverTimestamp() }));
    await assertSucceeds(getDocs(collection(dbOf(OWNER), 'channels', CHANNEL, 'typing')));
  });

  it("refuses another's document, other fields, a client's time, and deletion", async () => {
    await assertFails(setDoc(typingOf(MEMBER, OWNER), { at: serverTimestamp() }));
    await assertFails(setDoc(typingOf(MEMBER), { at: serverTimestamp(), text: 'secret draft' }));
    await assertFails(setDoc(typingOf(MEMBER), { at: Timestamp.fromMillis(Date.now() + 60_000) }));
    await assertSucceeds(setDoc(typingOf(MEMBER), { at: serverTimestamp() }));
    await assertFails(deleteDoc(typingOf(MEMBER)));
  });

  it('refuses strangers, writing or reading', async () => {
    await assertFails(setDoc(typingOf(STRANGER), { at: serverTimestamp() }));
    await assertFails(getDocs(collection(dbOf(STRANGER), 'channels', CHANNEL, 'typing')));
  });
});
