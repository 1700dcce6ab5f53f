// The documents of ARCHITECTURE.md ("Data"), the same shape in SQLite and Firestore. Times are epoch
// milliseconds on the wire and in the store (plain, serializable numbers).
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
}

export interface ChatMessage {
  id: string;
  channelId: string;
  senderId: string;
  senderName: string;
  text: string;
  createdAt: number;
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

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  enabled: true,
  delivery: { channels: ['push', 'in_app'] },
};
