// Private consultations, for both backends: a channel of kind 'private' between a consultant
// (its owner) and one client (its one member), read and written by those two only. Who may open one with whom,
// the one conversation per pair, its handle and title, and the name it is listed under for each of the two.
// Why: docs/decisions/channels.md.
import { ERROR_WORDS, QupmError } from './errors';
import type { Channel } from './model';

export const PRIVATE_CHANNEL_MESSAGES = {
  noSuchChannel: ERROR_WORDS.noSuchChannel,
  notShared:
    'You can talk privately with the consultant of a channel you are in, or with a member of your own channel.',
  notWithYourself: 'You cannot start a private conversation with yourself.',
  fromPrivate: 'Start a private conversation from a channel you share, not from a private one.',
  noManagement: 'A private conversation has no offers or invitations.',
} as const;

/** The name a private conversation is listed under when the other person's name is not known. */
export const PRIVATE_CONVERSATION_FALLBACK = 'Private conversation';

/** Handles beginning with this are the backends' own, for private conversations: nobody creates a channel under one. */
export const PRIVATE_HANDLE_PREFIX = 'private-';

/** The two people of a private conversation: the consultant owns it, the client is its one member. */
export interface PrivatePair {
  ownerId: string;
  memberId: string;
}

export function isPrivateChannel(channel: Pick<Channel, 'kind'>): boolean {
  return channel.kind === 'private';
}

/** A handle a consultant may not take (core/schemas.ts channelCreateBody refuses it). */
export function isReservedHandle(handle: string): boolean {
  return handle.startsWith(PRIVATE_HANDLE_PREFIX);
}

/** The one key of a pair, whoever opens it: the two uids in order (uids hold no spaces). */
export function privatePairKey(a: string, b: string): string {
  return a < b ? `${a} ${b}` : `${b} ${a}`;
}

/** A private conversation's public handle, from its document id: never typed, never shown. */
export function privateChannelHandle(id: string): string {
  return `${PRIVATE_HANDLE_PREFIX}${id.toLowerCase()}`;
}

/**
 * Who may open a private conversation with whom, decided from `via`, a channel both are in: its consultant (owner)
 * with one of its members, or a member with its consultant. Answers the pair; refuses anything else with words
 * for a person.
 */
export function decidePrivatePair(
  callerUid: string,
  withUid: string,
  via: Pick<Channel, 'ownerId' | 'members' | 'kind'> | null,
): PrivatePair {
  if (withUid === callerUid) {
    throw new QupmError('INVALID_ARGUMENT', PRIVATE_CHANNEL_MESSAGES.notWithYourself);
  }
  if (!via) throw new QupmError('NOT_FOUND', PRIVATE_CHANNEL_MESSAGES.noSuchChannel);
  if (isPrivateChannel(via)) throw new QupmError('FAILED_PRECONDITION', PRIVATE_CHANNEL_MESSAGES.fromPrivate);
  if (callerUid !== '' && via.ownerId === callerUid && via.members.includes(withUid)) {
    return { ownerId: callerUid, memberId: withUid };
  }
  if (callerUid !== '' && via.members.includes(callerUid) && via.ownerId === withUid && withUid !== '') {
    return { ownerId: withUid, memberId: callerUid };
  }
  throw new QupmError('PERMISSION_DENIED', PRIVATE_CHANNEL_MESSAGES.notShared);
}

/** The pair an accepted "private consultation" invitation opens: its consultant and whoever accepted it. */
export function invitationPrivatePair(
  invitation: { consultantId: string },
  acceptorUid: string,
): PrivatePair {
  if (invitation.consultantId === acceptorUid) {
    throw new QupmError('INVALID_ARGUMENT', PRIVATE_CHANNEL_MESSAGES.notWithYourself);
  }
  return { ownerId: invitation.consultantId, memberId: acceptorUid };
}

/** The title stored with a private conversation (what admins' listings show): "Dana and Morgan". */
export function privateChannelTitle(ownerName: string, memberName: string): string {
  return `${ownerName || 'Consultant'} and ${memberName || 'client'}`;
}

/** A new private conversation's document (its members: the client only; the consultant is its owner). */
export function newPrivateChannel(input: {
  id: string;
  pair: PrivatePair;
  names: Record<string, string>;
  createdAt: number;
}): Channel {
  const { id, pair, names, createdAt } = input;
  return {
    id,
    channelId: privateChannelHandle(id),
    ownerId: pair.ownerId,
    title: privateChannelTitle(names[pair.ownerId] ?? '', names[pair.memberId] ?? ''),
    description: '',
    members: [pair.memberId],
    createdAt,
    kind: 'private',
    names: { [pair.ownerId]: names[pair.ownerId] ?? '', [pair.memberId]: names[pair.memberId] ?? '' },
  };
}

/** The other participant of a private conversation, seen by `viewerUid` ('' when the viewer is not in it). */
export function otherParticipant(channel: Pick<Channel, 'ownerId' | 'members'>, viewerUid: string): string {
  if (channel.ownerId === viewerUid) return channel.members[0] ?? '';
  if (channel.members.includes(viewerUid)) return channel.ownerId;
  return '';
}

/**
 * The name a channel is listed under for `viewerUid`: its title, or for a private conversation the other
 * person's name (an admin, who is neither, sees its stored title: "Dana and Morgan").
 */
export function channelDisplayName(
  channel: Pick<Channel, 'ownerId' | 'members' | 'title' | 'kind' | 'names'>,
  viewerUid: string,
): string {
  if (!isPrivateChannel(channel)) return channel.title;
  const other = otherParticipant(channel, viewerUid);
  if (other === '') return channel.title || PRIVATE_CONVERSATION_FALLBACK;
  return channel.names?.[other] || PRIVATE_CONVERSATION_FALLBACK;
}

/**
 * A private conversation after one of its two people took a new public name: the stored names and title follow,
 * so both people's lists (and an admin's) show the name they go by now. Null when nothing changes (not one of the
 * two, or the same name), so a backend writes and publishes only what changed.
 */
export function privateChannelAfterRename(
  channel: Pick<Channel, 'ownerId' | 'members' | 'kind' | 'names'>,
  uid: string,
  name: string,
): { title: string; names: Record<string, string> } | null {
  if (!isPrivateChannel(channel) || otherParticipant(channel, uid) === '') return null;
  const stored = channel.names ?? {};
  if (stored[uid] === name) return null;
  const names = { ...stored, [uid]: name };
  const memberId = channel.members[0] ?? '';
  return { title: privateChannelTitle(names[channel.ownerId] ?? '', names[memberId] ?? ''), names };
}

/** Offers, invitations and edits are for ordinary channels: a private conversation refuses them. */
export function assertNotPrivate(channel: Pick<Channel, 'kind'>): void {
  if (isPrivateChannel(channel)) {
    throw new QupmError('FAILED_PRECONDITION', PRIVATE_CHANNEL_MESSAGES.noManagement);
  }
}
