// A message's file tied to its upload, on the real Firestore emulator (firestore.rules loaded) with the functions'
// own code on the Admin SDK: a member records an upload (as the Firebase adapter does before the bytes), the bytes
// are checked against that record when they land (check_attachment_upload; Cloud Storage cannot run here, so an
// in-memory bucket holds them), the uploader sends it once in a batch that claims it, nobody else can, and what no
// message took is pruned, record and file (a collection-group query the emulator runs for real).
import { Timestamp } from 'firebase-admin/firestore';
import { deleteField, doc, getDoc, serverTimestamp, setDoc, updateDoc, writeBatch } from 'firebase/firestore';
import type { Attachment } from '../../../core/attachments';
import { UNSENT_ATTACHMENT_TTL_MS } from '../../../core/attachments';
import { pngFile } from '../../../drivers/sampleFiles';
import { attachmentObjectPath } from '../../src/handlers/attachments';
import { functionsTest } from '../support/functionsTest';
import type { Client, EmulatorBackend } from './support/emulators';
import { clearEmulators, emulatorBackend, loadFirestoreRules, outcome, signedIn } from './support/emulators';

const PASSWORD = 'a-password-1';
const CHANNEL = 'ChannelStudio0000001';
const png = pngFile(4, 3);

let backend: EmulatorBackend;
let member: { uid: string; client: Client };
let other: { uid: string; client: Client };

beforeAll(async () => {
  await loadFirestoreRules();
  backend = emulatorBackend();
});

afterAll(() => backend.close());

beforeEach(async () => {
  await clearEmulators();
  backend.bucket.objects.clear();
  const { auth, db } = backend.admin;
  const people = [];
  for (const [email, nickname] of [
    ['morgan@qupm.test', 'Morgan'],
    ['sam@qupm.test', 'Sam'],
  ] as const) {
    const { uid } = await auth.createUser({ email, password: PASSWORD });
    await db.doc(`users/${uid}`).set({ email, nickname });
    people.push({ uid, client: await signedIn(email, PASSWORD) });
  }
  [member, other] = people as [typeof member, typeof other];
  const owner = await auth.createUser({ email: 'dana@qupm.test', password: PASSWORD });
  await db.doc(`channels/${CHANNEL}`).set({
    channelId: 'strategy-studio',
    ownerId: owner.uid,
    title: 'Strategy Studio',
    description: '',
    members: [member.uid, other.uid],
    createdAt: new Date(),
  });
});

afterEach(async () => {
  await Promise.all([member.client.close(), other.client.close()]);
});

const attachment = (id: string, extra: Partial<Attachment> = {}): Attachment => ({
  id,
  kind: 'image',
  name: 'sketch.png',
  contentType: 'image/png',
  size: png.length,
  width: 4,
  height: 3,
  ...extra,
});

/** The Firebase adapter's upload: the record through the rules, then the bytes, then Storage's event. */
async function upload(who: typeof member, file: Attachment, bytes: Uint8Array = png): Promise<void> {
  await setDoc(doc(who.client.db, 'channels', CHANNEL, 'uploads', file.id), {
    uploaderId: who.uid,
    attachment: file,
    createdAt: serverTimestamp(),
    messageId: null,
  });
  const name = attachmentObjectPath(CHANNEL, file.id);
  backend.bucket.put(name, bytes, 'image/png');
  const finalized = functionsTest.wrap(backend.fns.check_attachment_upload) as (event: unknown) => unknown;
  await finalized({
    data: {
      name,
      size: String(bytes.length),
      contentType: 'image/png',
      bucket: 'qupm-test.appspot.com',
      metadata: { uploaderId: who.uid },
    },
  });
}

/** The Firebase adapter's send: the message and the claim of its upload in one batch, through the rules. */
function send(who: typeof member, messageId: string, file: Attachment): Promise<string> {
  const batch = writeBatch(who.client.db);
  batch.set(doc(who.client.db, 'channels', CHANNEL, 'messages', messageId), {
    senderId: who.uid,
    senderName: who === member ? 'Morgan' : 'Sam',
    text: '',
    attachment: file,
    createdAt: serverTimestamp(),
  });
  batch.update(doc(who.client.db, 'channels', CHANNEL, 'uploads', file.id), { messageId });
  return outcome(batch.commit());
}

const uploadDoc = (id: string) => backend.admin.db.doc(`channels/${CHANNEL}/uploads/${id}`);

it('sends a recorded upload once, by its uploader only', async () => {
  const file = attachment('UploadSketch00000001');
  await upload(member, file);
  expect(backend.bucket.objects.has(attachmentObjectPath(CHANNEL, file.id))).toBe(true);
  expect(await send(other, 'MessageTheirs0000001', file)).toBe('permission-denied');
  expect(await send(member, 'MessageMine000000001', file)).toBe('ok');
  expect(await send(member, 'MessageAgain00000001', file)).toBe('permission-denied');
  expect((await uploadDoc(file.id).get()).data()?.messageId).toBe('MessageMine000000001');
  // Another member learns nothing of an upload not theirs, sent or not, but may see that an id is not one.
  expect(await outcome(getDoc(doc(other.client.db, 'channels', CHANNEL, 'uploads', file.id)))).toBe(
    'permission-denied',
  );
  const none = await getDoc(doc(other.client.db, 'channels', CHANNEL, 'uploads', 'NoSuchUpload00000001'));
  expect(none.exists()).toBe(false);
});

it('removes bytes that are not what their upload was recorded as, record and all, so nothing can send them', async () => {
  const file = attachment('UploadLying000000001', { width: 400, height: 300, size: png.length });
  await upload(member, file);
  expect(backend.bucket.objects.has(attachmentObjectPath(CHANNEL, file.id))).toBe(false);
  expect((await uploadDoc(file.id).get()).exists).toBe(false);
  expect(await send(member, 'MessageLying00000001', file)).toBe('permission-denied');
});

/** A document's data as a trigger's event carries it (firebase-functions-test encodes Dates, not Timestamps). */
const eventData = (data: Record<string, unknown> = {}) =>
  Object.fromEntries(
    Object.entries(data).map(([key, value]) => [key, value instanceof Timestamp ? value.toDate() : value]),
  );

it('deletes the file and its record with the message', async () => {
  const file = attachment('UploadGone0000000001');
  await upload(member, file);
  await send(member, 'MessageGone000000001', file);
  const stored = backend.admin.db.doc(`channels/${CHANNEL}/messages/MessageGone000000001`);
  const before = (await stored.get()).data();
  // The adapter's deletion, through the rules: the tombstone keeps no attachment.
  await updateDoc(doc(member.client.db, 'channels', CHANNEL, 'messages', 'MessageGone000000001'), {
    text: '',
    deleted: true,
    updatedAt: serverTimestamp(),
    attachment: deleteField(),
  });
  const after = (await stored.get()).data();
  const deleted = functionsTest.wrap(backend.fns.on_message_deleted) as (event: unknown) => Promise<unknown>;
  await deleted({
    data: { before: eventData(before), after: eventData(after) },
    params: { channelId: CHANNEL, messageId: 'MessageGone000000001' },
  });
  expect(backend.bucket.objects.has(attachmentObjectPath(CHANNEL, file.id))).toBe(false);
  expect((await uploadDoc(file.id).get()).exists).toBe(false);
});

it('prunes the uploads no message took after a day, record and file, and nothing else', async () => {
  const sent = attachment('UploadSent0000000001');
  const unsent = attachment('UploadUnsent00000001');
  const fresh = attachment('UploadFresh000000001');
  for (const file of [sent, unsent, fresh]) await upload(member, file);
  await send(member, 'MessageSent000000001', sent);
  const dayAgo = new Date(Date.now() - UNSENT_ATTACHMENT_TTL_MS - 60_000);
  for (const file of [sent, unsent]) await uploadDoc(file.id).update({ createdAt: dayAgo });
  await expect(backend.deps.files.list('channels/')).resolves.toHaveLength(3);
  const prune = backend.fns.prune_unsent_attachments as unknown as { run(event: unknown): Promise<unknown> };
  await prune.run({ scheduleTime: new Date().toISOString() });
  expect((await uploadDoc(unsent.id).get()).exists).toBe(false);
  expect(backend.bucket.objects.has(attachmentObjectPath(CHANNEL, unsent.id))).toBe(false);
  for (const kept of [sent, fresh]) {
    expect((await uploadDoc(kept.id).get()).exists).toBe(true);
    expect(backend.bucket.objects.has(attachmentObjectPath(CHANNEL, kept.id))).toBe(true);
  }
});
