// Attachments on Firebase (issue #13 part 4): files in Cloud Storage under channels/{channelId}/attachments/{id},
// which storage.rules open to the channel's owner and members only (looked up in Firestore), with the size and
// type limits of core/attachments.ts. The adapter decides what it can before it uploads, as the embedded server
// does: the name, the size, the type the bytes say (file-type, loaded with Storage), an image's pixel size; the
// rules then hold every client to the limits and to a download disposition. Files are read with getBlob (through
// the rules), never with a download URL, which would let anyone holding it read the file. A person's files take up
// at most their quota: the adapter reads the count functions/ keep (users/{uid}.attachmentBytes) and refuses a file
// that does not fit in the embedded server's words, before a byte goes; storage.rules refuse it too.
import { BackendError } from '../ports';
import type { UploadOptions } from '../ports';
import {
  ATTACHMENT_MESSAGES,
  ATTACHMENT_QUOTA_BYTES,
  attachmentQuotaMessage,
  checkAttachmentSize,
  checkFile,
  fitsQuota,
} from '@core/attachments';
import type { Attachment } from '@core/attachments';
import { newDocumentId } from '@core/ids';
import { guarded, toBackendError } from './errors';
import type { FirebaseSdk } from './sdk';

/** Where a channel's attachment lives in the bucket (storage.rules matches it). */
export function attachmentObjectPath(channelId: string, attachmentId: string): string {
  return `channels/${channelId}/attachments/${attachmentId}`;
}

/** What a browser is told to do with the file when it is opened by its URL: show an image, download the rest. */
export function contentDisposition(attachment: Pick<Attachment, 'kind' | 'name'>): string {
  const disposition = attachment.kind === 'image' ? 'inline' : 'attachment';
  return `${disposition}; filename*=UTF-8''${encodeURIComponent(attachment.name)}`;
}

async function sniff(bytes: Uint8Array): Promise<string | undefined> {
  const { fileTypeFromBuffer } = await import(/* webpackChunkName: "firebase-storage" */ 'file-type/core');
  return (await fileTypeFromBuffer(bytes))?.mime;
}

/** users/{uid}'s count of what their files take up (functions/src/uploadsRepository.ts ATTACHMENT_BYTES_FIELD). */
const ATTACHMENT_BYTES_FIELD = 'attachmentBytes';

export function createAttachments(sdk: FirebaseSdk) {
  /** What the person's files take up, as functions/ count it (0 before their first kept upload). */
  const usedBytes = async (uid: string): Promise<number> => {
    const { sdk: fs, db } = await sdk.firestore();
    const value: unknown = (await fs.getDoc(fs.doc(db, 'users', uid))).get(ATTACHMENT_BYTES_FIELD);
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
  };
  /** RESOURCE_EXHAUSTED in the embedded server's words, or null when a file of `size` fits. */
  const quotaRefusal = async (uid: string, size: number): Promise<BackendError | null> => {
    const quota = { quotaBytes: ATTACHMENT_QUOTA_BYTES, usedBytes: await usedBytes(uid), fileBytes: size };
    return fitsQuota(quota)
      ? null
      : new BackendError('RESOURCE_EXHAUSTED', attachmentQuotaMessage(quota), 'storage-quota');
  };

  const objectRef = async (channelId: string, attachmentId: string) => {
    const loaded = await sdk.storage();
    return { ...loaded, ref: loaded.sdk.ref(loaded.storage, attachmentObjectPath(channelId, attachmentId)) };
  };

  return {
    uploadAttachment: (
      channelId: string,
      file: Blob,
      name: string,
      { onProgress, signal }: UploadOptions = {},
    ): Promise<Attachment> =>
      guarded(async () => {
        const uid = sdk.requireUid();
        // The size before the bytes are read: a file of 1 GB is refused without reading it.
        const sizeProblem = checkAttachmentSize(file.size);
        if (sizeProblem) throw new BackendError('INVALID_ARGUMENT', ATTACHMENT_MESSAGES[sizeProblem]);
        const bytes = new Uint8Array(await file.arrayBuffer());
        const checked = checkFile({ name, bytes, sniffedType: await sniff(bytes) });
        if (!checked.ok) throw new BackendError('INVALID_ARGUMENT', ATTACHMENT_MESSAGES[checked.problem]);
        const attachment: Attachment = { id: newDocumentId(), ...checked.file };
        const overQuota = await quotaRefusal(uid, attachment.size);
        if (overQuota) throw overQuota;
        const { sdk: storage, ref } = await objectRef(channelId, attachment.id);
        const task = storage.uploadBytesResumable(ref, bytes, {
          contentType: attachment.contentType,
          contentDisposition: contentDisposition(attachment),
          customMetadata: { uploaderId: uid },
        });
        const cancel = (): void => void task.cancel();
        signal?.addEventListener('abort', cancel, { once: true });
        if (signal?.aborted) cancel();
        try {
          await new Promise<void>((resolve, reject) => {
            task.on(
              'state_changed',
              (snapshot) => onProgress?.(snapshot.bytesTransferred, snapshot.totalBytes),
              (error) => reject(toBackendError(error)),
              () => resolve(),
            );
          });
        } catch (error) {
          // storage.rules refused it: another upload may have taken the room meanwhile; say so if that is why.
          if (error instanceof BackendError && error.status === 'PERMISSION_DENIED') {
            throw (await quotaRefusal(uid, attachment.size).catch(() => null)) ?? error;
          }
          throw error;
        } finally {
          signal?.removeEventListener('abort', cancel);
        }
        return attachment;
      }),

    readAttachment: (channelId: string, attachment: Attachment): Promise<Blob> =>
      guarded(async () => {
        const { sdk: storage, ref } = await objectRef(channelId, attachment.id);
        return storage.getBlob(ref);
      }),

    /**
     * Deleting a message deletes its file (the message's sender, or the channel's consultant, as storage.rules
     * allow). A file already gone is not an error.
     */
    deleteAttachment: (channelId: string, attachment: Pick<Attachment, 'id'>): Promise<void> =>
      guarded(async () => {
        const { sdk: storage, ref } = await objectRef(channelId, attachment.id);
        try {
          await storage.deleteObject(ref);
        } catch (error) {
          if (toBackendError(error).status !== 'NOT_FOUND') throw error;
        }
      }),
  };
}
