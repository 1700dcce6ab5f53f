// Attachments in Cloud Storage, kept as the embedded server keeps its own
// (server/services/attachments.ts): deleting a message deletes its file and its upload record; an upload no
// message took is pruned after core/attachments.ts UNSENT_ATTACHMENT_TTL_MS, record and file; and every uploaded
// object's bytes are checked again (file-type), because a client may go around the Firebase adapter's own check
// before it uploads: an object whose bytes are not what it was stored as (HTML or SVG named .png), empty, over
// 10 MB, or not what its upload record says (channels/{channelId}/uploads/{id}, which a message's attachment must
// equal: firestore.rules) is deleted with its record, and a message that carries it loses it. The Admin SDK does
// this: storage.rules bind clients, not these functions. A kept upload counts against its uploader's storage
// quota until its object goes (uploadsRepository.ts).
import {
  ATTACHMENT_QUOTA_BYTES,
  attachmentsOf,
  checkAttachmentSize,
  checkStoredFile,
  isAsRecorded,
  UNSENT_ATTACHMENT_TTL_MS,
} from '../../../core/attachments';
import type { AttachmentProblem } from '../../../core/attachments';
import type { Deps } from '../repository';

/** Where the attachments are in the bucket: channels/{channelId}/attachments/{attachmentId} (storage.rules). */
export const ATTACHMENTS_PREFIX = 'channels/';
const OBJECT_PATH = /^channels\/([^/]+)\/attachments\/([A-Za-z0-9]{20})$/;

export function attachmentObjectPath(channelId: string, attachmentId: string): string {
  return `channels/${channelId}/attachments/${attachmentId}`;
}

/** The channel and attachment an object's name is of, or null for anything else in the bucket. */
export function attachmentObjectOf(path: string): { channelId: string; attachmentId: string } | null {
  const match = OBJECT_PATH.exec(path);
  return match?.[1] && match[2] ? { channelId: match[1], attachmentId: match[2] } : null;
}

/**
 * The type the bytes say, as the embedded server and the Firebase adapter read it. file-type is an ES module
 * only: this import() stays an import() in the CommonJS build (tsconfig "module": "node16").
 */
export async function sniffType(bytes: Uint8Array): Promise<string | undefined> {
  const { fileTypeFromBuffer } = await import('file-type/core');
  return (await fileTypeFromBuffer(bytes))?.mime;
}

/**
 * A message document changed (on_message_deleted): when it became a tombstone and carried a file, the file is
 * deleted, and an attachment a tombstone still holds (written by something firestore.rules do not bind) removed.
 * Answers whether a file was deleted.
 */
export async function handleMessageChanged(
  { repo, files, now }: Deps,
  event: {
    channelId: string;
    messageId: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  },
): Promise<boolean> {
  if (event.after.deleted !== true) return false;
  // Its files: the list (or the one of a message from before lists) it had, or a tombstone still holds.
  const before = attachmentsOf(event.before);
  const all = before.length > 0 ? before : attachmentsOf(event.after);
  if (all.length === 0) return false;
  if ('attachment' in event.after || 'attachments' in event.after) {
    await repo.dropMessageAttachment(event.channelId, event.messageId, { tombstone: true, at: now() });
  }
  for (const attachment of all) {
    await files.delete(attachmentObjectPath(event.channelId, attachment.id));
    await repo.deleteUpload(event.channelId, attachment.id);
  }
  return true;
}

/**
 * A message document changed (on_message_deleted): when it has just become a tombstone, the replies quoting it keep
 * none of its words (core/replies.ts), as the embedded server's deletion does. Answers how many replies changed.
 */
export async function handleQuotedMessageDeleted(
  { repo }: Pick<Deps, 'repo'>,
  event: {
    channelId: string;
    messageId: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  },
): Promise<number> {
  if (event.after.deleted !== true || event.before.deleted === true) return 0;
  return repo.scrubQuotesOf(event.channelId, event.messageId);
}

/**
 * Daily: the uploads recorded more than a day ago that no message took go, file and record, and so do the files
 * older than that no message carries (an upload from before records, or a record lost). Answers how many.
 */
export async function handlePruneUnsentAttachments({ repo, files, now }: Deps): Promise<number> {
  const before = now() - UNSENT_ATTACHMENT_TTL_MS;
  let pruned = 0;
  for (const upload of await repo.listUnsentUploadsBefore(before)) {
    // The file first: a file without its record would be readable by the whole channel (storage.rules).
    await files.delete(attachmentObjectPath(upload.channelId, upload.attachmentId));
    await repo.deleteUpload(upload.channelId, upload.attachmentId);
    pruned += 1;
  }
  for (const file of await files.list(ATTACHMENTS_PREFIX)) {
    const object = attachmentObjectOf(file.path);
    // Not an attachment, or young enough that its message may still be on its way.
    if (!object || !(file.createdAt < before)) continue;
    if (await repo.findMessageWithAttachment(object.channelId, object.attachmentId)) continue;
    await files.delete(file.path);
    await repo.deleteUpload(object.channelId, object.attachmentId);
    pruned += 1;
  }
  return pruned;
}

/** What is wrong with a stored file beside its upload record, or null when it is what was recorded. */
async function recordProblem(
  repo: Deps['repo'],
  target: { channelId: string; attachmentId: string },
  stored: { bytes: Uint8Array; contentType: string | undefined; uploaderId?: string | undefined },
): Promise<UploadProblem | null> {
  const upload = await repo.getUpload(target.channelId, target.attachmentId);
  // storage.rules let no client store a file before its record: none means it went around them.
  if (!upload?.attachment) return 'notRecorded';
  if (stored.uploaderId !== upload.uploaderId || !isAsRecorded(upload.attachment, stored)) {
    return 'notAsRecorded';
  }
  return null;
}

/**
 * A new message carrying a file (on_message_created): when the file is not there (check_attachment_upload removed
 * it before the message came, or it was never uploaded), the message loses it as check_attachment_upload would
 * have taken it off. Answers whether it did.
 */
export async function handleMessageWithAttachment(
  { repo, files, now }: Deps,
  message: { channelId: string; messageId: string; text: string; attachmentId: string },
): Promise<boolean> {
  if (await files.exists(attachmentObjectPath(message.channelId, message.attachmentId))) return false;
  await repo.dropMessageAttachment(message.channelId, message.messageId, {
    tombstone: message.text === '',
    at: now(),
  });
  return true;
}

/**
 * Why an upload was removed: its bytes (core/attachments.ts), its upload record, no room left in its uploader's
 * quota, or an uploader QuPM does not know.
 */
export type UploadProblem =
  AttachmentProblem | 'notRecorded' | 'notAsRecorded' | 'storage-quota' | 'no-account';

export type UploadCheck =
  | { outcome: 'ignored' }
  | { outcome: 'kept' }
  | { outcome: 'removed'; problem: UploadProblem; messageId: string | null };

/**
 * A new object in the bucket (check_attachment_upload): an attachment's bytes checked as the embedded server
 * checks an upload, and against its upload record (storage.rules hold the size and type to it already; the
 * pixel size and the uploader only this can check); one that fails is deleted with its record, and a message
 * already carrying it loses it (becoming a tombstone when it had no text).
 */
export async function handleAttachmentUploaded(
  { repo, files, now }: Deps,
  object: { path: string; size: number; contentType: string | undefined; uploaderId?: string | undefined },
): Promise<UploadCheck> {
  const target = attachmentObjectOf(object.path);
  if (!target) return { outcome: 'ignored' };
  // The size first: an object over 10 MB is never read.
  let problem: UploadProblem | null = checkAttachmentSize(object.size);
  if (!problem) {
    const bytes = await files.read(object.path);
    problem = checkStoredFile({ bytes, storedType: object.contentType, sniffedType: await sniffType(bytes) });
    if (!problem) problem = await recordProblem(repo, target, { bytes, ...object });
  }
  // Then its room in the uploader's quota (storage.rules refuse what does not fit the count, but two uploads at
  // once both see the count before either): counted here once, or removed. An object without an uploader was
  // not put there by a client (the rules require one) and is not counted.
  if (!problem && object.uploaderId !== undefined) {
    const counted = await repo.countUpload({
      uid: object.uploaderId,
      attachmentId: target.attachmentId,
      channelId: target.channelId,
      size: object.size,
      quotaBytes: ATTACHMENT_QUOTA_BYTES,
      at: now(),
    });
    if (counted.kind === 'over') problem = 'storage-quota';
    if (counted.kind === 'no-account') problem = 'no-account';
  }
  if (!problem) return { outcome: 'kept' };
  await files.delete(object.path);
  await repo.deleteUpload(target.channelId, target.attachmentId);
  const message = await repo.findMessageWithAttachment(target.channelId, target.attachmentId);
  if (message) {
    await repo.dropMessageAttachment(target.channelId, message.id, {
      tombstone: message.text === '',
      at: now(),
    });
  }
  return { outcome: 'removed', problem, messageId: message?.id ?? null };
}

/**
 * An object left the bucket (on_attachment_deleted), whoever deleted it (its message's deletion, the prune, this
 * file's checks, a client under storage.rules): its room goes back to its uploader. Answers whether it was counted.
 */
export async function handleAttachmentDeleted(
  { repo }: Pick<Deps, 'repo'>,
  object: { path: string; uploaderId: string | undefined },
): Promise<boolean> {
  const target = attachmentObjectOf(object.path);
  if (!target || object.uploaderId === undefined) return false;
  return repo.forgetUpload(object.uploaderId, target.attachmentId);
}

/**
 * Deleting an account (delete_my_account) takes the person's uploads that no message carries with it at once, as
 * the embedded server does, rather than leaving them a day for the prune: they are theirs alone, and nothing will
 * send them now. Looked for in the channels they were in; answers how many went.
 */
export async function deleteUnsentUploadsOf(
  { repo, files }: Pick<Deps, 'repo' | 'files'>,
  uid: string,
  channelIds: readonly string[],
): Promise<number> {
  let deleted = 0;
  for (const channelId of channelIds) {
    for (const file of await files.list(`${ATTACHMENTS_PREFIX}${channelId}/attachments/`)) {
      const object = attachmentObjectOf(file.path);
      if (!object || file.uploaderId !== uid) continue;
      if (await repo.findMessageWithAttachment(object.channelId, object.attachmentId)) continue;
      await files.delete(file.path);
      await repo.deleteUpload(object.channelId, object.attachmentId);
      deleted += 1;
    }
  }
  return deleted;
}
