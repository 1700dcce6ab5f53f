// Editing and deleting messages: core/messageEdits.ts decides who may and when, inside the
// write transaction (two racing changes cannot both pass the check), and after the commit the changed message is
// streamed to the channel's people like a new one, so every open window replaces its copy (the newer version
// wins, core/messages.ts). Neither change sends a push or counts as pending: an edit is no new message. A
// reaction (core/reactions.ts) is a change of the same kind.
import { CHANNEL_MESSAGES } from '../../core/channels';
import { QupmError } from '../../core/errors';
import {
  changeStamp,
  checkDelete,
  checkEdit,
  MESSAGE_CHANGE_MESSAGES,
  MESSAGE_CHANGE_STATUS,
  NO_SUCH_MESSAGE,
} from '../../core/messageEdits';
import type { ChangeCheck } from '../../core/messageEdits';
import type { Channel, ChatMessage } from '../../core/model';
import { checkReaction, isReaction, REACTION_MESSAGES, REACTION_STATUS } from '../../core/reactions';
import type { Caller } from '../../core/permissions';
import { canMessage } from '../../core/permissions';
import { write } from '../db/database';
import type { ServerContext } from '../context';
import type { ServiceContext } from '../context';
import { messageAudience } from './channels';
import { dropMessageAttachments, removeFiles } from './attachments';

function refuse(check: ChangeCheck): void {
  if (!check.ok)
    throw new QupmError(MESSAGE_CHANGE_STATUS[check.problem], MESSAGE_CHANGE_MESSAGES[check.problem]);
}

/**
 * The channel and one of its messages, inside the transaction: NOT_FOUND for either missing, but someone outside
 * the channel is refused first and learns nothing about which messages it has.
 */
function loadTarget(ctx: ServiceContext, caller: Caller, channelId: string, messageId: string) {
  const channel = ctx.repos.channels.get(channelId);
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  if (!canMessage(channel, caller.uid)) {
    throw new QupmError(MESSAGE_CHANGE_STATUS.notInChannel, MESSAGE_CHANGE_MESSAGES.notInChannel);
  }
  const message = ctx.repos.messages.get(messageId);
  if (!message || message.channelId !== channel.id) throw new QupmError('NOT_FOUND', NO_SUCH_MESSAGE);
  return { channel, message };
}

/** The stamp of a change to `message` now: after every version of its channel, and after its own. */
function stampFor(ctx: ServiceContext, message: ChatMessage): number {
  return changeStamp(ctx.now(), ctx.repos.messages.newestVersion(message.channelId) ?? 0, message);
}

/** To those who read the channel's messages: never admins for a private consultation. */
function publish(ctx: ServiceContext, channel: Channel, message: ChatMessage): void {
  ctx.hub.publish(messageAudience(channel), { type: 'message', data: { message } });
}

/** Its sender changes a message's text within 24 hours of sending it; answers the message as it now stands. */
export function editMessage(
  ctx: ServiceContext,
  caller: Caller,
  channelId: string,
  messageId: string,
  text: string,
): ChatMessage {
  const { channel, message } = write(ctx.db, () => {
    const target = loadTarget(ctx, caller, channelId, messageId);
    refuse(checkEdit(target.channel, target.message, caller.uid, ctx.now()));
    ctx.repos.messages.edit(messageId, text, stampFor(ctx, target.message));
    return { channel: target.channel, message: ctx.repos.messages.get(messageId) as ChatMessage };
  });
  publish(ctx, channel, message);
  return message;
}

/**
 * Inside the deletion's transaction: the replies quoting a deleted message keep no words of it either (core/replies.ts:
 * an empty snippet reads "Deleted message"); each gets a new version, so every window replaces its copy.
 */
function scrubQuotes(ctx: ServiceContext, messageId: string): ChatMessage[] {
  return ctx.repos.messages.quoting(messageId).flatMap((id) => {
    const reply = ctx.repos.messages.get(id);
    if (!reply) return [];
    ctx.repos.messages.scrubQuote(id, stampFor(ctx, reply));
    return [ctx.repos.messages.get(id) as ChatMessage];
  });
}

/**
 * Sets the caller's reaction to a message (or takes it back: null): one row of theirs, whatever others chose, and a
 * new version of the message, streamed to the channel's people like an edit. No push: a reaction is no message.
 */
export function reactToMessage(
  ctx: ServiceContext,
  caller: Caller,
  channelId: string,
  messageId: string,
  emoji: unknown,
): ChatMessage {
  if (emoji !== null && !isReaction(emoji)) {
    throw new QupmError(REACTION_STATUS.notInSet, REACTION_MESSAGES.notInSet);
  }
  const { channel, message } = write(ctx.db, () => {
    const target = loadTarget(ctx, caller, channelId, messageId);
    const check = checkReaction(target.channel, target.message, caller.uid, emoji);
    if (!check.ok) throw new QupmError(REACTION_STATUS[check.problem], REACTION_MESSAGES[check.problem]);
    ctx.repos.messages.setReaction(messageId, caller.uid, emoji);
    ctx.repos.messages.stamp(messageId, stampFor(ctx, target.message));
    return { channel: target.channel, message: ctx.repos.messages.get(messageId) as ChatMessage };
  });
  publish(ctx, channel, message);
  return message;
}

/**
 * Its sender, or the channel's owner, deletes a message: its text is cleared from storage and a tombstone stays in
 * its place (the conversation keeps its order and its read marks their message). Answers the tombstone. Its files,
 * if it carried any, go with it: the row and the message's copy in the same transaction, the
 * bytes right after the commit.
 */
export function deleteMessage(
  ctx: ServiceContext & Pick<ServerContext, 'attachmentsDir'>,
  caller: Caller,
  channelId: string,
  messageId: string,
): ChatMessage {
  const { channel, message, files, quoting } = write(ctx.db, () => {
    const target = loadTarget(ctx, caller, channelId, messageId);
    refuse(checkDelete(target.channel, target.message, caller.uid));
    ctx.repos.messages.markDeleted(messageId, stampFor(ctx, target.message));
    ctx.repos.messages.clearReactions(messageId);
    const files = dropMessageAttachments(ctx, messageId);
    return {
      channel: target.channel,
      message: ctx.repos.messages.get(messageId) as ChatMessage,
      files,
      quoting: scrubQuotes(ctx, messageId),
    };
  });
  if (files.length > 0) {
    removeFiles(ctx, files).catch((error: unknown) => {
      console.error('Removing a deleted message’s file failed', error);
    });
  }
  publish(ctx, channel, message);
  for (const reply of quoting) publish(ctx, channel, reply);
  return message;
}
