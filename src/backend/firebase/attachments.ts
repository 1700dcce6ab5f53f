// Attachments on Firebase: files in Cloud Storage under channels/{channelId}/attachments/{id},
// which storage.rules open to the channel's owner and members only (looked up in Firestore), with the size and
// type limits of core/attachments.ts. The adapter decides what it can before it uploads, as the embedded server
// does: the name, the size, the type the bytes say (file-type, loaded with Storage), an image's pixel size; then
// it records the upload (channels/{channelId}/uploads/{id}, the embedded server's attachments row) and the rules
// hold the bytes to that record, every client to the limits and to a download disposition, and a message to its
// sender's own unsent upload (src/backend/firebase/messages.ts claims it). Files are read with getBlob (through
// the rules), never with a download URL, which would let anyone holding it read the file. A person's files take up
// at most their quota: the adapter reads the count functions/ keep (users/{uid}.attachmentBytes) and refuses a file
// that does not fit in the embedded server's words, before anything is recorded or a byte goes; storage.rules
// refuse it too.
import { BackendError } from '../ports';
import type { UploadOptions } from '../ports';
import {
  ATTACHMENT_ACCESS_MESSAGES,
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
import type { FirebaseSdk, LoadedFirestore } from './sdk';

/** Where a channel's attachment lives in the bucket (storage.rules matches it). */
export function attachmentObjectPath(channelId: string, attachmentId: string): string {
  return `channels/${channelId}/attachments/${attachmentId}`;
}

/** An upload's record: channels/{channelId}/uploads/{attachmentId} (firestore.rules). */
export function uploadRef(
  fs: LoadedFirestore['sdk'],
  db: LoadedFirestore['db'],
  channelId: string,
  attachmentId: string,
) {
  return fs.doc(db, 'channels', channelId, 'uploads', attachmentId);
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

  /**
   * The upload's record, before its bytes: what the file is and whose (storage.rules hold the bytes to it, and
   * firestore.rules let a message carry only a recorded upload of its sender's, once). The embedded server keeps
   * the same row in its attachments table.
   */
  async function recordUpload(channelId: string, uid: string, attachment: Attachment): Promise<void> {
    const { sdk: fs, db } = await sdk.firestore();
    try {
      await fs.setDoc(uploadRef(fs, db, channelId, attachment.id), {
        uploaderId: uid,
        attachment,
        createdAt: fs.serverTimestamp(),
        messageId: null,
      });
    } catch (error) {
      const failure = toBackendError(error);
      // The rules refuse anyone not in the channel (core/permissions.ts canMessage), as the server does.
      if (failure.status === 'PERMISSION_DENIED') {
        throw new BackendError('PERMISSION_DENIED', ATTACHMENT_ACCESS_MESSAGES.notMember);
      }
      throw failure;
    }
  }

  /** Whether the signed-in person may message in the channel (core/permissions.ts canMessage), as stored. */
  async function isMember(channelId: string): Promise<boolean> {
    try {
      const uid = sdk.requireUid();
      const { sdk: fs, db } = await sdk.firestore();
      const channel = (await fs.getDoc(fs.doc(db, 'channels', channelId))).data();
      const members: unknown = channel?.members;
      return channel?.ownerId === uid || (Array.isArray(members) && (members as unknown[]).includes(uid));
    } catch {
      return false;
    }
  }

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
        await recordUpload(channelId, uid, attachment);
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
        try {
          return await storage.getBlob(ref);
        } catch (error) {
          const failure = toBackendError(error);
          // storage.rules refuse a member someone else's upload not sent yet, as they refuse an outsider: the
          // embedded server tells the member there is no such file (server/services/attachments.ts openAttachment).
          if (failure.status === 'PERMISSION_DENIED' && (await isMember(channelId))) {
            throw new BackendError('NOT_FOUND', ATTACHMENT_ACCESS_MESSAGES.noSuchFile);
          }
          throw failure;
        }
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
