// Firestore documents (as the Admin SDK reads them) to the plain documents of core/model.ts and back: Timestamps
// become epoch milliseconds, missing fields get ARCHITECTURE.md's defaults, nothing else is copied.
import type {
  Channel,
  ChatMessage,
  Invitation,
  InvitationStatus,
  NotificationSettings,
  UserDoc,
} from '../../core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../core/model';
import { DELIVERY_CHANNELS } from '../../core/limits';
import type { DeliveryChannel } from '../../core/limits';
import type { StoredOffer } from '../../core/offers';

export type Data = Record<string, unknown>;

const isRecord = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const optionalText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;

/** Epoch ms of a Timestamp (anything with toMillis), a Date, or a number. */
export function toMillis(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
  if (value instanceof Date) return value.getTime();
  if (isRecord(value) && typeof value.toMillis === 'function') {
    const ms: unknown = (value.toMillis as () => unknown).call(value);
    return typeof ms === 'number' && Number.isFinite(ms) ? ms : 0;
  }
  return 0;
}

function notificationSettings(value: unknown): NotificationSettings {
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

export function toUserDoc(uid: string, data: Data): UserDoc {
  const user: UserDoc = {
    uid,
    email: text(data.email),
    isOwner: data.isOwner === true,
    notificationSettings: notificationSettings(data.notificationSettings),
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

/** users/{uid} as stored: the UserDoc without its key. */
export function userData(user: UserDoc): Data {
  const { uid: _uid, ...data } = user;
  return data;
}

export function toChannel(id: string, data: Data): Channel {
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

export function toMessage(channelId: string, id: string, data: Data): ChatMessage {
  return {
    id,
    channelId,
    senderId: text(data.senderId),
    senderName: text(data.senderName),
    text: text(data.text),
    createdAt: toMillis(data.createdAt),
  };
}

const INVITATION_STATUSES: readonly InvitationStatus[] = ['pending', 'accepted', 'activated', 'expired'];

/** An invitation with the names it is shown with (its channel's title, its consultant's public name). */
export function toInvitation(
  id: string,
  data: Data,
  names: { channelTitle: string; consultantName: string },
) {
  const invitation: Invitation = {
    id,
    channelId: text(data.channelId),
    channelTitle: names.channelTitle,
    consultantId: text(data.consultantId),
    consultantName: names.consultantName,
    status: INVITATION_STATUSES.find((s) => s === data.status) ?? 'pending',
    passes: count(data.passes),
    credits: count(data.credits),
    expiresAt: toMillis(data.expiresAt),
  };
  const inviteeEmail = optionalText(data.inviteeEmail);
  const acceptedBy = optionalText(data.acceptedBy);
  if (inviteeEmail !== undefined) invitation.inviteeEmail = inviteeEmail;
  if (acceptedBy !== undefined) invitation.acceptedBy = acceptedBy;
  return invitation;
}

const OFFER_STATUSES: readonly StoredOffer['status'][] = ['active', 'used', 'revoked'];

export function toStoredOffer(id: string, data: Data): StoredOffer {
  return {
    offeringId: text(data.offeringId, id),
    userId: text(data.userId),
    discountPercent: count(data.discountPercent),
    source: text(data.source),
    channelId: text(data.channelId),
    status: OFFER_STATUSES.find((s) => s === data.status) ?? 'revoked',
    expiresAt: toMillis(data.expiresAt),
    createdAt: toMillis(data.createdAt),
  };
}
