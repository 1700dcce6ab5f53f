// Attachments on Firebase (issue #13 part 4): files in Cloud Storage under channels/{channelId}/attachments/{id},
// which storage.rules open to the channel's owner and members only (looked up in Firestore), with the size and
// type limits of core/attachments.ts. The adapter decides what it can before it uploads, as the embedded server
// does: the name, the size, the type the bytes say (file-type, loaded with Storage), an image's pixel size; the
// rules then hold every client to the limits and to a download disposition. Files are read with getBlob (through
// the rules), never with a download URL, which would let anyone holding it read the file.
import { BackendError } from '../ports';
import type { UploadOptions } from '../ports';
import { ATTACHMENT_MESSAGES, checkAttachmentSize, checkFile } from '@core/attachments';
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

export function createAttachments(sdk: FirebaseSdk) {
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
