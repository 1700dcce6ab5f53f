// The Firebase adapter's attachments (issue #13 part 4) at the SDK's edge: what it declares with an upload (the
// sniffed type, the download disposition, the uploader), which storage.rules hold every client to; and the
// deletion of a message's file, which a file already gone does not fail.
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
  const firestore = {
    doc: jest.fn((_db: unknown, ...path: string[]) => ({ path: path.join('/') })),
    getDoc: jest.fn(async (_ref: { path: string }) => ({
      get: (field: string) => (userDoc as Record<string, unknown>)[field],
    })),
  };
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
  const sdk = {
    requireUid: () => 'uidMember00000000001',
    storage: async () => ({ sdk: storage, storage: {} }),
    firestore: async () => ({ sdk: firestore, db: {} }),
  } as unknown as FirebaseSdk;
  return { sdk, storage, uploads, userDoc, firestore };
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
