// Editing and deleting messages, decided once for the embedded server, the Firebase adapter
// (whose writes firestore.rules checks the same way, by test), functions/ and the screens (which offer Edit and
// Delete only when these allow them): a person edits their own message within 24 hours of sending it and deletes
// it at any time; a channel's owner (its consultant) deletes any message in it; a deleted message is a tombstone
// that nothing changes again; only the channel's people (owner and members) do either.
import type { ChannelAccess } from './permissions';
import type { ChatMessage } from './model';
import type { ErrorStatus } from './errors';
import { canMessage, channelPermissions } from './permissions';
import { versionOf } from './messages';

/** A message may be edited for 24 hours after it was sent (its createdAt). */
export const EDIT_WINDOW_MS = 24 * 60 * 60 * 1000;

export type MessageChangeProblem = 'notInChannel' | 'notYours' | 'deleted' | 'tooLate';

/** What a refused edit or deletion tells a person (and the status a backend answers with). */
export const MESSAGE_CHANGE_MESSAGES: Record<MessageChangeProblem, string> = {
  notInChannel: 'Only the channel owner and its members can change messages here.',
  notYours: 'You can only change your own messages.',
  deleted: 'This message was deleted, so it can no longer be changed.',
  tooLate: 'A message can only be edited in the first 24 hours after it was sent.',
};

export const MESSAGE_CHANGE_STATUS: Record<MessageChangeProblem, ErrorStatus> = {
  notInChannel: 'PERMISSION_DENIED',
  notYours: 'PERMISSION_DENIED',
  deleted: 'FAILED_PRECONDITION',
  tooLate: 'FAILED_PRECONDITION',
};

/** The words for a message id the channel does not have. */
export const NO_SUCH_MESSAGE = 'That message is not in this channel.';

type ChangeTarget = Pick<ChatMessage, 'senderId' | 'createdAt' | 'deleted'>;
export type ChangeCheck = { ok: true } | { ok: false; problem: MessageChangeProblem };

/** Whether `uid` may edit `message` at `now`: their own, not deleted, within the 24 hours, still in the channel. */
export function checkEdit(
  channel: ChannelAccess,
  message: ChangeTarget,
  uid: string,
  now: number,
): ChangeCheck {
  if (!canMessage(channel, uid)) return { ok: false, problem: 'notInChannel' };
  if (message.deleted === true) return { ok: false, problem: 'deleted' };
  if (message.senderId !== uid) return { ok: false, problem: 'notYours' };
  if (!isWithinEditWindow(message, now)) return { ok: false, problem: 'tooLate' };
  return { ok: true };
}

/** Whether `uid` may delete `message`: their own, or any in a channel they own; never a deleted one again. */
export function checkDelete(channel: ChannelAccess, message: ChangeTarget, uid: string): ChangeCheck {
  if (!canMessage(channel, uid)) return { ok: false, problem: 'notInChannel' };
  if (message.deleted === true) return { ok: false, problem: 'deleted' };
  if (message.senderId !== uid && !channelPermissions(channel, uid).permissions.isOwner) {
    return { ok: false, problem: 'notYours' };
  }
  return { ok: true };
}

/** The 24 hours after a message was sent (a clock behind the send still counts as within them). */
export function isWithinEditWindow(message: Pick<ChatMessage, 'createdAt'>, now: number): boolean {
  return now < message.createdAt + EDIT_WINDOW_MS;
}

/** When the edit window of `message` closes (the screen stops offering Edit then). */
export function editWindowEnd(message: Pick<ChatMessage, 'createdAt'>): number {
  return message.createdAt + EDIT_WINDOW_MS;
}

/**
 * The version stamp of a change (server/services/messageEdits.ts): now, but never before the channel's newest
 * version (`channelNewest`, so a subscriber catching up on changes from its newest version misses none), and
 * after the message's own previous version (so the newer copy always wins a merge).
 */
export function changeStamp(
  now: number,
  channelNewest: number,
  previous: Parameters<typeof versionOf>[0],
): number {
  return Math.max(now, channelNewest, versionOf(previous) + 1);
}

/** A message as it is stored once deleted: no text left, a tombstone. */
export function tombstoneOf<T extends ChatMessage>(message: T, updatedAt: number): T {
  return { ...message, text: '', deleted: true, updatedAt };
}
