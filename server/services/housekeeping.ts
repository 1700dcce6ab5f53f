// A consultant's housekeeping on the embedded server (core/housekeeping.ts, core/offers.ts decide): what archiving
// and deleting a channel would do (said first), archive and reopen, delete, remove a member, revoke an invitation,
// withdraw an offer, hand a channel to another consultant (its owner or an admin). Each is one write transaction;
// what changed is streamed after the commit.
import { CHANNEL_MESSAGES } from '../../core/channels';
import { QupmError } from '../../core/errors';
import type { ChannelContents } from '../../core/housekeeping';
import {
  assertCanDeleteChannel,
  planArchive,
  planHandOver,
  planRemoveMember,
  planRevokeInvitation,
  planUnarchive,
  removalNotice,
} from '../../core/housekeeping';
import { INVITATION_MESSAGES } from '../../core/invitations';
import type { Channel, Invitation } from '../../core/model';
import type { StoredOffer } from '../../core/offers';
import { planWithdrawOffer } from '../../core/offers';
import type { Caller } from '../../core/permissions';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { publishChannel } from './channels';
import { removeFiles } from './attachments';
import { publishOffers } from './offers';
import type { ServiceContext } from '../context';
import { publishUser } from './users';

function load(ctx: ServiceContext, id: string): Channel | null {
  return ctx.repos.channels.get(id);
}

/** What the channel holds, and the words said before archiving or deleting it. For its owner (and admins). */
export function describeChannelRemoval(
  ctx: ServiceContext,
  caller: Caller,
  channelId: string,
): { contents: ChannelContents; notice: { archive: string; delete: string } } {
  const channel = load(ctx, channelId);
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  if (channel.ownerId !== caller.uid && !caller.isAdmin) {
    throw new QupmError('PERMISSION_DENIED', CHANNEL_MESSAGES.notOwner);
  }
  const contents: ChannelContents = {
    title: channel.title,
    messages: ctx.repos.messages.count(channel.id),
    files: ctx.repos.attachments.idsInChannel(channel.id).length,
    members: channel.members.length,
    pendingInvitations: ctx.repos.invitations.openCount(channel.id, ctx.now()),
    activeOffers: ctx.repos.offers.listActiveIn(channel.id).filter((o) => o.expiresAt > ctx.now()).length,
  };
  return { contents, notice: removalNotice(contents) };
}

/** Its owner archives a channel: read-only from now on, everything in it kept. */
export function archiveChannel(ctx: ServiceContext, caller: Caller, channelId: string): Channel {
  const channel = write(ctx.db, () => {
    const next = planArchive(load(ctx, channelId), caller.uid, ctx.now());
    ctx.repos.channels.setArchived(channelId, next.archivedAt ?? null);
    return next;
  });
  publishChannel(ctx, channel);
  return channel;
}

/** Its owner opens an archived channel again. */
export function unarchiveChannel(ctx: ServiceContext, caller: Caller, channelId: string): Channel {
  const channel = write(ctx.db, () => {
    const next = planUnarchive(load(ctx, channelId), caller.uid);
    ctx.repos.channels.setArchived(channelId, null);
    return next;
  });
  publishChannel(ctx, channel);
  return channel;
}

/**
 * Its owner deletes a channel: its messages and their files, its members' places, its invitations and offers go
 * (ON DELETE CASCADE), its pending counts with them; bookings stay. The people who were in it are streamed the
 * channel's end (a `channel` event with no members, so their list drops it) and their user documents.
 */
export async function deleteChannel(
  ctx: ServiceContext & Pick<ServerContext, 'attachmentsDir'>,
  caller: Caller,
  channelId: string,
): Promise<{ success: true }> {
  const { channel, files } = write(ctx.db, () => {
    const stored = assertCanDeleteChannel(load(ctx, channelId), caller.uid);
    const fileIds = ctx.repos.attachments.idsInChannel(stored.id);
    ctx.repos.pending.clearSource(stored.id);
    ctx.repos.channels.delete(stored.id);
    return { channel: stored, files: fileIds };
  });
  await removeFiles(ctx, files);
  ctx.hub.publish(
    { uids: [channel.ownerId, ...channel.members], admins: true },
    { type: 'channelRemoved', data: { channelId: channel.id } },
  );
  for (const uid of channel.members) publishUser(ctx, uid);
  publishOffers(ctx, [channel.ownerId, ...channel.members]);
  return { success: true };
}

/**
 * Its owner removes a member: they leave the channel (what they wrote stays, under their name), their pending count
 * from it goes, and their active offers of the channel are withdrawn.
 */
export function removeMember(
  ctx: ServiceContext,
  caller: Caller,
  input: { channelId: string; userId: string },
): Channel {
  const channel = write(ctx.db, () => {
    const next = planRemoveMember(load(ctx, input.channelId), caller.uid, input.userId);
    ctx.repos.channels.removeMember(next.id, input.userId);
    ctx.repos.pending.clearFor(input.userId, next.id);
    for (const offer of ctx.repos.offers.listActiveIn(next.id)) {
      if (offer.userId === input.userId) ctx.repos.offers.setStatus(offer.offeringId, 'revoked');
    }
    return next;
  });
  // The one removed reads the channel once more, without them in it: their list drops it.
  ctx.hub.publish({ uids: [input.userId] }, { type: 'channel', data: { channel } });
  publishChannel(ctx, channel);
  publishUser(ctx, input.userId);
  publishOffers(ctx, [input.userId, caller.uid]);
  return channel;
}

/** Its channel's owner revokes an invitation nobody accepted; its link then says it was withdrawn. */
export function revokeInvitation(ctx: ServiceContext, caller: Caller, invitationId: string): Invitation {
  const invitation = write(ctx.db, () => {
    const stored = ctx.repos.invitations.get(invitationId);
    const next = planRevokeInvitation(
      stored,
      stored ? load(ctx, stored.channelId) : null,
      caller.uid,
      ctx.now(),
    );
    if (!next) return stored as Invitation;
    if (!ctx.repos.invitations.markRevoked(invitationId, ctx.now())) {
      throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.used, 'invitation-used');
    }
    return next;
  });
  if (invitation.inviteeEmail !== undefined) {
    ctx.hub.publish({ emails: [invitation.inviteeEmail] }, { type: 'invitations', data: { changed: true } });
  }
  return invitation;
}

/** The consultant who made an offer withdraws it while it is unused (a repeat changes nothing). */
export function withdrawOffer(ctx: ServiceContext, caller: Caller, offerId: string): StoredOffer {
  const offer = write(ctx.db, () => {
    const stored = ctx.repos.offers.get(offerId);
    const issuer = stored ? (stored.consultantId ?? load(ctx, stored.channelId)?.ownerId ?? '') : '';
    const next = planWithdrawOffer(stored, caller.uid, issuer);
    if (next) ctx.repos.offers.setStatus(offerId, 'revoked');
    return next ?? (stored as StoredOffer);
  });
  publishOffers(ctx, [offer.userId, caller.uid]);
  return offer;
}

/**
 * Its owner or an admin hands a channel to another consultant: the new owner takes it with its members, messages
 * and unaccepted invitations; the previous owner leaves it, and their active offers there are withdrawn.
 */
export function handOverChannel(
  ctx: ServiceContext,
  caller: Caller,
  input: { channelId: string; toUid: string },
): Channel {
  const { channel, previousOwnerId, readers } = write(ctx.db, () => {
    const stored = load(ctx, input.channelId);
    const target = ctx.repos.users.getDoc(input.toUid);
    const plan = planHandOver({
      channel: stored,
      caller,
      target: target ? { uid: target.uid, isOwner: target.isOwner } : null,
    });
    ctx.repos.channels.setOwner(plan.channel.id, plan.channel.ownerId);
    ctx.repos.channels.removeMember(plan.channel.id, plan.channel.ownerId);
    ctx.repos.invitations.reassignOpen(plan.channel.id, plan.channel.ownerId);
    for (const offer of ctx.repos.offers.listActiveIn(plan.channel.id)) {
      ctx.repos.offers.setStatus(offer.offeringId, 'revoked');
    }
    const after = load(ctx, plan.channel.id);
    if (!after) throw new Error('The channel just handed over cannot be read back');
    return { channel: after, previousOwnerId: plan.previousOwnerId, readers: [...(stored?.members ?? [])] };
  });
  // The previous owner reads it once more (no longer theirs); everyone in it sees the new owner.
  ctx.hub.publish({ uids: [previousOwnerId] }, { type: 'channel', data: { channel } });
  publishChannel(ctx, channel);
  // effectiveConId follows the channel's owner (core/users.ts).
  for (const uid of new Set([previousOwnerId, channel.ownerId, ...readers])) publishUser(ctx, uid);
  publishOffers(ctx, [previousOwnerId, ...readers]);
  return channel;
}
