// The Firebase adapter's attachments at the SDK's edge: what it declares with an upload (the
// sniffed type, the download disposition, the uploader), which storage.rules hold every client to; the upload's
// record, written before the bytes (firestore.rules tie a message's file to it); the words of a refused read; and
// the deletion of a message's file, which a file already gone does not fail.
import { createAttachments } from '@/backend/firebase/attachments';
import type { FirebaseSdk } from '@/backend/firebase/sdk';
import { docxFile, pngFile } from '../../../drivers/sampleFiles';
import { ATTACHMENT_QUOTA_BYTES, attachmentQuotaMessage } from '@core/attachments';

class StorageError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

function fakeStorage(counted: { attachmentBytes?: number } = {}) {
  const uploads: Array<{ path: string; metadata: unknown }> = [];
  /** users/{uid} as functions/ keep it: its attachmentBytes, read by the adapter before an upload. */
  const userDoc = { ...counted };
  const storage = {
    ref: jest.fn((_storage: unknown, path: string) => ({ path })),
    uploadBytesResumable: jest.fn((ref: { path: string }, data: Uint8Array, metadata: unknown) => {
      uploads.push({ path: ref.path, metadata });
      return {
        on: (_e: string, next: (s: object) => void, _error: (e: unknown) => void, complete: () => void) => {
          next({ bytesTransferred: data.length, totalBytes: data.length });
          complete();
        },
        cancel: () => true,
      };
    }),
    deleteObject: jest.fn(async (_ref: { path: string }) => undefined),
    getBlob: jest.fn(),
  };
  /** Firestore, for the upload's record (written before the bytes) and the channel's members. */
  const writes: Array<{ path: string; data: unknown; before: number }> = [];
  const firestore = {
    doc: jest.fn((_db: unknown, ...segments: string[]) => ({ path: segments.join('/') })),
    serverTimestamp: () => 'SERVER_TIMESTAMP',
    setDoc: jest.fn(async (ref: { path: string }, data: unknown) => {
      writes.push({ path: ref.path, data, before: uploads.length });
    }),
    // users/{uid} as functions/ keep it (its attachmentBytes, read before an upload), or the channel.
    getDoc: jest.fn(async (ref: { path: string }) => {
      const data: Record<string, unknown> = ref.path.startsWith('users/')
        ? userDoc
        : { ownerId: 'uidConsultant0000001', members: ['uidMember00000000001'] };
      return { get: (field: string) => data[field], data: () => data };
    }),
  };
  const sdk = {
    requireUid: () => 'uidMember00000000001',
    storage: async () => ({ sdk: storage, storage: {} }),
    firestore: async () => ({ sdk: firestore, db: {} }),
  } as unknown as FirebaseSdk;
  return { sdk, storage, uploads, userDoc, firestore, writes };
}

const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

describe('uploadAttachment', () => {
  it('declares an image inline and a document as a download, with the type its bytes say and the uploader', async () => {
    const { sdk, uploads } = fakeStorage();
    const attachments = createAttachments(sdk);
    const image = await attachments.uploadAttachment('ChannelA000000000001', blob(pngFile(2, 2)), 'a.png');
    const document = await attachments.uploadAttachment(
      'ChannelA000000000001',
      blob(docxFile()),
      'brief.docx',
    );
    expect(uploads).toEqual([
      {
        path: `channels/ChannelA000000000001/attachments/${image.id}`,
        metadata: {
          contentType: 'image/png',
          contentDisposition: "inline; filename*=UTF-8''a.png",
          customMetadata: { uploaderId: 'uidMember00000000001' },
        },
      },
      {
        path: `channels/ChannelA000000000001/attachments/${document.id}`,
        metadata: {
          contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          contentDisposition: "attachment; filename*=UTF-8''brief.docx",
          customMetadata: { uploaderId: 'uidMember00000000001' },
        },
      },
    ]);
  });
});

describe('uploadAttachment and the storage quota', () => {
  const png = pngFile(2, 2);

  it("refuses a file that does not fit what is left, in the embedded server's words, before a byte goes", async () => {
    const { sdk, uploads, firestore } = fakeStorage({ attachmentBytes: ATTACHMENT_QUOTA_BYTES - 10 });
    await expect(
      createAttachments(sdk).uploadAttachment('ChannelA000000000001', blob(png), 'a.png'),
    ).rejects.toMatchObject({
      status: 'RESOURCE_EXHAUSTED',
      reason: 'storage-quota',
      message: attachmentQuotaMessage({
        quotaBytes: ATTACHMENT_QUOTA_BYTES,
        usedBytes: ATTACHMENT_QUOTA_BYTES - 10,
        fileBytes: png.length,
      }),
    });
    expect(firestore.getDoc).toHaveBeenCalledWith({ path: 'users/uidMember00000000001' });
    expect(uploads).toEqual([]);
  });

  it('uploads a file that exactly fits', async () => {
    const { sdk, uploads } = fakeStorage({ attachmentBytes: ATTACHMENT_QUOTA_BYTES - png.length });
    await createAttachments(sdk).uploadAttachment('ChannelA000000000001', blob(png), 'a.png');
    expect(uploads).toHaveLength(1);
  });

  it('says it is the quota when storage.rules refuse an upload another one raced to the room', async () => {
    const { sdk, storage, userDoc } = fakeStorage({ attachmentBytes: 0 });
    storage.uploadBytesResumable.mockImplementationOnce(() => ({
      on: (_e: string, _next: unknown, error: (e: unknown) => void) => {
        // Meanwhile another upload was counted, and the rules refused this one.
        userDoc.attachmentBytes = ATTACHMENT_QUOTA_BYTES;
        error(new StorageError('storage/unauthorized'));
      },
      cancel: () => true,
    }));
    await expect(
      createAttachments(sdk).uploadAttachment('ChannelA000000000001', blob(png), 'a.png'),
    ).rejects.toMatchObject({ status: 'RESOURCE_EXHAUSTED', reason: 'storage-quota' });
  });

  it("keeps the rules' own refusal when the quota is not why", async () => {
    const { sdk, storage } = fakeStorage({ attachmentBytes: 0 });
    storage.uploadBytesResumable.mockImplementationOnce(() => ({
      on: (_e: string, _next: unknown, error: (e: unknown) => void) =>
        error(new StorageError('storage/unauthorized')),
      cancel: () => true,
    }));
    await expect(
      createAttachments(sdk).uploadAttachment('ChannelA000000000001', blob(png), 'a.png'),
    ).rejects.toMatchObject({ status: 'PERMISSION_DENIED' });
  });
});

describe('uploadAttachment records the upload first', () => {
  it('writes whose file it is, as described, unsent, before a byte is uploaded', async () => {
    const { sdk, uploads, writes } = fakeStorage();
    const image = await createAttachments(sdk).uploadAttachment(
      'ChannelA000000000001',
      blob(pngFile(2, 2)),
      'a.png',
    );
    expect(writes).toEqual([
      {
        path: `channels/ChannelA000000000001/uploads/${image.id}`,
        data: {
          uploaderId: 'uidMember00000000001',
          attachment: image,
          createdAt: 'SERVER_TIMESTAMP',
          messageId: null,
        },
        before: 0,
      },
    ]);
    expect(uploads).toHaveLength(1);
  });

  it('uploads nothing when the record is refused, and says why as the embedded server does', async () => {
    const { sdk, uploads, firestore } = fakeStorage();
    firestore.setDoc.mockRejectedValue(new StorageError('permission-denied'));
    await expect(
      createAttachments(sdk).uploadAttachment('ChannelA000000000001', blob(pngFile(2, 2)), 'a.png'),
    ).rejects.toMatchObject({
      status: 'PERMISSION_DENIED',
      message: 'Only the members of this channel can send or open its files.',
    });
    expect(uploads).toEqual([]);
  });
});

describe('readAttachment', () => {
  const file = {
    id: 'Attachment0000000001',
    kind: 'image' as const,
    name: 'a.png',
    contentType: 'image/png' as const,
    size: 10,
    width: 2,
    height: 2,
  };

  it("answers a member refused someone else's unsent upload that there is no such file", async () => {
    const { sdk, storage } = fakeStorage();
    storage.getBlob.mockRejectedValue(new StorageError('storage/unauthorized'));
    await expect(createAttachments(sdk).readAttachment('ChannelA000000000001', file)).rejects.toMatchObject({
      status: 'NOT_FOUND',
      message: 'This file is not available any more.',
    });
  });

  it('answers someone outside the channel that only its members may open its files', async () => {
    const { sdk, storage, firestore } = fakeStorage();
    storage.getBlob.mockRejectedValue(new StorageError('storage/unauthorized'));
    const channel = { ownerId: 'uidConsultant0000001', members: [] };
    firestore.getDoc.mockResolvedValue({
      get: (field) => channel[field as keyof typeof channel],
      data: () => channel,
    });
    await expect(createAttachments(sdk).readAttachment('ChannelA000000000001', file)).rejects.toMatchObject({
      status: 'PERMISSION_DENIED',
      message: 'Only the members of this channel can send or open its files.',
    });
  });
});

describe('deleteAttachment', () => {
  it('deletes the message’s file', async () => {
    const { sdk, storage } = fakeStorage();
    await createAttachments(sdk).deleteAttachment('ChannelA000000000001', { id: 'Attachment0000000001' });
    expect(storage.deleteObject).toHaveBeenCalledWith({
      path: 'channels/ChannelA000000000001/attachments/Attachment0000000001',
    });
  });

  it('is done when the file is already gone', async () => {
    const { sdk, storage } = fakeStorage();
    storage.deleteObject.mockRejectedValue(new StorageError('storage/object-not-found'));
    await expect(
      createAttachments(sdk).deleteAttachment('ChannelA000000000001', { id: 'Attachment0000000001' }),
    ).resolves.toBeUndefined();
  });

  it('says in words when the rules refuse it', async () => {
    const { sdk, storage } = fakeStorage();
    storage.deleteObject.mockRejectedValue(new StorageError('storage/unauthorized'));
    await expect(
      createAttachments(sdk).deleteAttachment('ChannelA000000000001', { id: 'Attachment0000000001' }),
    ).rejects.toMatchObject({
      status: 'PERMISSION_DENIED',
      message: 'Only the members of this channel can send or open its files.',
    });
  });
});
