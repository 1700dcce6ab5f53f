// The Firebase adapter's attachments (issue #13 part 4) at the SDK's edge: what it declares with an upload (the
// sniffed type, the download disposition, the uploader), which storage.rules hold every client to; and the
// deletion of a message's file, which a file already gone does not fail.
import { createAttachments } from '@/backend/firebase/attachments';
import type { FirebaseSdk } from '@/backend/firebase/sdk';
import { docxFile, pngFile } from '../../../drivers/sampleFiles';

class StorageError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

function fakeStorage() {
  const uploads: Array<{ path: string; metadata: unknown }> = [];
  const storage = {
    ref: jest.fn((_storage: unknown, path: string) => ({ path })),
    uploadBytesResumable: jest.fn((ref: { path: string }, data: Uint8Array, metadata: unknown) => {
      uploads.push({ path: ref.path, metadata });
      return {
        on: (_e: string, next: (s: object) => void, _error: unknown, complete: () => void) => {
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
  } as unknown as FirebaseSdk;
  return { sdk, storage, uploads };
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
