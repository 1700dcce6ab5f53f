// Attachments on the embedded server: an upload is checked (membership, name, size, and the
// type its bytes say, sniffed with file-type: never the name's extension or the client's Content-Type), written to
// the data folder's attachments/ under a new id and recorded unsent; sending a message claims it
// (sendMessage); members download it; deleting its message deletes the file; unsent uploads are pruned after a day.
//
// Nothing partial is left: the bytes are held in memory (10 MB at most, the route's body limit) until every check
// has passed, then written to a temporary name and renamed into place, and the row is written last; a failure at
// any step removes what that step wrote.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type/core';
import {
  ATTACHMENT_ACCESS_MESSAGES,
  ATTACHMENT_COUNT_MAX,
  ATTACHMENT_MESSAGES,
  attachmentQuotaMessage,
  checkAttachmentSize,
  checkFile,
  fitsQuota,
  UNSENT_ATTACHMENT_TTL_MS,
} from '../../core/attachments';
import type { Attachment } from '../../core/attachments';
import { QupmError } from '../../core/errors';
import type { Caller } from '../../core/permissions';
import { canMessage } from '../../core/permissions';
import { CHANNEL_MESSAGES } from '../../core/channels';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { newDocumentId } from '../ids';

export type AttachmentContext = Pick<
  ServerContext,
  'db' | 'repos' | 'now' | 'attachmentsDir' | 'attachmentQuotaBytes'
>;

/** An upload nobody sent is removed after this long (core/attachments.ts: the Firebase side prunes with it too). */
export { UNSENT_ATTACHMENT_TTL_MS };
const TEMPORARY_SUFFIX = '.part';

/** Creates the folder, and removes what a crash left half-written in it. */
export function prepareAttachmentsDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) {
    if (file.endsWith(TEMPORARY_SUFFIX)) rmSync(path.join(dir, file), { force: true });
  }
}

/** Where an attachment's bytes are: named by its id alone (a document id: letters and digits). */
export function attachmentPath(ctx: Pick<AttachmentContext, 'attachmentsDir'>, id: string): string {
  return path.join(ctx.attachmentsDir, id);
}

const refuse = (problem: keyof typeof ATTACHMENT_MESSAGES): QupmError =>
  new QupmError('INVALID_ARGUMENT', ATTACHMENT_MESSAGES[problem]);

/** Owner and members only (admins read a channel's messages, not its files). */
function memberChannel(ctx: Pick<AttachmentContext, 'repos'>, caller: Caller, channelId: string) {
  const channel = ctx.repos.channels.get(channelId);
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  if (!canMessage(channel, caller.uid)) {
    throw new QupmError('PERMISSION_DENIED', ATTACHMENT_ACCESS_MESSAGES.notMember);
  }
  return channel;
}

/** RESOURCE_EXHAUSTED, saying how much room is left, when `bytes` more do not fit the caller's quota. */
function assertRoomFor(
  ctx: Pick<AttachmentContext, 'repos' | 'attachmentQuotaBytes'>,
  caller: Caller,
  bytes: number,
): void {
  const quota = {
    quotaBytes: ctx.attachmentQuotaBytes,
    usedBytes: ctx.repos.attachments.bytesOf(caller.uid),
  };
  if (!fitsQuota({ ...quota, fileBytes: bytes })) {
    throw new QupmError(
      'RESOURCE_EXHAUSTED',
      attachmentQuotaMessage({ ...quota, fileBytes: bytes }),
      'storage-quota',
    );
  }
}

/**
 * Before an upload's body is read: the caller may post files in this channel, and the size the request declares
 * (Content-Length, when it says one) fits what is left of their quota, so a file that cannot be kept is refused
 * without receiving it.
 */
export function assertMayUpload(
  ctx: Pick<AttachmentContext, 'repos' | 'attachmentQuotaBytes'>,
  caller: Caller,
  channelId: string,
  declaredBytes: number | undefined,
): void {
  memberChannel(ctx, caller, channelId);
  if (declaredBytes !== undefined && Number.isSafeInteger(declaredBytes) && declaredBytes > 0) {
    assertRoomFor(ctx, caller, declaredBytes);
  }
}

/** The file as it will be stored, once its name, size and the type its bytes say are checked. */
export async function inspectUpload(name: unknown, bytes: Uint8Array): Promise<Omit<Attachment, 'id'>> {
  // Sniffed only when the size is fine (an empty body has nothing to sniff).
  const sniffed = checkAttachmentSize(bytes.length) === null ? await fileTypeFromBuffer(bytes) : undefined;
  const checked = checkFile({ name, bytes, sniffedType: sniffed?.mime });
  if (!checked.ok) throw refuse(checked.problem);
  return checked.file;
}

/** Stores an upload for a message the caller is about to send in the channel; answers what it stored. */
export async function uploadAttachment(
  ctx: AttachmentContext,
  caller: Caller,
  channelId: string,
  input: { name: unknown; bytes: Uint8Array },
): Promise<Attachment> {
  memberChannel(ctx, caller, channelId);
  const attachment: Attachment = { id: newDocumentId(), ...(await inspectUpload(input.name, input.bytes)) };
  assertRoomFor(ctx, caller, attachment.size);
  const target = attachmentPath(ctx, attachment.id);
  const temporary = `${target}.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`;
  try {
    await writeFile(temporary, input.bytes, { flag: 'wx' });
    await rename(temporary, target);
    // Membership and room are read again inside the transaction: someone removed meanwhile stores nothing, and
    // two uploads at once cannot both take the last of the quota.
    write(ctx.db, () => {
      memberChannel(ctx, caller, channelId);
      assertRoomFor(ctx, caller, attachment.size);
      ctx.repos.attachments.insert({ attachment, channelId, uploaderId: caller.uid, createdAt: ctx.now() });
    });
  } catch (error) {
    await unlink(temporary).catch(() => {});
    await unlink(target).catch(() => {});
    throw error;
  }
  return attachment;
}

/**
 * Inside sendMessage's write transaction: the caller's own unsent upload in this channel becomes the message's.
 * Anything else (unknown, another channel's, someone else's, already sent) refuses the message; the transaction
 * then undoes the claims of its other files, so nothing is half-sent.
 */
export function claimAttachment(
  ctx: Pick<AttachmentContext, 'repos'>,
  caller: Caller,
  channelId: string,
  attachmentId: string,
  messageId: string,
): Attachment {
  const stored = ctx.repos.attachments.get(attachmentId);
  if (!stored || stored.channelId !== channelId) {
    throw new QupmError('NOT_FOUND', ATTACHMENT_ACCESS_MESSAGES.noSuchFile);
  }
  if (stored.uploaderId !== caller.uid) {
    throw new QupmError('PERMISSION_DENIED', ATTACHMENT_ACCESS_MESSAGES.notYours);
  }
  if (!ctx.repos.attachments.claim(attachmentId, messageId)) {
    throw new QupmError('ALREADY_EXISTS', ATTACHMENT_ACCESS_MESSAGES.alreadySent);
  }
  return stored.attachment;
}

/**
 * A file for a member of its channel: one sent with a message, or the caller's own upload not sent yet. Answers
 * its description and where its bytes are.
 */
export function openAttachment(
  ctx: AttachmentContext,
  caller: Caller,
  channelId: string,
  attachmentId: string,
): { attachment: Attachment; file: string } {
  memberChannel(ctx, caller, channelId);
  const stored = ctx.repos.attachments.get(attachmentId);
  if (
    !stored ||
    stored.channelId !== channelId ||
    (stored.messageId === null && stored.uploaderId !== caller.uid)
  ) {
    throw new QupmError('NOT_FOUND', ATTACHMENT_ACCESS_MESSAGES.noSuchFile);
  }
  return { attachment: stored.attachment, file: attachmentPath(ctx, attachmentId) };
}

/** Removes attachments' bytes (their rows are gone already); a file already gone is fine. */
export async function removeFiles(
  ctx: Pick<AttachmentContext, 'attachmentsDir'>,
  ids: readonly string[],
): Promise<void> {
  await Promise.all(
    ids.map((id) =>
      unlink(attachmentPath(ctx, id)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      }),
    ),
  );
}

/**
 * The files a message sends (ATTACHMENT_COUNT_MAX at most, no id twice), each claimed as claimAttachment claims
 * one, in the order given. Inside sendMessage's write transaction.
 */
export function claimAttachments(
  ctx: Pick<AttachmentContext, 'repos'>,
  caller: Caller,
  channelId: string,
  attachmentIds: readonly string[],
  messageId: string,
): Attachment[] {
  if (attachmentIds.length > ATTACHMENT_COUNT_MAX) {
    throw new QupmError('INVALID_ARGUMENT', ATTACHMENT_ACCESS_MESSAGES.tooMany);
  }
  if (new Set(attachmentIds).size !== attachmentIds.length) {
    throw new QupmError('INVALID_ARGUMENT', ATTACHMENT_ACCESS_MESSAGES.twice);
  }
  return attachmentIds.map((id) => claimAttachment(ctx, caller, channelId, id, messageId));
}

/**
 * Deleting a message deletes its files: the rows and the message's copy go in one transaction (inside the
 * caller's, when there is one), then the bytes. Answers the ids of the files it carried.
 */
export function dropMessageAttachments(ctx: Pick<AttachmentContext, 'repos'>, messageId: string): string[] {
  const stored = ctx.repos.attachments.ofMessage(messageId);
  ctx.repos.messages.dropAttachment(messageId);
  for (const file of stored) ctx.repos.attachments.delete(file.attachment.id);
  return stored.map((file) => file.attachment.id);
}

/** dropMessageAttachments in its own transaction, then the files removed. */
export async function deleteMessageAttachments(ctx: AttachmentContext, messageId: string): Promise<boolean> {
  const ids = write(ctx.db, () => dropMessageAttachments(ctx, messageId));
  if (ids.length === 0) return false;
  await removeFiles(ctx, ids);
  return true;
}

/** Housekeeping: uploads never sent within a day go, row and file. */
export async function pruneUnsentAttachments(ctx: AttachmentContext): Promise<number> {
  const ids = write(ctx.db, () => {
    const stale = ctx.repos.attachments.unsentBefore(ctx.now() - UNSENT_ATTACHMENT_TTL_MS);
    for (const id of stale) ctx.repos.attachments.delete(id);
    return stale;
  });
  await removeFiles(ctx, ids);
  return ids.length;
}
