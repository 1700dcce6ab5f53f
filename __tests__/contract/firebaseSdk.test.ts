// The contract suite's Firebase client fake (support/firebaseSdk.ts) behaves as the Firebase JS SDK does where the
// adapter relies on it, so that a green contract run means something: latency-compensated writes and their
// confirmation, when a live query is raised and with which changes, what a network drop does, and the messages
// rules. Each expectation is the SDK's documented (or, where the docs are silent, source-code) behaviour.
import { publicName } from '../../core/users';
import { CHANNELS, PASSWORD, PEOPLE } from './support/world';
import { createFirebaseHarness } from './support/firebaseHarness';
import { firebaseModules } from './support/firebaseSdk';
import type { Harness } from './support/harness';
import { eventually as passes } from '../support/eventually';

const sdk = firebaseModules();
const fs = sdk.firestore;
type Snapshot = {
  metadata: { fromCache: boolean; hasPendingWrites: boolean };
  docs: Array<{
    id: string;
    metadata: { hasPendingWrites: boolean };
    data(options?: object): Record<string, unknown>;
  }>;
  docChanges(options?: { includeMetadataChanges?: boolean }): Array<{ type: string; doc: { id: string } }>;
};

let h: Harness;
beforeEach(async () => {
  h = await createFirebaseHarness();
});
afterEach(() => h.close());

async function signedIn(who: keyof typeof PEOPLE) {
  const app = sdk.app.initializeApp();
  await sdk.auth.signInWithEmailAndPassword(app.auth, PEOPLE[who].email, PASSWORD);
  return fs.initializeFirestore(app);
}

function record(target: Parameters<typeof fs.onSnapshot>[0], includeMetadataChanges: boolean) {
  const snapshots: Snapshot[] = [];
  const errors: unknown[] = [];
  const stop = fs.onSnapshot(
    target,
    { includeMetadataChanges },
    (snapshot: Snapshot) => snapshots.push(snapshot),
    (error: unknown) => errors.push(error),
  );
  return { snapshots, errors, stop };
}

/**
 * Waits until `check` passes: the fake answers on later turns of the event loop, as the SDK does, and how many
 * turns depends on the load; what a test looks at in between is the history of snapshots, never a moment.
 */
const eventually = (check: () => void) => passes(check, { timeoutMs: 3000, everyMs: 5 });
const idsOf = (snapshot: Snapshot | undefined) => snapshot?.docs.map((doc) => doc.id) ?? [];
const messages = (db: ReturnType<typeof fs.initializeFirestore>) =>
  fs.collection(db, 'channels', CHANNELS.studio.id, 'messages');
/** A message without a sender name (the rules allow it absent, or the sender's own public name). */
const newMessage = (senderId: string, text = 'hi') => ({
  senderId,
  text,
  createdAt: fs.serverTimestamp(),
});

it('shows a write at once with pending writes, then confirmed; a metadata-only change only when asked for', async () => {
  const db = await signedIn('member');
  const withMetadata = record(messages(db), true);
  const without = record(messages(db), false);
  await eventually(() => expect(withMetadata.snapshots).toHaveLength(1));
  const ref = fs.doc(db, 'channels', CHANNELS.studio.id, 'messages', 'ClientChosenId000001');
  await fs.setDoc(ref, newMessage(PEOPLE.member.uid));
  const states = () =>
    withMetadata.snapshots.map((snapshot) => snapshot.docs.find((doc) => doc.id === 'ClientChosenId000001'));
  await eventually(() => expect(states().at(-1)?.metadata.hasPendingWrites).toBe(false));
  const pending = states().find((doc) => doc?.metadata.hasPendingWrites);
  // Raised before the server answered, its server timestamp read as null, or as the estimate when asked.
  expect(pending).toBeDefined();
  expect(pending?.data().createdAt).toBeNull();
  expect(pending?.data({ serverTimestamps: 'estimate' }).createdAt).not.toBeNull();
  const confirmation = withMetadata.snapshots.find(
    (snapshot, i) =>
      i > 0 && states()[i - 1]?.metadata.hasPendingWrites && !states()[i]?.metadata.hasPendingWrites,
  );
  expect(confirmation?.docChanges({ includeMetadataChanges: true }).map((c) => c.type)).toEqual(['modified']);
  // Asking a listener without metadata changes for them is an error in the SDK.
  await eventually(() => expect(without.snapshots.length).toBeGreaterThan(1));
  expect(() => without.snapshots.at(-1)?.docChanges({ includeMetadataChanges: true })).toThrow(
    /includeMetadataChanges/,
  );
  withMetadata.stop();
  without.stop();
});

it('keeps a pending server timestamp out of a range on that field until the server has set it', async () => {
  const db = await signedIn('member');
  const since = record(
    fs.query(messages(db), fs.where('createdAt', '>=', fs.Timestamp.fromMillis(0)), fs.orderBy('createdAt')),
    true,
  );
  const all = record(messages(db), true);
  await eventually(() => expect(since.snapshots).toHaveLength(1));
  await fs.setDoc(
    fs.doc(db, 'channels', CHANNELS.studio.id, 'messages', 'ClientChosenId000002'),
    newMessage(PEOPLE.member.uid),
  );
  await eventually(() => expect(idsOf(since.snapshots.at(-1))).toContain('ClientChosenId000002'));
  // The unfiltered query showed it pending; the range never did.
  expect(all.snapshots.some((snapshot) => snapshot.docs.some((doc) => doc.metadata.hasPendingWrites))).toBe(
    true,
  );
  expect(since.snapshots.some((snapshot) => snapshot.docs.some((doc) => doc.metadata.hasPendingWrites))).toBe(
    false,
  );
  since.stop();
  all.stop();
});

it('while the network is off: the cache only (fromCache), nothing from others, writes held; then one snapshot', async () => {
  const member = await signedIn('member');
  const consultant = await signedIn('consultant');
  const live = record(messages(member), true);
  const quiet = record(messages(member), false);
  await eventually(() => expect(live.snapshots.at(-1)?.metadata.fromCache).toBe(false));
  await eventually(() => expect(quiet.snapshots).toHaveLength(1));
  await fs.disableNetwork(member);
  await eventually(() => expect(live.snapshots.at(-1)?.metadata.fromCache).toBe(true));
  expect(live.snapshots.at(-1)?.docChanges()).toEqual([]);
  // A listener without metadata changes hears nothing of the drop itself.
  expect(quiet.snapshots).toHaveLength(1);

  const others = ['FromOthers0000000001', 'FromOthers0000000002'];
  for (const id of others) {
    await fs.setDoc(
      fs.doc(consultant, 'channels', CHANNELS.studio.id, 'messages', id),
      newMessage(PEOPLE.consultant.uid),
    );
  }
  let sent = false;
  void fs
    .setDoc(
      fs.doc(member, 'channels', CHANNELS.studio.id, 'messages', 'WrittenOffline000001'),
      newMessage(PEOPLE.member.uid),
    )
    .then(() => {
      sent = true;
    });
  // Its own write shows locally, pending; nothing of the others'; the write waits; a document not cached fails.
  await eventually(() => expect(idsOf(live.snapshots.at(-1))).toContain('WrittenOffline000001'));
  await expect(fs.getDoc(fs.doc(member, 'users', PEOPLE.member.uid))).rejects.toMatchObject({
    code: 'unavailable',
  });
  expect(live.snapshots.flatMap(idsOf)).not.toContain(others[0]);
  expect(sent).toBe(false);

  const count = live.snapshots.length;
  await fs.enableNetwork(member);
  await eventually(() => expect(sent).toBe(true));
  await eventually(() => expect(live.snapshots.at(-1)?.metadata.fromCache).toBe(false));
  const caughtUp = live.snapshots.slice(count).find((snapshot) => !snapshot.metadata.fromCache);
  expect(caughtUp?.docChanges().map((c) => c.doc.id)).toEqual(expect.arrayContaining(others));
  live.stop();
  quiet.stop();
});

it('denies what firestore.rules deny on messages: a repeat of an id, an id of the wrong shape, a stranger, a name not theirs', async () => {
  const member = await signedIn('member');
  const ref = fs.doc(member, 'channels', CHANNELS.studio.id, 'messages', 'ClientChosenId000003');
  await fs.setDoc(ref, newMessage(PEOPLE.member.uid, 'once'));
  await expect(fs.setDoc(ref, newMessage(PEOPLE.member.uid, 'twice'))).rejects.toMatchObject({
    code: 'permission-denied',
  });
  await expect(fs.updateDoc(ref, { text: 'edited' })).rejects.toMatchObject({ code: 'permission-denied' });
  await expect(fs.deleteDoc(ref)).rejects.toMatchObject({ code: 'permission-denied' });
  expect((await fs.getDoc(ref)).data()).toMatchObject({ text: 'once' });
  await expect(
    fs.setDoc(
      fs.doc(member, 'channels', CHANNELS.studio.id, 'messages', 'short'),
      newMessage(PEOPLE.member.uid),
    ),
  ).rejects.toMatchObject({ code: 'permission-denied' });
  // Under someone else's name; under their own public name it is written.
  const named = (id: string, senderName: string) =>
    fs.setDoc(fs.doc(member, 'channels', CHANNELS.studio.id, 'messages', id), {
      ...newMessage(PEOPLE.member.uid),
      senderName,
    });
  await expect(named('ClientChosenId000004', 'Dana the consultant')).rejects.toMatchObject({
    code: 'permission-denied',
  });
  await expect(named('ClientChosenId000005', publicName(PEOPLE.member))).resolves.toBeUndefined();
  const visitor = await signedIn('visitor');
  await expect(fs.getDocs(messages(visitor))).rejects.toMatchObject({ code: 'permission-denied' });
  const refused = record(messages(visitor), true);
  await eventually(() =>
    expect(refused.errors).toEqual([expect.objectContaining({ code: 'permission-denied' })]),
  );
});
