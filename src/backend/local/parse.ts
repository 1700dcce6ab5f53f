// Checks on what the embedded server's stream delivers: a live event is outside input like any other, so one
// that is malformed is dropped here instead of reaching the store (no zod in the page's bundle for this).
import { toAttachment } from '@core/attachments';
import { DOCUMENT_ID_PATTERN } from '@core/ids';
import type { ChatMessage } from '@core/model';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A chat message with every field of the right type and id shape (and its attachment, if any), or null. */
export function parseChatMessage(value: unknown): ChatMessage | null {
  if (!isRecord(value)) return null;
  const { id, channelId, senderId, senderName, text, createdAt, editedAt, deleted, updatedAt } = value;
  if (typeof id !== 'string' || !DOCUMENT_ID_PATTERN.test(id)) return null;
  if (typeof channelId !== 'string' || !DOCUMENT_ID_PATTERN.test(channelId)) return null;
  if (typeof senderId !== 'string' || senderId === '') return null;
  if (typeof senderName !== 'string' || typeof text !== 'string') return null;
  if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || createdAt < 0) return null;
  const message: ChatMessage = { id, channelId, senderId, senderName, text, createdAt };
  // Issue #13: an edited or deleted message's version fields, each only when well formed.
  if (isTime(editedAt)) message.editedAt = editedAt;
  if (deleted === true) message.deleted = true;
  if (isTime(updatedAt)) message.updatedAt = updatedAt;
  if ((editedAt !== undefined && !isTime(editedAt)) || (updatedAt !== undefined && !isTime(updatedAt)))
    return null;
  // A file it carries (issue #13), when it is one; a malformed one is dropped, the message kept.
  const attachment = value.attachment === undefined ? null : toAttachment(value.attachment);
  if (attachment) message.attachment = attachment;
  return message;
}

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
