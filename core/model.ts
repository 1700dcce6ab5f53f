// The documents of ARCHITECTURE.md ("Data"), the same shape in SQLite and Firestore. Times are epoch
// milliseconds on the wire and in the store (plain, serializable numbers).
import type { Attachment } from './attachments';
import type { DeliveryChannel } from './limits';

export type Platform = 'ios' | 'android' | 'web';

export interface NotificationSettings {
  enabled: boolean;
  delivery: { channels: DeliveryChannel[] };
}

/** users/{uid}. Role and balance fields are written by the backend only. */
export interface UserDoc {
  uid: string;
  email: string;
  isOwner: boolean;
  domainId?: string;
  nickname?: string;
  displayName?: string;
  notificationSettings: NotificationSettings;
  credits: number;
  passCount: number;
  effectiveConId: string;
}

/** users/{uid}/FCMTokens/{id} (spec §3 push token document). */
export interface PushTokenDoc {
  id: string;
  token: string;
  deviceId: string;
  createdAt: number;
  lastUsed: number;
  status: 'active';
  platform: Platform;
  userAgent: string;
}

export interface Channel {
  id: string;
  /** The channel's public handle (spec §3 "channelId"), unique, queried with limit 1. */
  channelId: string;
  ownerId: string;
  title: string;
  description: string;
  members: string[];
  createdAt: number;
  /**
   * 'private': a private consultation (core/privateChannels.ts) between its owner (the consultant) and its one
   * member, read and written by those two only. Absent on an ordinary channel.
   */
  kind?: 'private';
  /** A private consultation's two participants' public names as they were when it was opened, by uid. */
  names?: Record<string, string>;
}

export interface ChatMessage {
  id: string;
  channelId: string;
  senderId: string;
  senderName: string;
  /** '' once deleted (the text is removed from storage, not hidden); empty too when the message carries only an
   * attachment (core/messageText.ts). */
  text: string;
  createdAt: number;
  /** When its sender last edited it (the bubble says "edited"); absent when never edited. */
  editedAt?: number;
  /** Deleted by its sender or the channel's owner: a "Message deleted" tombstone. */
  deleted?: true;
  /**
   * When it last changed (an edit or a deletion); absent when never changed (its version is then createdAt).
   * Two copies of one message: the one with the later version is the newer word (core/messages.ts).
   */
  updatedAt?: number;
  /** A file sent with (or instead of) the text (core/attachments.ts); gone once the message is deleted. */
  attachment?: Attachment;
}

export type InvitationStatus = 'pending' | 'accepted' | 'activated' | 'expired';

export interface Invitation {
  id: string;
  channelId: string;
  channelTitle: string;
  consultantId: string;
  consultantName: string;
  inviteeEmail?: string;
  status: InvitationStatus;
  passes: number;
  credits: number;
  expiresAt: number;
  acceptedBy?: string;
  /** Accepting it opens a private consultation with the consultant (core/privateChannels.ts). */
  privateConsultation?: boolean;
  /** The private consultation its acceptance opened. */
  privateChannelId?: string;
}

/** spec §3 Offer. */
export interface Offer {
  offeringId: string;
  discountPercent: number;
  source: string;
  channelId: string;
  status: 'active' | 'used' | 'revoked';
  expiresAt: number;
  createdAt: number;
}

/** One channel as the person's channel list shows it (issue #6): its last message and how many are unread. */
export interface ChannelOverview {
  channel: Channel;
  lastMessage: ChatMessage | null;
  /** Messages from others after the person's read marker for this channel. */
  unread: number;
}

/** A person's mute of one channel (issue #13): until when, epoch ms (core/mutes.ts MUTED_FOREVER: until unmuted). */
export interface ChannelMute {
  channelId: string;
  mutedUntil: number;
}

/** A person in a channel, as its owner and members see them. */
export interface ChannelMember {
  uid: string;
  /** Public name (nickname, else displayName, else the email's local part). */
  name: string;
  role: 'owner' | 'member';
  /** When they joined (the owner: when the channel was created). */
  joinedAt: number;
}

/** An offer as the consultant who issued it sees it: the spec's fields plus whom it was for. */
export interface IssuedOffer extends Offer {
  userId: string;
  userName: string;
}

/** A user as the admin section lists them (ARCHITECTURE.md: admins see users and roles). */
export interface AdminUser {
  uid: string;
  email: string;
  name: string;
  isOwner: boolean;
  isAdmin: boolean;
  createdAt: number;
}

/** A channel as the admin section lists it. */
export interface AdminChannel {
  channel: Channel;
  ownerName: string;
  messageCount: number;
}

/** spec §3 Channel permissions result. */
export interface ChannelPermissions {
  permissions: { canMessage: boolean; isOwner: boolean };
}

/** The claims QuPM reads from the identity token (spec §6: admin from the isAdmin claim). */
export interface IdTokenClaims {
  isAdmin: boolean;
}

/** A serializable summary of the signed-in account. */
export interface AuthUser {
  uid: string;
  email: string;
  displayName: string | null;
}

// ---- requests: what a client asks a backend to create (the ports take them; the screens' slices carry them)

export interface NewChannel {
  /** The public handle: lowercase letters, digits and single dashes, 3-40 characters. */
  channelId: string;
  title: string;
  description: string;
}

export interface NewInvitation {
  channelId: string;
  /** Only this email may accept it; without one, anyone with the link may (once). */
  inviteeEmail?: string;
  passes: number;
  credits: number;
  expiresAt: number;
  /** Accepting it opens a private consultation between the consultant and the invitee. */
  privateConsultation?: boolean;
}

/** Opens (or finds) the private consultation with `withUid`, whom the caller meets in `viaChannelId`. */
export interface NewPrivateChannel {
  withUid: string;
  viaChannelId: string;
}

export interface NewOffer {
  channelId: string;
  /** A member of the channel. */
  userId: string;
  /** 1 to 100. */
  discountPercent: number;
  source?: string;
  expiresAt: number;
}

/** What a new account is given at sign-up: notifications on, by push and in the app. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  enabled: true,
  delivery: { channels: ['push', 'in_app'] },
};

/**
 * spec §5: token work runs only when the user document exists, `enabled` is true and the channels include push.
 * A missing or malformed `notificationSettings` is therefore read as this: not opted in to anything.
 */
export const NOT_OPTED_IN: NotificationSettings = { enabled: false, delivery: { channels: [] } };

/**
 * issue #15 part 5: one signed-in session of the account (a refresh-token family on the embedded server), as
 * Settings → Devices lists it. `browser` and `platform` are names for a person ("Chrome", "Android"), read from
 * the user agent the session was started with; `current` marks the session asking.
 */
export interface SignedInSession {
  id: string;
  browser: string;
  platform: string;
  createdAt: number;
  lastUsedAt: number;
  current: boolean;
}
