// Channel rules, for both backends (docs/decisions/channels.md): who creates, edits and looks
// after a channel, who sees its members and invitations, what counts as unread, and how the member list is
// ordered (the person's channel list: core/overview.ts). Every refusal is a QupmError with a message fit for a person.
import { ERROR_WORDS, QupmError } from './errors';
import type { Channel, ChannelMember, ChatMessage, Invitation } from './model';
import type { Caller, ChannelAccess } from './permissions';
import { canReadChannel, channelPermissions } from './permissions';
import { sameEmail } from './email';
import { assertNotPrivate } from './privateChannels';
import { compareMessages, cursorOf, isAfter } from './messages';
import type { MessageCursor } from './messages';

/** A channel's public handle (spec §3 channelId): lowercase letters and digits, in words joined by single dashes. */
export const CHANNEL_HANDLE_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const CHANNEL_MESSAGES = {
  noSuchChannel: ERROR_WORDS.noSuchChannel,
  notConsultant: 'Only consultants can create channels.',
  handleTaken: 'That channel address is taken. Choose another one.',
  notOwner: 'Only the channel owner can do this.',
  notInChannel: 'You are not a member of this channel.',
} as const;

/** Only consultants (users/{uid}.isOwner, never a claim or a payload) create channels. */
export function assertCanCreateChannel(user: { isOwner: boolean } | null): void {
  if (!user?.isOwner) throw new QupmError('PERMISSION_DENIED', CHANNEL_MESSAGES.notConsultant);
}

/** A channel's owner edits it, invites to it and issues its offers; an admin is not enough (admins only read). */
export function assertChannelOwner(channel: ChannelAccess, uid: string): void {
  // Its consultant takes part in a private consultation but does not manage it (core/privateChannels.ts).
  if (channel.ownerId === uid) assertNotPrivate(channel);
  if (!channelPermissions(channel, uid).permissions.isOwner) {
    throw new QupmError('PERMISSION_DENIED', CHANNEL_MESSAGES.notOwner);
  }
}

/** Members, the owner and admins see who is in a channel. */
export function assertCanListMembers(channel: ChannelAccess, caller: Pick<Caller, 'uid' | 'isAdmin'>): void {
  if (!canReadChannel(channel, caller))
    throw new QupmError('PERMISSION_DENIED', CHANNEL_MESSAGES.notInChannel);
}

/** A channel's invitations are for its owner and admins. */
export function assertCanListInvitations(
  channel: ChannelAccess,
  caller: Pick<Caller, 'uid' | 'isAdmin'>,
): void {
  if (!caller.isAdmin) assertChannelOwner(channel, caller.uid);
}

/** A read marker is kept by those who take part: the owner and members. */
export function assertCanMarkRead(channel: ChannelAccess, uid: string): void {
  if (!channelPermissions(channel, uid).permissions.canMessage) {
    throw new QupmError('PERMISSION_DENIED', CHANNEL_MESSAGES.notInChannel);
  }
}

/**
 * A person's read mark in a channel: they have read up to and including this message (core/messages.ts order).
 * A mark from before read marks named a message has `id: ''`: the whole millisecond was read.
 */
export type ReadMark = MessageCursor;

/** Unread: a message by someone else after the person's read mark. With no mark, every message by others counts. */
export function isUnread(
  message: Pick<ChatMessage, 'senderId' | 'createdAt' | 'id'>,
  uid: string,
  mark: ReadMark | null,
): boolean {
  if (message.senderId === uid) return false;
  if (mark === null) return true;
  return mark.id === '' ? message.createdAt > mark.createdAt : isAfter(message, mark);
}

/** The mark after reading up to `message`: it only moves forward (a late or repeated mark changes nothing). */
export function nextReadMark(
  current: ReadMark | null,
  message: Pick<ChatMessage, 'createdAt' | 'id'>,
): ReadMark {
  const proposed = cursorOf(message);
  if (current === null) return proposed;
  const behind =
    current.id === '' ? proposed.createdAt <= current.createdAt : compareMessages(proposed, current) <= 0;
  return behind ? current : proposed;
}

export const READ_MARK_MESSAGES = {
  noSuchMessage: 'There is no such message in this channel.',
} as const;

/**
 * A channel's people: the owner first (joined when the channel was created), then the members in the order they
 * joined (ties by uid). `joinedAt` answers a member's join time; `nameOf` their public name.
 */
export function channelMembers(
  channel: Pick<Channel, 'ownerId' | 'members' | 'createdAt' | 'photos'>,
  joinedAt: (uid: string) => number,
  nameOf: (uid: string) => string,
): ChannelMember[] {
  // Each person's face as the channel carries it (core/photos.ts), so the list and the bubbles agree.
  const withPhoto = (member: ChannelMember): ChannelMember => {
    const photoURL = channel.photos?.[member.uid];
    return photoURL ? { ...member, photoURL } : member;
  };
  const members = channel.members
    .filter((uid) => uid !== channel.ownerId)
    .map((uid): ChannelMember => ({ uid, name: nameOf(uid), role: 'member', joinedAt: joinedAt(uid) }))
    .sort((a, b) => a.joinedAt - b.joinedAt || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  const owner: ChannelMember = {
    uid: channel.ownerId,
    name: nameOf(channel.ownerId),
    role: 'owner',
    joinedAt: channel.createdAt,
  };
  return [owner, ...members].map(withPhoto);
}

/** A channel's invitations as its owner sees them: newest first (by creation, then id). */
export function sortInvitations<T extends Pick<Invitation, 'id'> & { createdAt: number }>(
  list: readonly T[],
): T[] {
  return [...list].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A consultant does not invite their own email: accepting it would be refused as their own invitation. */
export function assertInviteeIsSomeoneElse(
  inviteeEmail: string | undefined,
  caller: Pick<Caller, 'email'>,
): void {
  if (inviteeEmail !== undefined && sameEmail(inviteeEmail, caller.email)) {
    throw new QupmError('INVALID_ARGUMENT', 'inviteeEmail: invite someone other than yourself');
  }
}
