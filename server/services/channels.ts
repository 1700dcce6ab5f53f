// Channels and their messages: readable by the owner, members and admins; messages sent by owner and members;
// created by consultants, edited by their owner (core/channels.ts decides, this runs it in transactions and
// streams what changed after each commit).
import {
  assertCanCreateChannel,
  assertCanListMembers,
  assertCanMarkRead,
  assertChannelOwner,
  CHANNEL_MESSAGES,
  channelMembers,
  nextReadMark,
  READ_MARK_MESSAGES,
} from '../../core/channels';
import { QupmError } from '../../core/errors';
import type { Channel, ChannelMember, ChannelOverview, ChatMessage } from '../../core/model';
import { sortOverview } from '../../core/overview';
import { badgeCount, pendingRecipients } from '../../core/pending';
import type { Caller } from '../../core/permissions';
import { canMessage, canReadChannel, canReadMessages } from '../../core/permissions';
import { isPrivateChannel } from '../../core/privateChannels';
import { planPushes, planRecipients, pushRecipients } from '../../core/fanOut';
import { assertOpenForMessages } from '../../core/housekeeping';
import type { PageOptions } from '../repo/messages';
import type { NewPushJob } from '../repo/pushJobs';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import { quoteOf, REPLY_MESSAGES, REPLY_STATUS } from '../../core/replies';
import type { ReplyQuote } from '../../core/replies';
import { claimAttachments } from './attachments';
import { publishReceipt, stampReadMark } from './receipts';
import type { ServiceContext } from '../context';

const NO_SUCH_CHANNEL = CHANNEL_MESSAGES.noSuchChannel;
const NOT_YOUR_CHANNEL = CHANNEL_MESSAGES.notInChannel;

/** Streams a channel to those who may read it: owner, members, admins. */
export function publishChannel(ctx: ServiceContext, channel: Channel): void {
  ctx.hub.publish(
    { uids: [channel.ownerId, ...channel.members], admins: true },
    { type: 'channel', data: { channel } },
  );
}

/**
 * Who is streamed a channel's messages (core/permissions.ts canReadMessages): its owner and members, and admins
 * unless it is a private consultation.
 */
export function messageAudience(channel: Channel): { uids: string[]; admins: boolean } {
  return { uids: [channel.ownerId, ...channel.members], admins: !isPrivateChannel(channel) };
}

function load(ctx: ServiceContext, id: string): Channel {
  const channel = ctx.repos.channels.get(id);
  if (!channel) throw new QupmError('NOT_FOUND', NO_SUCH_CHANNEL);
  return channel;
}

export function listMyChannels(ctx: ServiceContext, caller: Caller): Channel[] {
  return ctx.repos.channels.listFor(caller.uid);
}

/** The caller's channels (owned and joined), each with its last message and unread count, newest first. */
export function channelOverview(ctx: ServiceContext, caller: Caller): ChannelOverview[] {
  const { channels, messages } = ctx.repos;
  return sortOverview(
    channels.listFor(caller.uid).map((channel) => ({
      channel,
      lastMessage: messages.latest(channel.id),
      unread: messages.countUnread(channel.id, caller.uid),
    })),
  );
}

/** spec §7: channels queried by the channelId field, limit 1; only a channel the caller may read. */
export function findChannelByHandle(ctx: ServiceContext, caller: Caller, handle: string): Channel[] {
  const channel = ctx.repos.channels.getByHandle(handle);
  return channel && canReadChannel(channel, caller) ? [channel] : [];
}

export function readChannel(ctx: ServiceContext, caller: Caller, id: string): Channel {
  const channel = load(ctx, id);
  if (!canReadChannel(channel, caller)) throw new QupmError('PERMISSION_DENIED', NOT_YOUR_CHANNEL);
  return channel;
}

/** A consultant creates a channel under a free handle; they own it, with no members yet. */
export function createChannel(
  ctx: ServiceContext,
  caller: Caller,
  input: { channelId: string; title: string; description: string },
): Channel {
  const channel = write(ctx.db, () => {
    assertCanCreateChannel(ctx.repos.users.getDoc(caller.uid));
    if (ctx.repos.channels.getByHandle(input.channelId)) {
      throw new QupmError('ALREADY_EXISTS', CHANNEL_MESSAGES.handleTaken);
    }
    const id = newDocumentId();
    ctx.repos.channels.insert({ id, ownerId: caller.uid, createdAt: ctx.now(), ...input });
    return load(ctx, id);
  });
  publishChannel(ctx, channel);
  return channel;
}

/** Its owner changes a channel's title or description. */
export function updateChannel(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  patch: { title?: string; description?: string },
): Channel {
  const channel = write(ctx.db, () => {
    const stored = load(ctx, id);
    assertChannelOwner(stored, caller.uid);
    ctx.repos.channels.updateDetails(id, {
      title: patch.title ?? stored.title,
      description: patch.description ?? stored.description,
    });
    return load(ctx, id);
  });
  publishChannel(ctx, channel);
  return channel;
}

export function listMembers(ctx: ServiceContext, caller: Caller, id: string): ChannelMember[] {
  const channel = load(ctx, id);
  assertCanListMembers(channel, caller);
  const joined = new Map(ctx.repos.channels.membersOf(id).map((m) => [m.uid, m.joinedAt]));
  return channelMembers(
    channel,
    (uid) => joined.get(uid) ?? channel.createdAt,
    (uid) => ctx.repos.users.publicName(uid),
  );
}

/**
 * The caller has read the channel up to and including `messageId`, one of its messages. The mark only moves
 * forward (core/channels.ts nextReadMark, decided inside the write transaction so two racing marks cannot move it
 * back): a late or repeated mark changes nothing.
 */
export function markRead(ctx: ServiceContext, caller: Caller, id: string, messageId: string): void {
  const moved = write(ctx.db, () => {
    const channel = load(ctx, id);
    assertCanMarkRead(channel, caller.uid);
    const message = ctx.repos.messages.get(messageId);
    if (!message || message.channelId !== id) {
      throw new QupmError('NOT_FOUND', READ_MARK_MESSAGES.noSuchMessage);
    }
    const current = ctx.repos.reads.get(caller.uid, id);
    const next = nextReadMark(current, message);
    if (next === current) return null;
    ctx.repos.reads.put(caller.uid, id, next);
    stampReadMark(ctx, caller.uid, id);
    return channel;
  });
  // Read receipts (services/receipts.ts): the others who share them see the mark move.
  if (moved) publishReceipt(ctx, moved, caller.uid);
}

export function listMessages(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  options: PageOptions,
): ChatMessage[] {
  const channel = load(ctx, id);
  if (!canReadMessages(channel, caller)) throw new QupmError('PERMISSION_DENIED', NOT_YOUR_CHANNEL);
  return ctx.repos.messages.list(id, options);
}

/**
 * Inside write(): stores `message` and, with it, counts it as pending for everyone else in the channel who has not
 * muted it and queues one push for each of their token documents (those who want push, spec §5) with
 * their own badge count (muted channels left out). Answers whether pushes were queued (wake the push queue after
 * the commit). sendMessage and the backend's own cards (server/services/bookings.ts) both store messages so.
 */
export function storeMessage(
  ctx: ServiceContext,
  channel: Channel,
  message: ChatMessage,
  now: number,
): { queued: boolean } {
  ctx.repos.messages.insert(message);
  // core/fanOut.ts decides who counts it, who gets a push and which browsers; this reads and writes. A muted
  // channel adds nothing to that person's badge and sends them no push; its unread count is the read mark's, so
  // it still shows in their list.
  const members = pendingRecipients(channel, message.senderId);
  const mutes = Object.fromEntries(members.map((uid) => [uid, ctx.repos.mutes.activeFor(uid, now)]));
  const { recipients, mutedChannels } = planRecipients({ channel, senderId: message.senderId, mutes, now });
  ctx.repos.pending.increment(recipients, channel.id, now);
  const pushable = pushRecipients({
    recipients,
    settings: Object.fromEntries(recipients.map((uid) => [uid, ctx.repos.users.notificationSettings(uid)])),
    mutes,
    channelId: channel.id,
    now,
  });
  const pushes = planPushes({
    message: {
      channelId: channel.id,
      messageId: message.id,
      senderName: message.senderName,
      text: message.text,
      // The push names the first file's kind (core/messageText.ts attachmentSummary).
      ...(message.attachments?.[0] ? { attachment: message.attachments[0] } : {}),
    },
    targets: pushable.flatMap((uid) => ctx.repos.tokens.list(uid).map((doc) => ({ ...doc, uid }))),
    badges: Object.fromEntries(
      pushable.map((uid) => [uid, badgeCount(ctx.repos.pending.counts(uid), mutedChannels[uid])]),
    ),
  });
  const jobs: NewPushJob[] = pushes.map(({ target, push }) => ({
    messageId: message.id,
    uid: target.uid,
    tokenId: target.id,
    payload: JSON.stringify({
      messageId: message.id,
      data: { ...push.data, link: push.path },
      notification: push.notification,
    }),
  }));
  ctx.repos.pushJobs.enqueue(jobs, now);
  return { queued: jobs.length > 0 };
}

export type MessageContext = ServiceContext & Pick<ServerContext, 'pushQueue' | 'messageWrites'>;

export const MESSAGE_MESSAGES = {
  notAllowed: 'Only the channel owner and its members can send messages here.',
  idTaken: 'A different message already has this id. Send it under a new id.',
} as const;

/**
 * Stores a message (plain text, an upload of the caller's in the channel, or both) under the client's id (a new
 * one when it sent none) and, in the same transaction, counts it as pending for everyone else in the channel who
 * has not muted it and queues one push for each of their token documents (those who want push, spec
 * §5) with their own badge count (muted channels left out); after the commit it streams the message and wakes the
 * push queue.
 *
 * The id is the send's idempotency key: a repeat of an id the caller already sent in this channel answers the
 * stored message and changes nothing, whatever its text (an outbox retrying after a lost answer); an id taken by
 * anyone or anywhere else is ALREADY_EXISTS. Both are decided inside the write transaction, so concurrent repeats
 * still make one message. The transaction is the group's of this turn of the event loop (server/db/groupCommit.ts):
 * the answer and the stream wait for its commit.
 */
/** The quote of a reply to `messageId`, from the stored original: of this channel and not deleted, or refused. */
function quoteFor(ctx: ServiceContext, channelId: string, messageId: string): ReplyQuote {
  const quoted = quoteOf(channelId, ctx.repos.messages.get(messageId));
  if (!quoted.ok) throw new QupmError(REPLY_STATUS[quoted.problem], REPLY_MESSAGES[quoted.problem]);
  return quoted.quote;
}

export async function sendMessage(
  ctx: MessageContext,
  caller: Caller,
  id: string,
  input: { id?: string; text: string; attachmentIds?: readonly string[]; replyTo?: string },
): Promise<ChatMessage> {
  const outcome = await ctx.messageWrites.run(() => {
    const channel = load(ctx, id);
    if (!canMessage(channel, caller.uid))
      throw new QupmError('PERMISSION_DENIED', MESSAGE_MESSAGES.notAllowed);
    assertOpenForMessages(channel);
    if (input.id !== undefined) {
      const stored = ctx.repos.messages.get(input.id);
      if (stored && stored.senderId === caller.uid && stored.channelId === channel.id) {
        return { repeat: true, message: stored } as const;
      }
      if (stored) throw new QupmError('ALREADY_EXISTS', MESSAGE_MESSAGES.idTaken);
    }
    const replyTo = input.replyTo === undefined ? undefined : quoteFor(ctx, channel.id, input.replyTo);
    const now = ctx.now();
    const messageId = input.id ?? newDocumentId();
    const attachments =
      input.attachmentIds === undefined || input.attachmentIds.length === 0
        ? undefined
        : claimAttachments(ctx, caller, channel.id, input.attachmentIds, messageId);
    // Never before the channel's newest: a client catching up from its newest millisecond misses no later commit.
    const createdAt = Math.max(now, ctx.repos.messages.latest(channel.id)?.createdAt ?? now);
    const message: ChatMessage = {
      id: messageId,
      channelId: channel.id,
      senderId: caller.uid,
      senderName: ctx.repos.users.publicName(caller.uid) || caller.email,
      text: input.text,
      createdAt,
      ...(attachments ? { attachments } : {}),
      ...(replyTo ? { replyTo } : {}),
    };
    const { queued } = storeMessage(ctx, channel, message, now);
    return { repeat: false, message, channel, queued } as const;
  });
  if (outcome.repeat) return outcome.message;
  const { message, channel, queued } = outcome;
  ctx.hub.publish(messageAudience(channel), { type: 'message', data: { message } });
  if (queued) ctx.pushQueue.wake();
  return message;
}
