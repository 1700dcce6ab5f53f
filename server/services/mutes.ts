// Muting a channel: a person mutes a channel they are in for 1 hour, 8 hours or until they
// turn it back on, and unmutes it. core/mutes.ts decides (durations, who may, when a mute ends, with this
// server's clock); a muted channel's messages then queue no push and add nothing to the badge for that person
// (services/channels.ts sendMessage). Nothing is written for a refused request. Every change is streamed to all of
// that person's open windows (a `mutes` event with the mutes now in force), and to nobody else.
import { CHANNEL_MESSAGES } from '../../core/channels';
import { QupmError } from '../../core/errors';
import type { ChannelMute } from '../../core/model';
import { assertCanMute, muteEndsAt } from '../../core/mutes';
import type { ChannelMutes, MuteDuration } from '../../core/mutes';
import type { Caller } from '../../core/permissions';
import { write } from '../db/database';
import type { ServiceContext } from '../context';

function assertMayMute(ctx: ServiceContext, caller: Caller, channelId: string): void {
  const channel = ctx.repos.channels.get(channelId);
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  assertCanMute(channel, caller.uid);
}

/** The caller's mutes still in force, by channel. */
export function listMutes(ctx: ServiceContext, caller: Caller): ChannelMutes {
  return ctx.repos.mutes.activeFor(caller.uid, ctx.now());
}

/** Streams the caller's mutes, as they now stand, to each of their windows (after the change is committed). */
function publishMutes(ctx: ServiceContext, caller: Caller): void {
  ctx.hub.publish({ uids: [caller.uid] }, { type: 'mutes', data: { mutes: listMutes(ctx, caller) } });
}

/** Mutes a channel the caller is in, from now for `duration`; a new mute replaces the one there was. */
export function muteChannel(
  ctx: ServiceContext,
  caller: Caller,
  channelId: string,
  duration: MuteDuration,
): ChannelMute {
  const mute = write(ctx.db, () => {
    assertMayMute(ctx, caller, channelId);
    const mutedUntil = muteEndsAt(duration, ctx.now());
    ctx.repos.mutes.put(caller.uid, channelId, mutedUntil);
    return { channelId, mutedUntil };
  });
  publishMutes(ctx, caller);
  return mute;
}

/** Unmutes a channel the caller is in (a channel that was not muted stays so). */
export function unmuteChannel(ctx: ServiceContext, caller: Caller, channelId: string): void {
  write(ctx.db, () => {
    assertMayMute(ctx, caller, channelId);
    ctx.repos.mutes.delete(caller.uid, channelId);
  });
  publishMutes(ctx, caller);
}
