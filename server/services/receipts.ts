// Read receipts and typing (core/receipts.ts). Marks are the channel's read marks (services/channels.ts markRead)
// and the delivered marks a device advances; each move is streamed to the channel's other participants who share
// receipts, and only the marks of people who share them are disclosed, to people who share theirs. Typing is a
// live event only: nothing is written.
import { assertCanMarkRead, CHANNEL_MESSAGES, nextReadMark, READ_MARK_MESSAGES } from '../../core/channels';
import { QupmError } from '../../core/errors';
import type { Channel } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { visibleReceipts } from '../../core/receipts';
import type { Receipt, ReceiptSettings } from '../../core/receipts';
import { write } from '../db/database';
import type { ServiceContext } from '../context';

function load(ctx: ServiceContext, id: string): Channel {
  const channel = ctx.repos.channels.get(id);
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  return channel;
}

const participants = (channel: Channel): string[] => [
  channel.ownerId,
  ...channel.members.filter((uid) => uid !== channel.ownerId),
];

function receiptsOf(ctx: ServiceContext, channel: Channel): Receipt[] {
  const inChannel = new Set(participants(channel));
  return ctx.repos.receipts
    .list(channel.id)
    .filter((row) => inChannel.has(row.uid))
    .map((row) => ({ ...row, name: ctx.repos.users.publicName(row.uid) }));
}

/** The marks of the channel's other participants that the caller may see (owner and members only). */
export function listReceipts(ctx: ServiceContext, caller: Caller, channelId: string): Receipt[] {
  const channel = load(ctx, channelId);
  assertCanMarkRead(channel, caller.uid);
  const sharing = (uid: string) => ctx.repos.receipts.sharing(uid);
  return visibleReceipts(receiptsOf(ctx, channel), caller.uid, sharing(caller.uid), sharing);
}

/**
 * Streams `uid`'s marks in the channel as they now stand (or null: they stopped sharing) to its other
 * participants who share receipts. Nothing when `uid` does not share them, unless `withdrawn`.
 */
export function publishReceipt(ctx: ServiceContext, channel: Channel, uid: string, withdrawn = false): void {
  const receipts = ctx.repos.receipts;
  if (!withdrawn && !receipts.sharing(uid)) return;
  const receipt = withdrawn ? null : (receiptsOf(ctx, channel).find((one) => one.uid === uid) ?? null);
  const audience = participants(channel).filter((other) => other !== uid && receipts.sharing(other));
  if (audience.length === 0) return;
  ctx.hub.publish({ uids: audience }, { type: 'receipt', data: { channelId: channel.id, uid, receipt } });
}

/** The read mark moved (services/channels.ts markRead, inside its transaction): when it moved. */
export function stampReadMark(ctx: ServiceContext, uid: string, channelId: string): void {
  ctx.repos.receipts.stamp(uid, channelId, ctx.now());
}

/**
 * A device of the caller got the channel up to `messageId`: their delivered mark moves there, never back
 * (as a read mark does).
 */
export function markDelivered(
  ctx: ServiceContext,
  caller: Caller,
  channelId: string,
  messageId: string,
): void {
  const moved = write(ctx.db, () => {
    const channel = load(ctx, channelId);
    assertCanMarkRead(channel, caller.uid);
    const message = ctx.repos.messages.get(messageId);
    if (!message || message.channelId !== channelId) {
      throw new QupmError('NOT_FOUND', READ_MARK_MESSAGES.noSuchMessage);
    }
    const current = ctx.repos.receipts.delivered(caller.uid, channelId);
    const next = nextReadMark(current, message);
    if (next === current) return null;
    ctx.repos.receipts.putDeliveredMark(caller.uid, channelId, next);
    return channel;
  });
  if (moved) publishReceipt(ctx, moved, caller.uid);
}

export function getReceiptSettings(ctx: ServiceContext, caller: Caller): ReceiptSettings {
  return { enabled: ctx.repos.receipts.sharing(caller.uid) };
}

/**
 * Turns sharing read receipts on or off. Every channel of the caller's then hears it: their marks withdrawn, or
 * shown again.
 */
export function setReceiptSettings(ctx: ServiceContext, caller: Caller, enabled: boolean): ReceiptSettings {
  const changed = write(ctx.db, () => {
    if (ctx.repos.receipts.sharing(caller.uid) === enabled) return false;
    ctx.repos.receipts.setSharingOf(caller.uid, enabled, ctx.now());
    return true;
  });
  if (changed) {
    for (const channel of ctx.repos.channels.listFor(caller.uid)) {
      publishReceipt(ctx, channel, caller.uid, !enabled);
    }
  }
  return { enabled };
}

/** The caller is typing in the channel: its other participants hear it now; nothing is stored. */
export function sendTyping(ctx: ServiceContext, caller: Caller, channelId: string): void {
  const channel = load(ctx, channelId);
  assertCanMarkRead(channel, caller.uid);
  const audience = participants(channel).filter((uid) => uid !== caller.uid);
  if (audience.length === 0) return;
  ctx.hub.publish(
    { uids: audience },
    { type: 'typing', data: { channelId, uid: caller.uid, name: ctx.repos.users.publicName(caller.uid) } },
  );
}
