// SDK documents and callable answers become the plain documents of core/model.ts: Timestamps become epoch
// milliseconds, missing fields get the defaults of ARCHITECTURE.md, and nothing else is copied.
import { BackendError } from '../ports';
import type {
  AdminChannel,
  AdminUser,
  AuthUser,
  Channel,
  ChannelMember,
  ChannelOverview,
  IssuedOffer,
  PendingCountsDoc,
  ChannelPermissions,
  ChatMessage,
  Invitation,
  InvitationStatus,
  NotificationSettings,
  Offer,
  Platform,
  PushTokenDoc,
  UserDoc,
} from '@core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import { DELIVERY_CHANNELS, PLATFORMS } from '@core/limits';
import type { DeliveryChannel } from '@core/limits';
import { UNREADABLE_ANSWER_MESSAGE } from './errors';

export type DocumentData = Record<string, unknown>;

function isRecord(value: unknown): value is DocumentData {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const optionalText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;

/**
 * Epoch milliseconds from what a time field can hold: a Firestore Timestamp, a Timestamp serialised by the
 * Admin SDK into a callable answer (`{_seconds, _nanoseconds}`), a Date, an ISO string or a number.
 */
export function toMillis(value: unknown, fallback = 0): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : fallback;
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.getTime() : fallback;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isFinite(parsed) ? parsed : fallback;
  }
  if (isRecord(value)) {
    const seconds = value.seconds ?? value._seconds;
    const nanos = value.nanoseconds ?? value._nanoseconds ?? 0;
    if (typeof seconds === 'number' && typeof nanos === 'number')
      return seconds * 1000 + Math.floor(nanos / 1e6);
    if (typeof value.toMillis === 'function')
      return toMillis((value.toMillis as () => unknown).call(value), fallback);
  }
  return fallback;
}

export function toAuthUser(user: {
  uid: string;
  email: string | null;
  displayName: string | null;
}): AuthUser {
  return { uid: user.uid, email: user.email ?? '', displayName: user.displayName ?? null };
}

export function toNotificationSettings(value: unknown): NotificationSettings {
  const settings = isRecord(value) ? value : {};
  const delivery = isRecord(settings.delivery) ? settings.delivery : {};
  const channels = Array.isArray(delivery.channels)
    ? [...new Set(delivery.channels.filter((c): c is DeliveryChannel => DELIVERY_CHANNELS.includes(c)))]
    : [...DEFAULT_NOTIFICATION_SETTINGS.delivery.channels];
  return {
    enabled: typeof settings.enabled === 'boolean' ? settings.enabled : DEFAULT_NOTIFICATION_SETTINGS.enabled,
    delivery: { channels },
  };
}

/** users/{uid}; `email` falls back to the signed-in account's when the document does not carry one. */
export function toUserDoc(uid: string, data: DocumentData, fallbackEmail = ''): UserDoc {
  const user: UserDoc = {
    uid,
    email: text(data.email, fallbackEmail),
    isOwner: data.isOwner === true,
    notificationSettings: toNotificationSettings(data.notificationSettings),
    credits: count(data.credits),
    passCount: count(data.passCount),
    effectiveConId: text(data.effectiveConId),
  };
  const domainId = optionalText(data.domainId);
  const nickname = optionalText(data.nickname);
  const displayName = optionalText(data.displayName);
  if (domainId !== undefined) user.domainId = domainId;
  if (nickname !== undefined) user.nickname = nickname;
  if (displayName !== undefined) user.displayName = displayName;
  return user;
}

export function toChannel(id: string, data: DocumentData): Channel {
  return {
    id,
    channelId: text(data.channelId),
    ownerId: text(data.ownerId),
    title: text(data.title),
    description: text(data.description),
    members: Array.isArray(data.members)
      ? data.members.filter((m): m is string => typeof m === 'string')
      : [],
    createdAt: toMillis(data.createdAt),
  };
}

export function toChatMessage(channelId: string, id: string, data: DocumentData): ChatMessage {
  return {
    id,
    channelId,
    senderId: text(data.senderId),
    senderName: text(data.senderName),
    text: text(data.text),
    createdAt: toMillis(data.createdAt),
  };
}

export function toPushTokenDoc(id: string, data: DocumentData): PushTokenDoc {
  const platform = PLATFORMS.find((p) => p === data.platform) ?? 'web';
  return {
    id,
    token: text(data.token),
    deviceId: text(data.deviceId),
    createdAt: toMillis(data.createdAt),
    lastUsed: toMillis(data.lastUsed),
    status: 'active',
    platform: platform satisfies Platform,
    userAgent: text(data.userAgent),
  };
}

function unreadable(): BackendError {
  return new BackendError('INTERNAL', UNREADABLE_ANSWER_MESSAGE);
}

const INVITATION_STATUSES: readonly InvitationStatus[] = ['pending', 'accepted', 'activated', 'expired'];

/** An invitation as a callable answers it. */
export function toInvitation(value: unknown): Invitation {
  if (!isRecord(value) || typeof value.id !== 'string') throw unreadable();
  const invitation: Invitation = {
    id: value.id,
    channelId: text(value.channelId),
    channelTitle: text(value.channelTitle),
    consultantId: text(value.consultantId),
    consultantName: text(value.consultantName),
    status: INVITATION_STATUSES.find((s) => s === value.status) ?? 'pending',
    passes: count(value.passes),
    credits: count(value.credits),
    expiresAt: toMillis(value.expiresAt),
  };
  const inviteeEmail = optionalText(value.inviteeEmail);
  const acceptedBy = optionalText(value.acceptedBy);
  if (inviteeEmail !== undefined) invitation.inviteeEmail = inviteeEmail;
  if (acceptedBy !== undefined) invitation.acceptedBy = acceptedBy;
  return invitation;
}

const OFFER_STATUSES: readonly Offer['status'][] = ['active', 'used', 'revoked'];

export function toOffer(value: unknown): Offer {
  if (!isRecord(value)) throw unreadable();
  return {
    offeringId: text(value.offeringId),
    discountPercent: count(value.discountPercent),
    source: text(value.source),
    channelId: text(value.channelId),
    status: OFFER_STATUSES.find((s) => s === value.status) ?? 'active',
    expiresAt: toMillis(value.expiresAt),
    createdAt: toMillis(value.createdAt),
  };
}

export function toOffers(value: unknown): { offers: Offer[] } {
  if (!isRecord(value) || !Array.isArray(value.offers)) throw unreadable();
  return { offers: value.offers.map(toOffer) };
}

export function toPermissions(value: unknown): ChannelPermissions {
  const permissions = isRecord(value) ? value.permissions : undefined;
  if (!isRecord(permissions)) throw unreadable();
  return {
    permissions: { canMessage: permissions.canMessage === true, isOwner: permissions.isOwner === true },
  };
}

export function toActivation(value: unknown): { invitation: Invitation; user: UserDoc } {
  if (!isRecord(value) || !isRecord(value.user) || typeof value.user.uid !== 'string') throw unreadable();
  return { invitation: toInvitation(value.invitation), user: toUserDoc(value.user.uid, value.user) };
}

/** `data[key]` as a list, each item read by `read`; anything else is an unreadable answer. */
export function listOf<T>(data: unknown, key: string, read: (item: unknown) => T): T[] {
  if (!isRecord(data) || !Array.isArray(data[key])) throw unreadable();
  return (data[key] as unknown[]).map(read);
}

/** A channel as a callable answers it (it carries its id). */
export function toChannelAnswer(value: unknown): Channel {
  if (!isRecord(value) || typeof value.id !== 'string') throw unreadable();
  return toChannel(value.id, value);
}

function toMessageAnswer(value: unknown): ChatMessage {
  if (!isRecord(value) || typeof value.id !== 'string') throw unreadable();
  return toChatMessage(text(value.channelId), value.id, value);
}

export function toChannelOverview(value: unknown): ChannelOverview {
  if (!isRecord(value)) throw unreadable();
  return {
    channel: toChannelAnswer(value.channel),
    lastMessage:
      value.lastMessage === null || value.lastMessage === undefined
        ? null
        : toMessageAnswer(value.lastMessage),
    unread: count(value.unread),
  };
}

export function toChannelMember(value: unknown): ChannelMember {
  if (!isRecord(value) || typeof value.uid !== 'string') throw unreadable();
  return {
    uid: value.uid,
    name: text(value.name),
    role: value.role === 'owner' ? 'owner' : 'member',
    joinedAt: toMillis(value.joinedAt),
  };
}

export function toIssuedOffer(value: unknown): IssuedOffer {
  if (!isRecord(value) || typeof value.userId !== 'string') throw unreadable();
  return { ...toOffer(value), userId: value.userId, userName: text(value.userName) };
}

export function toAdminUser(value: unknown): AdminUser {
  if (!isRecord(value) || typeof value.uid !== 'string') throw unreadable();
  return {
    uid: value.uid,
    email: text(value.email),
    name: text(value.name),
    isOwner: value.isOwner === true,
    isAdmin: value.isAdmin === true,
    createdAt: toMillis(value.createdAt),
  };
}

export function toAdminChannel(value: unknown): AdminChannel {
  if (!isRecord(value)) throw unreadable();
  return {
    channel: toChannelAnswer(value.channel),
    ownerName: text(value.ownerName),
    messageCount: count(value.messageCount),
  };
}

/** users/{uid}/pending documents (id = source, field count) as counts; odd values are left out. */
export function toPendingCounts(docs: ReadonlyArray<{ id: string; data: DocumentData }>): PendingCountsDoc {
  const counts: PendingCountsDoc = {};
  for (const { id, data } of docs) {
    const value = data.count;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) counts[id] = value;
  }
  return counts;
}
