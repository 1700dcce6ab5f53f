// Attachments in Cloud Storage, through the deployed functions wrapped with
// firebase-functions-test, over the in-memory Firestore and a bucket faked at the Admin SDK's edge: deleting a
// message deletes its file and upload record; uploads no message took are pruned after the embedded server's
// period; and an upload's bytes are checked again, with the bad files the embedded server refuses (HTML or SVG
// with script named .png, zero bytes, over 10 MB, a type other than the one it was stored as), and against its
// upload record (the size, type, pixel size and uploader it was recorded with). The same on the Firestore
// emulator: functions/__tests__/emulator/attachments.emulator.ts.
import { logger } from 'firebase-functions';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_QUOTA_BYTES,
  UNSENT_ATTACHMENT_TTL_MS,
} from '../../core/attachments';
import type { Attachment } from '../../core/attachments';
import { docxFile, htmlFile, pdfFile, pngFile, pngOfSize, svgWithScript } from '../../drivers/sampleFiles';
import { attachmentObjectOf, attachmentObjectPath } from '../src/handlers/attachments';
import { functionsTest } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { MemTimestamp } from './support/memoryFirestore';
import { putMessage, putUpload } from './support/seed';
import { CHANNEL, NOW, UID, seededBackend } from './support/world';

const PNG_ID = 'AttachPng00000000001';
const MESSAGE_ID = 'MessageFile000000001';
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let backend: TestBackend;
let warnings: jest.SpyInstance;
beforeEach(() => {
  backend = seededBackend();
  jest.spyOn(logger, 'info').mockImplementation(() => undefined);
  warnings = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
});
afterAll(() => functionsTest.cleanup());

const png = pngFile(4, 3);
const attachment = (id = PNG_ID): Attachment => ({
  id,
  kind: 'image',
  name: 'sketch.png',
  contentType: 'image/png',
  size: png.length,
  width: 4,
  height: 3,
});
const path = (id = PNG_ID) => attachmentObjectPath(CHANNEL, id);
const uploadPath = (id = PNG_ID) => `channels/${CHANNEL}/uploads/${id}`;

/** The upload record of `file`, the member's, as the adapter writes it before the bytes. */
const recordUpload = (file: Attachment, createdAt = NOW, messageId: string | null = null) =>
  putUpload(backend.store, {
    channelId: CHANNEL,
    uploaderId: UID.member,
    attachment: file,
    createdAt,
    messageId,
  });
const messagePath = (id = MESSAGE_ID) => `channels/${CHANNEL}/messages/${id}`;

/** A message of the member's carrying `file`, stored in Firestore. */
function storeMessage(text: string, file: Attachment = attachment(), id = MESSAGE_ID) {
  putMessage(backend.store, {
    id,
    channelId: CHANNEL,
    senderId: UID.member,
    senderName: 'Morgan',
    text,
    createdAt: NOW - 1000,
  });
  const doc = backend.store.get(messagePath(id)) ?? {};
  backend.store.set(messagePath(id), { ...doc, attachment: file });
  return backend.store.get(messagePath(id)) ?? {};
}

/** A message of the member's carrying several `files` (the list a send of several writes). */
function storeMessages(text: string, files: Attachment[], id = MESSAGE_ID) {
  storeMessage(text, files[0], id);
  const doc = { ...(backend.store.get(messagePath(id)) ?? {}) };
  delete doc.attachment;
  backend.store.set(messagePath(id), { ...doc, attachments: files });
  return backend.store.get(messagePath(id)) ?? {};
}

describe('attachment object names', () => {
  it('reads back the channel and attachment of an attachment, and nothing else of the bucket', () => {
    expect(attachmentObjectOf(path())).toEqual({ channelId: CHANNEL, attachmentId: PNG_ID });
    expect(attachmentObjectOf(`channels/${CHANNEL}/attachments/short`)).toBeNull();
    expect(attachmentObjectOf(`channels/${CHANNEL}/other/${PNG_ID}`)).toBeNull();
    expect(attachmentObjectOf(`${path()}/more`)).toBeNull();
  });
});

/** A document's data as the event carries it (firebase-functions-test encodes Dates, not the fake's Timestamps). */
const eventData = (data: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(data).map(([key, value]) => [key, value instanceof MemTimestamp ? value.toDate() : value]),
  );

describe('on_message_deleted', () => {
  const change = (before: Record<string, unknown>, after: Record<string, unknown>) =>
    functionsTest.wrap(backend.fns.on_message_deleted)({
      data: { before: eventData(before), after: eventData(after) },
      params: { channelId: CHANNEL, messageId: MESSAGE_ID },
    } as never);

  it("deletes a deleted message's file, and its upload record", async () => {
    backend.bucket.put(path(), png, 'image/png');
    recordUpload(attachment(), NOW - 2000, MESSAGE_ID);
    const before = storeMessage('Look');
    const tombstone: Record<string, unknown> = { ...before, text: '', deleted: true };
    delete tombstone.attachment;
    await change(before, tombstone);
    expect(backend.bucket.objects.has(path())).toBe(false);
    expect(backend.store.get(uploadPath())).toBeUndefined();
  });

  it('deletes every file of a deleted message with several, and their upload records', async () => {
    const ids = ['AlbumFirst0000000001', 'AlbumSecond000000001'];
    for (const id of ids) {
      backend.bucket.put(path(id), png, 'image/png');
      recordUpload(attachment(id), NOW - 2000, MESSAGE_ID);
    }
    const before = storeMessages(
      'Look',
      ids.map((id) => attachment(id)),
    );
    const tombstone: Record<string, unknown> = { ...before, text: '', deleted: true };
    delete tombstone.attachments;
    await change(before, tombstone);
    for (const id of ids) {
      expect(backend.bucket.objects.has(path(id))).toBe(false);
      expect(backend.store.get(uploadPath(id))).toBeUndefined();
    }
  });

  it('removes the attachment a tombstone still holds (a write rules do not bind), and its file', async () => {
    backend.bucket.put(path(), png, 'image/png');
    const before = storeMessage('Look');
    const after = { ...before, text: '', deleted: true };
    backend.store.set(messagePath(), after);
    await change(before, after);
    expect(backend.bucket.objects.has(path())).toBe(false);
    const stored = backend.store.get(messagePath()) ?? {};
    expect(stored).toMatchObject({ deleted: true, text: '' });
    expect('attachment' in stored).toBe(false);
  });

  it('leaves an edit, and a message without a file, alone', async () => {
    backend.bucket.put(path(), png, 'image/png');
    const before = storeMessage('Look');
    await change(before, { ...before, text: 'Look again', editedAt: NOW });
    const plain = { senderId: UID.member, text: 'Hi' };
    await change(plain, { ...plain, text: '', deleted: true });
    expect(backend.bucket.objects.has(path())).toBe(true);
    expect(backend.store.get(messagePath())).toMatchObject({ attachment: attachment() });
  });

  it('is fine with a file already gone (the client deleted it first)', async () => {
    const before = storeMessage('Look');
    await expect(change(before, { text: '', deleted: true })).resolves.toBeUndefined();
  });
});

describe('on_message_created with a file', () => {
  const created = (data: Record<string, unknown>) =>
    functionsTest.wrap(backend.fns.on_message_created)({
      data: eventData(data),
      params: { channelId: CHANNEL, messageId: MESSAGE_ID },
    } as never);

  it('keeps the file of a message when it is there', async () => {
    backend.bucket.put(path(), png, 'image/png');
    await created(storeMessage(''));
    expect(backend.store.get(messagePath())).toMatchObject({ attachment: attachment() });
  });

  it('takes a file the upload check removed (or that never came) off the message: a tombstone without text', async () => {
    await created(storeMessage(''));
    const stored = backend.store.get(messagePath()) ?? {};
    expect(stored).toMatchObject({ text: '', deleted: true });
    expect('attachment' in stored).toBe(false);
    expect(warnings).toHaveBeenCalledWith('took a missing file off a new message', expect.anything());
  });
});

describe('prune_unsent_attachments', () => {
  const prune = () =>
    backend.fns.prune_unsent_attachments.run({ scheduleTime: new Date(NOW).toISOString() } as never);

  it("deletes uploads older than the embedded server's period that no message carries, and only those", async () => {
    const old = NOW - UNSENT_ATTACHMENT_TTL_MS - 1;
    backend.bucket.put(path('UnsentOld0000000001a'), png, 'image/png', old);
    backend.bucket.put(
      path('UnsentNew0000000001a'),
      png,
      'image/png',
      NOW - UNSENT_ATTACHMENT_TTL_MS + 60_000,
    );
    backend.bucket.put(path(), png, 'image/png', old);
    storeMessage('Sent with its file');
    backend.bucket.put('elsewhere/UnsentOld0000000001a', png, 'image/png', old);
    await prune();
    expect([...backend.bucket.objects.keys()].sort()).toEqual(
      ['elsewhere/UnsentOld0000000001a', path(), path('UnsentNew0000000001a')].sort(),
    );
  });

  it('keeps the old files of a message with several (a list no query reaches into)', async () => {
    const old = NOW - UNSENT_ATTACHMENT_TTL_MS - 1;
    const ids = ['AlbumFirst0000000001', 'AlbumSecond000000001'];
    for (const id of ids) {
      backend.bucket.put(path(id), png, 'image/png', old);
      recordUpload(attachment(id), old, MESSAGE_ID);
    }
    storeMessages(
      'Two',
      ids.map((id) => attachment(id)),
    );
    await prune();
    expect([...backend.bucket.objects.keys()].sort()).toEqual(ids.map((id) => path(id)).sort());
  });

  it('deletes upload records older than that no message took, with their files, and keeps the rest', async () => {
    const old = NOW - UNSENT_ATTACHMENT_TTL_MS - 1;
    const file = (id: string) => ({ ...attachment(id) });
    recordUpload(file('UnsentOld00000000001'), old);
    backend.bucket.put(path('UnsentOld00000000001'), png, 'image/png', NOW);
    // Cancelled before its bytes came: a record alone.
    recordUpload(file('NeverCame00000000001'), old);
    recordUpload(file('UnsentNew00000000001'), NOW - 60_000);
    backend.bucket.put(path('UnsentNew00000000001'), png, 'image/png', NOW - 60_000);
    recordUpload(file(PNG_ID), old, MESSAGE_ID);
    backend.bucket.put(path(), png, 'image/png', old);
    storeMessage('Sent with its file');
    await prune();
    expect(
      backend.store
        .paths()
        .filter((p) => p.includes('/uploads/'))
        .sort(),
    ).toEqual([uploadPath(), uploadPath('UnsentNew00000000001')].sort());
    expect([...backend.bucket.objects.keys()].sort()).toEqual([path(), path('UnsentNew00000000001')].sort());
  });

  it("prunes a deleted message's file that is still there (its tombstone carries none)", async () => {
    backend.bucket.put(path(), png, 'image/png', NOW - 2 * UNSENT_ATTACHMENT_TTL_MS);
    storeMessage('Gone');
    backend.store.set(messagePath(), { senderId: UID.member, text: '', deleted: true });
    await prune();
    expect(backend.bucket.objects.size).toBe(0);
  });
});

describe('check_attachment_upload', () => {
  const finalized = (
    name: string,
    size: number,
    contentType: string | undefined,
    uploaderId: string = UID.member,
  ) =>
    functionsTest.wrap(backend.fns.check_attachment_upload)({
      data: {
        name,
        size: String(size),
        contentType,
        bucket: 'qupm-test.appspot.com',
        metadata: { uploaderId },
      },
    } as never);
  /** Stores the bytes, recorded (unless `recorded` is null) as the adapter records them, and checks them. */
  const upload = async (
    id: string,
    bytes: Buffer,
    contentType: string,
    recorded: Partial<Attachment> | null = {},
    uploaderId: string = UID.member,
  ) => {
    if (recorded) {
      const kind = String(contentType).startsWith('image/') ? 'image' : 'document';
      const described = { id, kind, name: 'file', contentType, size: bytes.length } as Attachment;
      recordUpload({ ...described, ...(kind === 'image' ? { width: 4, height: 3 } : {}), ...recorded });
    }
    backend.bucket.put(path(id), bytes, contentType);
    await finalized(path(id), bytes.length, contentType, uploaderId);
  };

  it('keeps files whose bytes are what they were stored as, and as their upload was recorded', async () => {
    await upload('GoodPng0000000000001', png, 'image/png');
    await upload('GoodPdf0000000000001', pdfFile(), 'application/pdf');
    await upload('GoodDocx000000000001', docxFile(), DOCX_TYPE);
    expect(backend.bucket.objects.size).toBe(3);
    expect(
      backend.store.paths().filter((p) => p.startsWith('channels/') && p.includes('/uploads/')),
    ).toHaveLength(3);
    expect(warnings).not.toHaveBeenCalled();
  });

  it.each([
    ['without an upload record (the rules were gone around)', null, UID.member],
    ['recorded with another size', { size: png.length + 1 }, UID.member],
    ['recorded as another type', { contentType: 'image/webp' }, UID.member],
    ['recorded with another pixel size', { width: 400, height: 300 }, UID.member],
    ["stored by someone else than its record's uploader", {}, UID.consultant],
  ] as const)('deletes a file %s, with its record', async (_what, recorded, uploaderId) => {
    await upload('NotAsSaid00000000001', png, 'image/png', recorded, uploaderId);
    expect(backend.bucket.objects.has(path('NotAsSaid00000000001'))).toBe(false);
    expect(backend.store.get(uploadPath('NotAsSaid00000000001'))).toBeUndefined();
    expect(warnings).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['HTML named .png', htmlFile(), 'image/png'],
    ['SVG with a script named .png', svgWithScript(), 'image/png'],
    ['zero bytes', Buffer.alloc(0), 'image/png'],
    ['a PDF stored as an image (it would be shown inline)', pdfFile(), 'image/png'],
    ['an image stored without a type', png, undefined],
  ])('deletes %s', async (_what, bytes, contentType) => {
    await upload('BadFile0000000000001', bytes, contentType as string);
    expect(backend.bucket.objects.has(path('BadFile0000000000001'))).toBe(false);
    expect(warnings).toHaveBeenCalledTimes(1);
  });

  it('deletes a file over 10 MB without reading it', async () => {
    const big = pngOfSize(ATTACHMENT_MAX_BYTES + 1);
    await upload('BigFile0000000000001', big, 'image/png');
    expect(backend.bucket.objects.size).toBe(0);
    expect(backend.bucket.downloads).toEqual([]);
  });

  it('takes the refused file off a message already sent with it: a tombstone when it had no text', async () => {
    const html = htmlFile();
    storeMessage('', { ...attachment(), size: html.length }, 'MessageOnlyFile00001');
    storeMessage(
      'Caption',
      { ...attachment('BadTwo00000000000001'), size: html.length },
      'MessageWithText00001',
    );
    backend.clock.now = NOW + 5000;
    await upload(PNG_ID, html, 'image/png');
    await upload('BadTwo00000000000001', html, 'image/png');
    const onlyFile = backend.store.get(messagePath('MessageOnlyFile00001')) ?? {};
    expect(onlyFile).toMatchObject({ text: '', deleted: true });
    expect('attachment' in onlyFile).toBe(false);
    const withText = backend.store.get(messagePath('MessageWithText00001')) ?? {};
    expect(withText).toMatchObject({ text: 'Caption' });
    expect(withText.deleted).toBeUndefined();
    expect('attachment' in withText).toBe(false);
    // Stamped, so open windows get the new version.
    expect((withText.updatedAt as { toMillis(): number }).toMillis()).toBe(NOW + 5000);
  });

  it('ignores objects outside the attachments', async () => {
    backend.bucket.put('exports/report.html', htmlFile(), 'text/html');
    await finalized('exports/report.html', htmlFile().length, 'text/html');
    expect(backend.bucket.objects.has('exports/report.html')).toBe(true);
    expect(backend.bucket.downloads).toEqual([]);
  });
});

// What a person's files take up (core/attachments.ts ATTACHMENT_QUOTA_BYTES): counted once per kept upload in
// users/{uid}.attachmentBytes (what storage.rules read) beside a record per file, given back when the object goes,
// and an upload that got past the rules in a race removed.
describe('the storage quota', () => {
  /** A png of the uploader's, recorded as the adapter records it, stored and checked. */
  const finalized = (id: string, bytes: Buffer, uploaderId: string) => {
    const file: Attachment = { ...attachment(id), size: bytes.length };
    putUpload(backend.store, {
      channelId: CHANNEL,
      uploaderId,
      attachment: file,
      createdAt: NOW,
      messageId: null,
    });
    backend.bucket.put(path(id), bytes, 'image/png', NOW, { uploaderId });
    return functionsTest.wrap(backend.fns.check_attachment_upload)({
      data: {
        name: path(id),
        size: String(bytes.length),
        contentType: 'image/png',
        bucket: 'qupm-test.appspot.com',
        metadata: { uploaderId },
      },
    } as never);
  };
  const deleted = (id: string, uploaderId: string) =>
    functionsTest.wrap(backend.fns.on_attachment_deleted)({
      data: { name: path(id), bucket: 'qupm-test.appspot.com', metadata: { uploaderId } },
    } as never);
  const used = (uid: string) => backend.store.get(`users/${uid}`)?.attachmentBytes;

  it('counts each kept upload against its uploader once, and gives it back when the object goes', async () => {
    await finalized('CountedPng0000000001', png, UID.member);
    await finalized('CountedPng0000000002', png, UID.member);
    // An event delivered twice counts once.
    await finalized('CountedPng0000000002', png, UID.member);
    expect(used(UID.member)).toBe(2 * png.length);
    expect(backend.store.get(`users/${UID.member}/uploads/CountedPng0000000001`)).toMatchObject({
      channelId: CHANNEL,
      size: png.length,
    });
    expect(used(UID.consultant) ?? 0).toBe(0);

    backend.bucket.objects.delete(path('CountedPng0000000001'));
    await deleted('CountedPng0000000001', UID.member);
    await deleted('CountedPng0000000001', UID.member);
    expect(used(UID.member)).toBe(png.length);
    expect(backend.store.get(`users/${UID.member}/uploads/CountedPng0000000001`)).toBeUndefined();
  });

  it('removes an upload that does not fit what is left (one the rules let past in a race), counting nothing', async () => {
    const doc = backend.store.get(`users/${UID.member}`) ?? {};
    backend.store.set(`users/${UID.member}`, { ...doc, attachmentBytes: ATTACHMENT_QUOTA_BYTES - 10 });
    storeMessage('', attachment('OverQuota00000000001'), 'MessageOverQuota0001');
    await finalized('OverQuota00000000001', png, UID.member);
    expect(backend.bucket.objects.has(path('OverQuota00000000001'))).toBe(false);
    expect(used(UID.member)).toBe(ATTACHMENT_QUOTA_BYTES - 10);
    expect(backend.store.get(`users/${UID.member}/uploads/OverQuota00000000001`)).toBeUndefined();
    expect(backend.store.get(messagePath('MessageOverQuota0001'))).toMatchObject({ text: '', deleted: true });
    expect(warnings).toHaveBeenCalledWith(
      'removed an upload whose bytes were refused',
      expect.objectContaining({ problem: 'storage-quota' }),
    );
  });

  it('removes an upload by nobody QuPM knows', async () => {
    await finalized('NobodysPng0000000001', png, 'NoSuchUser0000000001');
    expect(backend.bucket.objects.has(path('NobodysPng0000000001'))).toBe(false);
    expect(backend.store.get('users/NoSuchUser0000000001')).toBeUndefined();
  });
});
