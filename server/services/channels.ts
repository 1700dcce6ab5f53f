// Channels and their messages: readable by the owner, members and admins; messages sent by owner and members.
import { QupmError } from '../../core/errors';
import type { Channel, ChatMessage } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { canMessage, canReadChannel } from '../../core/permissions';
import { pendingRecipients } from '../../core/pending';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import type { ServiceContext } from './users';

const NO_SUCH_CHANNEL = 'There is no such channel.';
const NOT_YOUR_CHANNEL = 'You are not a member of this channel.';

export function listMyChannels(ctx: ServiceContext, caller: Caller): Channel[] {
  return ctx.repos.channels.listFor(caller.uid);
}

/** spec §7: channels queried by the channelId field, limit 1; only a channel the caller may read. */
export function findChannelByHandle(ctx: ServiceContext, caller: Caller, handle: string): Channel[] {
  const channel = ctx.repos.channels.getByHandle(handle);
  return channel && canReadChannel(channel, caller) ? [channel] : [];
}

export function readChannel(ctx: ServiceContext, caller: Caller, id: string): Channel {
  const channel = ctx.repos.channels.get(id);
  if (!channel) throw new QupmError('NOT_FOUND', NO_SUCH_CHANNEL);
  if (!canReadChannel(channel, caller)) throw new QupmError('PERMISSION_DENIED', NOT_YOUR_CHANNEL);
  return channel;
}

export function listMessages(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  options: { before?: number; limit?: number },
): ChatMessage[] {
  readChannel(ctx, caller, id);
  return ctx.repos.messages.list(id, options);
}

/** Stores a plain-text message, counts it as pending for everyone else in the channel, and streams it. */
export function sendMessage(ctx: ServiceContext, caller: Caller, id: string, text: string): ChatMessage {
  const { message, channel } = write(ctx.db, () => {
    const channel = ctx.repos.channels.get(id);
    if (!channel) throw new QupmError('NOT_FOUND', NO_SUCH_CHANNEL);
    if (!canMessage(channel, caller.uid)) {
      throw new QupmError(
        'PERMISSION_DENIED',
        'Only the channel owner and its members can send messages here.',
      );
    }
    const now = ctx.now();
    const message: ChatMessage = {
      id: newDocumentId(),
      channelId: channel.id,
      senderId: caller.uid,
      senderName: ctx.repos.users.publicName(caller.uid) || caller.email,
      text,
      createdAt: now,
    };
    ctx.repos.messages.insert(message);
    ctx.repos.pending.increment(pendingRecipients(channel, caller.uid), channel.id, now);
    return { message, channel };
  });
  ctx.hub.publish(
    { uids: [channel.ownerId, ...channel.members], admins: true },
    { type: 'message', data: { message } },
  );
  return message;
}
