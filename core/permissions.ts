// Who may do what, decided from stored documents only (ARCHITECTURE.md "Meanings the spec leaves open"): a
// channel's owner comes from the stored channel, never from a payload; `canMessage` = owner or member. A private
// consultation (kind 'private', core/privateChannels.ts) is owned by nobody in the sense of managing it, and its
// messages are read by its two participants only: admins see that it exists, not what is said.
import type { Channel, ChannelPermissions } from './model';

/** The parts of a channel that decide access. */
export type ChannelAccess = Pick<Channel, 'ownerId' | 'members' | 'kind'>;

/** The signed-in caller as the backend knows it (uid and the isAdmin claim of spec §6). */
export interface Caller {
  uid: string;
  email: string;
  isAdmin: boolean;
  /**
   * false when the identity provider says the email is not confirmed (Firebase's email_verified claim): an
   * invitation bound to an email is not theirs until it is. Absent where the backend does not verify emails yet
   * (the embedded server).
   */
  emailVerified?: boolean;
}

/** spec §7 check_channel_permissions: isOwner from the stored owner, canMessage = owner or member. */
export function channelPermissions(channel: ChannelAccess, uid: string): ChannelPermissions {
  // An empty uid is nobody: it must never match a channel whose owner field is empty too.
  const owns = uid !== '' && channel.ownerId === uid;
  const isMember = uid !== '' && channel.members.includes(uid);
  // A private consultation has no "Manage": its consultant takes part in it like its member does.
  const isOwner = owns && channel.kind !== 'private';
  return { permissions: { canMessage: owns || isMember, isOwner } };
}

/** A channel (the document: that it exists, who is in it) is readable by its owner, its members and admins. */
export function canReadChannel(channel: ChannelAccess, caller: Pick<Caller, 'uid' | 'isAdmin'>): boolean {
  return caller.isAdmin || channelPermissions(channel, caller.uid).permissions.canMessage;
}

/**
 * A channel's messages are readable by its owner and members, and by admins unless it is a private consultation,
 * which only its two participants read.
 */
export function canReadMessages(channel: ChannelAccess, caller: Pick<Caller, 'uid' | 'isAdmin'>): boolean {
  if (channelPermissions(channel, caller.uid).permissions.canMessage) return true;
  return caller.isAdmin && channel.kind !== 'private';
}

/** Sending a message needs canMessage; being an admin is not enough. */
export function canMessage(channel: ChannelAccess, uid: string): boolean {
  return channelPermissions(channel, uid).permissions.canMessage;
}

/** users/{uid} is readable by its owner or an admin. */
export function canReadUser(caller: Pick<Caller, 'uid' | 'isAdmin'>, uid: string): boolean {
  return caller.uid === uid || caller.isAdmin;
}

/** users/{uid} (its profile fields only) and its token documents are written by its owner alone. */
export function canWriteUser(caller: Pick<Caller, 'uid'>, uid: string): boolean {
  return caller.uid === uid;
}

/** ARCHITECTURE.md: clear_pending_notifications(userId) only for the caller's own id, or an admin. */
export function canClearPending(caller: Pick<Caller, 'uid' | 'isAdmin'>, userId: string): boolean {
  return caller.uid === userId || caller.isAdmin;
}
