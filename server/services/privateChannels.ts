// Private consultations: a client opens one with the consultant of a channel they are in, a
// consultant with a member of their channel, or an accepted "private consultation" invitation opens one. One per
// pair: the pair's key is unique in SQLite and the look-up and insert share one write transaction, so two windows
// opening it at once get the same channel. core/privateChannels.ts decides who may.
import type { Channel } from '../../core/model';
import type { Caller } from '../../core/permissions';
import type { PrivatePair } from '../../core/privateChannels';
import { decidePrivatePair, newPrivateChannel, privatePairKey } from '../../core/privateChannels';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import { publishChannel } from './channels';
import type { ServiceContext } from '../context';

/**
 * Inside a write transaction: the pair's private consultation, created when there is none. `created` says whether
 * this call made it (the caller then streams it after the commit).
 */
export function ensurePrivateChannel(
  ctx: ServiceContext,
  pair: PrivatePair,
  now: number,
): { channel: Channel; created: boolean } {
  const key = privatePairKey(pair.ownerId, pair.memberId);
  const existing = ctx.repos.channels.getByPair(key);
  if (existing) return { channel: existing, created: false };
  const channel = newPrivateChannel({
    id: newDocumentId(),
    pair,
    names: {
      [pair.ownerId]: ctx.repos.users.publicName(pair.ownerId),
      [pair.memberId]: ctx.repos.users.publicName(pair.memberId),
    },
    createdAt: now,
  });
  ctx.repos.channels.insertPrivate(channel, key);
  const stored = ctx.repos.channels.get(channel.id);
  if (!stored) throw new Error('The private conversation just written cannot be read back');
  return { channel: stored, created: true };
}

/** Opens (or finds) the caller's private consultation with `withUid`, whom they share `viaChannelId` with. */
export function openPrivateChannel(
  ctx: ServiceContext,
  caller: Caller,
  input: { withUid: string; viaChannelId: string },
): Channel {
  const { channel, created } = write(ctx.db, () => {
    const pair = decidePrivatePair(caller.uid, input.withUid, ctx.repos.channels.get(input.viaChannelId));
    return ensurePrivateChannel(ctx, pair, ctx.now());
  });
  if (created) publishChannel(ctx, channel);
  return channel;
}
