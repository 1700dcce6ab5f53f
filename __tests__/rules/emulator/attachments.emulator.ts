// firestore.rules on the Firestore emulator: a message's file is tied to its upload, as on the embedded server
// (server/services/attachments.ts claimAttachment): only the uploader's own upload, in the same channel, not sent
// before, exactly as it was recorded. The Firebase adapter records an upload at channels/{channelId}/uploads/{id}
// before its bytes go to Cloud Storage (storage.rules hold the bytes to the record), and sends a message and claims
// its upload in one batch: the message's rule reads the upload before and after the write (get, getAfter), the
// upload's rule the message after it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import {
  deleteDoc,
  deleteField,
  doc,
  getDoc,
  serverTimestamp,
  setDoc,
  updateDoc,
  writeBatch,
} from 'firebase/firestore';

const OWNER = 'ConsultantUid0000001';
const MEMBER = 'MemberUid00000000001';
const OTHER = 'OtherMemberUid000001';
const STRANGER = 'StrangerUid000000001';
const CHANNEL = 'ChannelStudio0000001';
const ELSEWHERE = 'ChannelElsewhere0001';
const NAMES: Record<string, string> = { [OWNER]: 'Dana', [MEMBER]: 'Morgan', [OTHER]: 'Sam' };

const PDF = {
  id: 'UploadPlan0000000001',
  kind: 'document',
  name: 'plan.pdf',
  contentType: 'application/pdf',
  size: 1200,
};
const PNG = {
  id: 'UploadSketch00000001',
  kind: 'image',
  name: 'sketch.png',
  contentType: 'image/png',
  size: 640,
  width: 32,
  height: 24,
};

let env: RulesTestEnvironment;

beforeAll(async () => {
  env = await initializeTestEnvironment({
    projectId: 'demo-qupm-attachments',
    firestore: { rules: readFileSync(path.resolve(__dirname, '../../../firestore.rules'), 'utf8') },
  });
});

afterAll(() => env.cleanup());

beforeEach(async () => {
  await env.clearFirestore();
  await env.withSecurityRulesDisabled(async (context) => {
    const db = context.firestore();
    for (const [uid, nickname] of Object.entries(NAMES)) {
      await setDoc(doc(db, 'users', uid), { email: `${uid}@qupm.test`, nickname });
    }
    await setDoc(doc(db, 'users', STRANGER), { email: 'stranger@qupm.test', nickname: 'Alex' });
    for (const id of [CHANNEL, ELSEWHERE]) {
      await setDoc(doc(db, 'channels', id), {
        channelId: id.toLowerCase(),
        ownerId: OWNER,
        title: id,
        description: '',
        members: [MEMBER, OTHER],
        createdAt: serverTimestamp(),
      });
    }
  });
});

type Db = ReturnType<ReturnType<RulesTestEnvironment['authenticatedContext']>['firestore']>;
/** One Firestore instance per person and test: a batch takes references of its own instance only. */
const dbs = new Map<string, Db>();
beforeEach(() => dbs.clear());
function dbOf(uid: string): Db {
  const db = dbs.get(uid) ?? env.authenticatedContext(uid).firestore();
  dbs.set(uid, db);
  return db;
}
const uploadRef = (uid: string, id: string, channel = CHANNEL) =>
  doc(dbOf(uid), 'channels', channel, 'uploads', id);
const messageRef = (uid: string, id: string, channel = CHANNEL) =>
  doc(dbOf(uid), 'channels', channel, 'messages', id);

/** An upload record as the Firebase adapter writes it before the bytes go to Cloud Storage. */
const upload = (uid: string, attachment: object) => ({
  uploaderId: uid,
  attachment,
  createdAt: serverTimestamp(),
  messageId: null,
});

/** An upload recorded by `uid` (as they may write it themselves). */
async function uploaded(uid: string, attachment: { id: string }, channel = CHANNEL): Promise<void> {
  await assertSucceeds(setDoc(uploadRef(uid, attachment.id, channel), upload(uid, attachment)));
}

/** An upload record stored as `uid` writes it, put there directly: what follows tests the message alone. */
const recorded = (uid: string, attachment: { id: string }, channel = CHANNEL) =>
  env.withSecurityRulesDisabled((context) =>
    setDoc(doc(context.firestore(), 'channels', channel, 'uploads', attachment.id), upload(uid, attachment)),
  );

const message = (uid: string, attachment: object, text = '') => ({
  senderId: uid,
  senderName: NAMES[uid],
  text,
  attachment,
  createdAt: serverTimestamp(),
});

/** The adapter's send: the message and its upload's claim in one batch. */
function send(uid: string, messageId: string, attachment: { id: string }, channel = CHANNEL) {
  const batch = writeBatch(dbOf(uid));
  batch.set(messageRef(uid, messageId, channel), message(uid, attachment));
  batch.update(uploadRef(uid, attachment.id, channel), { messageId });
  return batch.commit();
}

describe('an upload record', () => {
  it('is written by a member for their own file in the channel, unsent, at the server time', async () => {
    await uploaded(MEMBER, PDF);
    await uploaded(OWNER, PNG);
  });

  it.each([
    ['in a channel they are not in', STRANGER, upload(STRANGER, PDF)],
    ["in someone else's name", MEMBER, upload(OTHER, PDF)],
    ['already sent', MEMBER, { ...upload(MEMBER, PDF), messageId: 'SomeMessage000000001' }],
    ['under another id than its file', MEMBER, upload(MEMBER, { ...PDF, id: 'UploadOther000000001' })],
    ['of a type that is not allowed', MEMBER, upload(MEMBER, { ...PDF, contentType: 'text/html' })],
    ['over 10 MB', MEMBER, upload(MEMBER, { ...PDF, size: 10 * 1024 * 1024 + 1 })],
    ['with a time of its own', MEMBER, { ...upload(MEMBER, PDF), createdAt: new Date() }],
    ['with an extra field', MEMBER, { ...upload(MEMBER, PDF), sent: false }],
  ])('is refused %s', async (_label, uid, data) => {
    await assertFails(setDoc(uploadRef(uid, PDF.id), data));
  });

  it("is refused when the file does not fit in what is left of the uploader's storage quota", async () => {
    // core/attachments.ts ATTACHMENT_QUOTA_BYTES (1 GB), less what functions/ counted of their kept files.
    const quota = 1024 * 1024 * 1024;
    const filled = (bytes: number) =>
      env.withSecurityRulesDisabled((context) =>
        setDoc(doc(context.firestore(), 'users', MEMBER), { attachmentBytes: bytes }, { merge: true }),
      );
    await filled(quota - PDF.size + 1);
    await assertFails(setDoc(uploadRef(MEMBER, PDF.id), upload(MEMBER, PDF)));
    await filled(quota - PDF.size);
    await uploaded(MEMBER, PDF);
  });

  it('is read by its uploader only, and its absence by any member', async () => {
    await uploaded(MEMBER, PDF);
    await assertSucceeds(getDoc(uploadRef(MEMBER, PDF.id)));
    await assertFails(getDoc(uploadRef(OTHER, PDF.id)));
    await assertFails(getDoc(uploadRef(STRANGER, PDF.id)));
    expect((await assertSucceeds(getDoc(uploadRef(OTHER, 'NoSuchUpload00000001')))).exists()).toBe(false);
    await assertFails(getDoc(uploadRef(STRANGER, 'NoSuchUpload00000001')));
  });

  it('is never replaced, deleted, or marked sent without its message', async () => {
    await uploaded(MEMBER, PDF);
    await assertFails(setDoc(uploadRef(MEMBER, PDF.id), upload(MEMBER, { ...PDF, size: 99 })));
    await assertFails(updateDoc(uploadRef(MEMBER, PDF.id), { messageId: 'NoSuchMessage0000001' }));
    await assertFails(updateDoc(uploadRef(MEMBER, PDF.id), { attachment: { ...PDF, size: 99 } }));
    await assertFails(deleteDoc(uploadRef(MEMBER, PDF.id)));
  });
});

/** The message alone, as the adapter wrote it before uploads were recorded: no claim. */
const sendAlone = (uid: string, messageId: string, attachment: object, channel = CHANNEL) =>
  setDoc(messageRef(uid, messageId, channel), message(uid, attachment));

/** The message with a claim of the upload `claimed` (in `channel`), whatever the message declares. */
function sendClaiming(uid: string, messageId: string, declared: object, claimed: string, channel = CHANNEL) {
  const batch = writeBatch(dbOf(uid));
  batch.set(messageRef(uid, messageId), message(uid, declared));
  batch.update(uploadRef(uid, claimed, channel), { messageId });
  return batch.commit();
}

describe('a message with a file', () => {
  it('is sent by its uploader with the upload claimed in the same write', async () => {
    await recorded(MEMBER, PNG);
    await assertSucceeds(send(MEMBER, 'MessageWithFile00001', PNG));
    const claimed = await getDoc(uploadRef(MEMBER, PNG.id));
    expect(claimed.data()?.messageId).toBe('MessageWithFile00001');
  });

  it('is refused without the claim: a file the backend was never told is sent', async () => {
    await recorded(MEMBER, PDF);
    await assertFails(sendAlone(MEMBER, 'MessageUnclaimed0001', PDF));
  });

  it("is refused with someone else's upload", async () => {
    await recorded(OTHER, PDF);
    await assertFails(sendAlone(MEMBER, 'MessageNotMine000001', PDF));
    await assertFails(send(MEMBER, 'MessageNotMine000002', PDF));
  });

  it('is refused with a file already sent: one upload, one message', async () => {
    await recorded(MEMBER, PDF);
    await assertSucceeds(send(MEMBER, 'MessageFirst00000001', PDF));
    await assertFails(send(MEMBER, 'MessageSecond0000001', PDF));
    await assertFails(sendAlone(MEMBER, 'MessageThird00000001', PDF));
  });

  it.each([
    ['a larger size', { ...PDF, size: 5_000_000 }],
    ['another type', { ...PDF, kind: 'image', contentType: 'image/png', width: 1, height: 1 }],
    ['another name', { ...PDF, name: 'invoice.pdf' }],
  ])('is refused declaring %s than was uploaded', async (_label, declared) => {
    await recorded(MEMBER, PDF);
    await assertFails(sendAlone(MEMBER, 'MessageLying00000001', declared));
    await assertFails(sendClaiming(MEMBER, 'MessageLying00000002', declared, PDF.id));
  });

  it("is refused with another channel's upload", async () => {
    await recorded(MEMBER, PDF, ELSEWHERE);
    await assertFails(sendAlone(MEMBER, 'MessageWrongPlace001', PDF));
    await assertFails(send(MEMBER, 'MessageWrongPlace002', PDF));
    await assertFails(sendClaiming(MEMBER, 'MessageWrongPlace003', PDF, PDF.id, ELSEWHERE));
  });

  it('is refused with an upload never recorded', async () => {
    await assertFails(sendAlone(MEMBER, 'MessageNoUpload00001', PDF));
    await assertFails(send(MEMBER, 'MessageNoUpload00002', PDF));
  });

  it('claims nothing when it is a repeat of a stored message: the write is refused as a whole', async () => {
    await recorded(MEMBER, PDF);
    await assertSucceeds(send(MEMBER, 'MessageOnce000000001', PDF));
    await assertFails(send(MEMBER, 'MessageOnce000000001', PDF));
    expect((await getDoc(uploadRef(MEMBER, PDF.id))).data()?.messageId).toBe('MessageOnce000000001');
  });
});

/** `count` images, each recorded by `uid` under its own id. */
const images = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ ...PNG, id: `UploadAlbum${String(i).padStart(9, '0')}` }));

/** The adapter's send of several files: the message and every upload's claim in one batch. */
function sendAll(uid: string, messageId: string, files: Array<{ id: string }>, claimed = files) {
  const batch = writeBatch(dbOf(uid));
  batch.set(messageRef(uid, messageId), {
    senderId: uid,
    senderName: NAMES[uid],
    text: '',
    attachments: files,
    createdAt: serverTimestamp(),
  });
  for (const file of claimed) batch.update(uploadRef(uid, file.id), { messageId });
  return batch.commit();
}

describe('a message with several files', () => {
  it('is sent with ten uploads, each claimed in the same write', async () => {
    const files = images(10);
    for (const file of files) await recorded(MEMBER, file);
    await assertSucceeds(sendAll(MEMBER, 'MessageAlbum00000001', files));
    for (const file of files) {
      expect((await getDoc(uploadRef(MEMBER, file.id))).data()?.messageId).toBe('MessageAlbum00000001');
    }
  });

  it('is refused with an eleventh file (core/attachments.ts ATTACHMENT_COUNT_MAX)', async () => {
    const files = images(11);
    for (const file of files) await recorded(MEMBER, file);
    await assertFails(sendAll(MEMBER, 'MessageAlbum00000002', files));
    await assertFails(sendAll(MEMBER, 'MessageAlbum00000003', files, files.slice(0, 10)));
  });

  it('is refused when one of its files is not claimed by the same write', async () => {
    const files = images(3);
    for (const file of files) await recorded(MEMBER, file);
    await assertFails(sendAll(MEMBER, 'MessageAlbum00000004', files, files.slice(0, 2)));
    expect((await getDoc(uploadRef(MEMBER, files[0]!.id))).data()?.messageId).toBeNull();
  });

  it("is refused when one of its files is someone else's upload", async () => {
    const [mine, theirs] = images(2);
    await recorded(MEMBER, mine!);
    await recorded(OTHER, theirs!);
    await assertFails(sendAll(MEMBER, 'MessageAlbum00000005', [mine!, theirs!]));
  });

  it('is refused when one of its files is declared otherwise than it was uploaded', async () => {
    const [first, second] = images(2);
    await recorded(MEMBER, first!);
    await recorded(MEMBER, second!);
    await assertFails(
      sendAll(MEMBER, 'MessageAlbum00000006', [first!, { ...second!, size: 99 }], [first!, second!]),
    );
  });

  it('is refused with a file already sent with another message', async () => {
    const [first, second] = images(2);
    await recorded(MEMBER, first!);
    await recorded(MEMBER, second!);
    await assertSucceeds(sendAll(MEMBER, 'MessageAlbum00000007', [first!]));
    await assertFails(sendAll(MEMBER, 'MessageAlbum00000008', [first!, second!]));
  });

  it('is refused with an empty list of files and no text', async () => {
    await assertFails(sendAll(MEMBER, 'MessageAlbum00000009', []));
  });

  it('is refused carrying both the old single file and the list', async () => {
    const [first, second] = images(2);
    await recorded(MEMBER, first!);
    await recorded(MEMBER, second!);
    const batch = writeBatch(dbOf(MEMBER));
    batch.set(messageRef(MEMBER, 'MessageAlbum00000010'), {
      ...message(MEMBER, first!),
      attachments: [second!],
    });
    batch.update(uploadRef(MEMBER, first!.id), { messageId: 'MessageAlbum00000010' });
    batch.update(uploadRef(MEMBER, second!.id), { messageId: 'MessageAlbum00000010' });
    await assertFails(batch.commit());
  });

  it('is a reply too: ten files and a quote in one write, within the rules’ limits', async () => {
    const files = images(10);
    for (const file of files) await recorded(MEMBER, file);
    await env.withSecurityRulesDisabled((context) =>
      setDoc(doc(context.firestore(), 'channels', CHANNEL, 'messages', 'MessageQuoted0000001'), {
        senderId: OWNER,
        senderName: 'Dana',
        text: 'The plan',
        createdAt: serverTimestamp(),
      }),
    );
    const replying = (snippet: string) => {
      const batch = writeBatch(dbOf(MEMBER));
      batch.set(messageRef(MEMBER, 'MessageAlbumReply001'), {
        senderId: MEMBER,
        senderName: NAMES[MEMBER],
        text: '',
        attachments: files,
        replyTo: { id: 'MessageQuoted0000001', senderId: OWNER, senderName: 'Dana', snippet },
        createdAt: serverTimestamp(),
      });
      for (const file of files)
        batch.update(uploadRef(MEMBER, file.id), { messageId: 'MessageAlbumReply001' });
      return batch.commit();
    };
    await assertFails(replying(''));
    await assertSucceeds(replying('The plan'));
  });

  it('is deleted with its files and its reactions gone from the tombstone', async () => {
    const files = images(2);
    for (const file of files) await recorded(MEMBER, file);
    await assertSucceeds(sendAll(MEMBER, 'MessageAlbum00000012', files));
    await assertSucceeds(
      updateDoc(messageRef(OWNER, 'MessageAlbum00000012'), {
        'reactions.ConsultantUid0000001': '👍',
        updatedAt: serverTimestamp(),
      }),
    );
    const deletion = { text: '', deleted: true, updatedAt: serverTimestamp(), attachments: deleteField() };
    await assertFails(updateDoc(messageRef(MEMBER, 'MessageAlbum00000012'), deletion));
    await assertSucceeds(
      updateDoc(messageRef(MEMBER, 'MessageAlbum00000012'), { ...deletion, reactions: deleteField() }),
    );
  });

  it('is deleted by its sender, its files removed from the tombstone', async () => {
    const files = images(2);
    for (const file of files) await recorded(MEMBER, file);
    await assertSucceeds(sendAll(MEMBER, 'MessageAlbum00000011', files));
    await assertFails(
      updateDoc(messageRef(MEMBER, 'MessageAlbum00000011'), {
        text: '',
        deleted: true,
        updatedAt: serverTimestamp(),
      }),
    );
    await assertSucceeds(
      updateDoc(messageRef(MEMBER, 'MessageAlbum00000011'), {
        text: '',
        deleted: true,
        updatedAt: serverTimestamp(),
        attachments: deleteField(),
      }),
    );
  });
});
