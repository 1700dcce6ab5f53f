// A consultant's housekeeping (ARCHITECTURE.md "consultant"; docs/decisions/practice.md): archive or delete a
// channel, remove a member, revoke an invitation, withdraw an offer (core/offers.ts planWithdrawOffer), hand a
// channel to another consultant (an admin may too). What each does is said before it is done (removalNotice);
// each is decided here and applied by both backends in one transaction.
//
// - Archive: the channel becomes read-only; its messages, members and invitations stay; it can be reopened.
// - Delete: the channel, its messages and their files, its members' places and its invitations go for everyone;
//   its offers are withdrawn. Bookings are between two people, not in a channel: they stay.
// - Remove a member: they leave the channel; what they wrote stays, under their name; their active offers of the
//   channel are withdrawn.
// - Revoke an invitation: only one nobody has accepted; its link then says it was withdrawn.
// - Hand over: the new consultant owns the channel, with its members, messages and waiting invitations; the
//   previous one leaves it, and their active offers there are withdrawn (they were discounts on their services).
import { assertChannelOwner, CHANNEL_MESSAGES } from './channels';
import { QupmError } from './errors';
import { effectiveInvitationStatus } from './invitations';
import type { Channel, Invitation } from './model';
import { isPrivateChannel } from './privateChannels';

export const HOUSEKEEPING_MESSAGES = {
  archived: 'This channel is archived: its messages can be read, and nothing new can be sent.',
  /** A private consultation whose consultant deleted their account (core/leaving.ts privateChannelAfterOwnerLeft). */
  consultantLeft:
    'Your consultant has left QuPM: this conversation can be read, and nothing new can be sent.',
  notArchived: 'This channel is not archived.',
  notMember: 'This person is not a member of the channel.',
  removeOwner: 'The channel’s owner cannot be removed from it. Hand it over or delete it instead.',
  privateMembers: 'A private conversation is between two people: nobody can be removed from it.',
  privateHandOver: 'A private conversation stays with its two people: it cannot be handed over.',
  onlyOwnerOrAdmin: 'Only the channel’s owner or an admin can hand it over.',
  noSuchConsultant: 'There is no such consultant.',
  notConsultant: 'A channel can only be handed to a consultant.',
  alreadyOwner: 'This consultant already owns the channel.',
  noSuchInvitation: 'There is no such invitation.',
  invitationUsed: 'This invitation was already accepted: remove the member instead.',
  notYourInvitation: 'Only the channel’s owner can revoke its invitations.',
  notDeletable: 'Only the channel’s owner can delete it.',
} as const;

/** New messages go only to a channel that is not archived. */
export function assertOpenForMessages(channel: Pick<Channel, 'archivedAt'>): void {
  if (channel.archivedAt !== undefined) {
    throw new QupmError('FAILED_PRECONDITION', HOUSEKEEPING_MESSAGES.archived, 'channel-archived');
  }
}

function existing(channel: Channel | null): Channel {
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  return channel;
}

/** Its owner archives a channel (a repeat changes nothing). */
export function planArchive(stored: Channel | null, callerUid: string, now: number): Channel {
  const channel = existing(stored);
  assertChannelOwner(channel, callerUid);
  return channel.archivedAt !== undefined ? channel : { ...channel, archivedAt: now };
}

/** Its owner opens an archived channel again (a repeat changes nothing). */
export function planUnarchive(stored: Channel | null, callerUid: string): Channel {
  const channel = existing(stored);
  assertChannelOwner(channel, callerUid);
  const { archivedAt: _archivedAt, ...open } = channel;
  return open;
}

/** Its owner deletes a channel; the consultant of a private conversation may delete it too. */
export function assertCanDeleteChannel(stored: Channel | null, callerUid: string): Channel {
  const channel = existing(stored);
  if (callerUid === '' || channel.ownerId !== callerUid) {
    throw new QupmError('PERMISSION_DENIED', HOUSEKEEPING_MESSAGES.notDeletable);
  }
  return channel;
}

/** What a channel holds, counted for the words said before archiving or deleting it. */
export interface ChannelContents {
  title: string;
  messages: number;
  files: number;
  members: number;
  pendingInvitations: number;
  activeOffers: number;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** The words said first: what archiving and what deleting the channel does to what it holds. */
export function removalNotice(contents: ChannelContents): { archive: string; delete: string } {
  const title = `“${contents.title}”`;
  return {
    archive:
      `Archiving ${title} keeps its ${plural(contents.messages, 'message', 'messages')} and ` +
      `${plural(contents.files, 'file', 'files')} readable by its ${plural(contents.members, 'member', 'members')}; ` +
      'nobody can send anything new until you reopen it.',
    delete:
      `Deleting ${title} removes its ${plural(contents.messages, 'message', 'messages')} and ` +
      `${plural(contents.files, 'file', 'files')} for everyone, for good. Its ` +
      `${plural(contents.members, 'member loses', 'members lose')} the channel, ` +
      `${plural(contents.pendingInvitations, 'waiting invitation stops', 'waiting invitations stop')} working and ` +
      `${plural(contents.activeOffers, 'active offer is', 'active offers are')} withdrawn. Sessions already booked stay booked.`,
  };
}

/** Its owner removes a member from a channel; the channel as it is afterwards. */
export function planRemoveMember(stored: Channel | null, callerUid: string, memberUid: string): Channel {
  const channel = existing(stored);
  if (isPrivateChannel(channel) && channel.ownerId === callerUid) {
    throw new QupmError('FAILED_PRECONDITION', HOUSEKEEPING_MESSAGES.privateMembers);
  }
  assertChannelOwner(channel, callerUid);
  if (memberUid === channel.ownerId)
    throw new QupmError('FAILED_PRECONDITION', HOUSEKEEPING_MESSAGES.removeOwner);
  if (!channel.members.includes(memberUid)) {
    throw new QupmError('NOT_FOUND', HOUSEKEEPING_MESSAGES.notMember);
  }
  return { ...channel, members: channel.members.filter((uid) => uid !== memberUid) };
}

/**
 * Its channel's owner revokes an invitation nobody has accepted (expired ones too); a repeat changes nothing
 * (null). An accepted one is refused: its person is in the channel already.
 */
export function planRevokeInvitation(
  invitation: Invitation | null,
  channel: Channel | null,
  callerUid: string,
  now: number,
): Invitation | null {
  if (!invitation) throw new QupmError('NOT_FOUND', HOUSEKEEPING_MESSAGES.noSuchInvitation);
  if (!channel || channel.ownerId !== callerUid) {
    throw new QupmError('PERMISSION_DENIED', HOUSEKEEPING_MESSAGES.notYourInvitation);
  }
  if (invitation.status === 'revoked') return null;
  const status = effectiveInvitationStatus(invitation, now);
  if (status === 'accepted' || status === 'activated') {
    throw new QupmError('FAILED_PRECONDITION', HOUSEKEEPING_MESSAGES.invitationUsed, 'invitation-used');
  }
  return { ...invitation, status: 'revoked' };
}

/**
 * A channel handed to another consultant by its owner or an admin: the new owner in place (taken out of the
 * members if they were one); the previous owner is no longer in it.
 */
export function planHandOver(input: {
  channel: Channel | null;
  caller: { uid: string; isAdmin: boolean };
  target: { uid: string; isOwner: boolean } | null;
}): { channel: Channel; previousOwnerId: string } {
  const channel = existing(input.channel);
  const { caller, target } = input;
  if (isPrivateChannel(channel))
    throw new QupmError('FAILED_PRECONDITION', HOUSEKEEPING_MESSAGES.privateHandOver);
  if (!caller.isAdmin && (caller.uid === '' || channel.ownerId !== caller.uid)) {
    throw new QupmError('PERMISSION_DENIED', HOUSEKEEPING_MESSAGES.onlyOwnerOrAdmin);
  }
  if (!target) throw new QupmError('NOT_FOUND', HOUSEKEEPING_MESSAGES.noSuchConsultant);
  if (!target.isOwner) throw new QupmError('FAILED_PRECONDITION', HOUSEKEEPING_MESSAGES.notConsultant);
  if (target.uid === channel.ownerId)
    throw new QupmError('FAILED_PRECONDITION', HOUSEKEEPING_MESSAGES.alreadyOwner);
  return {
    channel: {
      ...channel,
      ownerId: target.uid,
      members: channel.members.filter((uid) => uid !== target.uid),
    },
    previousOwnerId: channel.ownerId,
  };
}
