// Firestore documents as both Firebase sides read them (the web SDK in src/backend/firebase, the Admin SDK in
// functions/): plain documents of core/model.ts with Timestamps as epoch milliseconds, missing fields given the
// defaults of ARCHITECTURE.md, and nothing else copied. Written once so the two cannot read a document differently;
// the web adapter reads callable answers, which functions/ built from these documents, with the same readers.
import type {
  Availability,
  Balance,
  Booking,
  BookingClosedReason,
  BookingState,
  Channel,
  ChatMessage,
  HoursInterval,
  Invitation,
  InvitationStatus,
  LedgerEntry,
  LedgerKind,
  NotificationSettings,
  Offer,
  PaymentStatus,
  PushTokenDoc,
  Service,
  UserDoc,
} from './model';
import { toMessageCard } from './cards';
import { LEDGER_KINDS } from './ledger';
import { NOT_OPTED_IN } from './model';
import { attachmentsOf } from './attachments';
import type { Attachment } from './attachments';
import type { StoredOffer } from './offers';
import type { PendingCounts } from './pending';
import { isMuteEnd } from './mutes';
import { toReactions } from './reactions';
import { toReplyQuote } from './replies';
import type { ChannelMutes } from './mutes';
import { isPhotoURL, toPhotoMap } from './photos';
import { DELIVERY_CHANNELS, PLATFORMS } from './limits';
import type { DeliveryChannel } from './limits';

export type DocumentData = Record<string, unknown>;

export function isRecord(value: unknown): value is DocumentData {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
export const optionalText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
export const count = (value: unknown): number =>
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

/**
 * notificationSettings as stored. Missing or malformed reads as not opted in (spec §5: token work and pushes need
 * `enabled` true and `push` among the channels), never as the defaults a new account is given; an unknown or
 * repeated channel is dropped.
 */
export function toNotificationSettings(value: unknown): NotificationSettings {
  if (!isRecord(value) || typeof value.enabled !== 'boolean') return NOT_OPTED_IN;
  const delivery = isRecord(value.delivery) ? value.delivery : {};
  if (!Array.isArray(delivery.channels)) return NOT_OPTED_IN;
  const channels = [
    ...new Set(delivery.channels.filter((c): c is DeliveryChannel => DELIVERY_CHANNELS.includes(c))),
  ];
  return { enabled: value.enabled, delivery: { channels } };
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
  if (isPhotoURL(data.photoURL)) user.photoURL = data.photoURL;
  return user;
}

export function toChannel(id: string, data: DocumentData): Channel {
  const channel: Channel = {
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
  // A private consultation (core/privateChannels.ts): any other kind reads as an ordinary channel.
  if (data.kind === 'private') {
    channel.kind = 'private';
    const names: Record<string, string> = {};
    if (typeof data.names === 'object' && data.names !== null && !Array.isArray(data.names)) {
      for (const [uid, name] of Object.entries(data.names as Record<string, unknown>)) {
        if (typeof name === 'string') names[uid] = name;
      }
    }
    channel.names = names;
  }
  if (data.archivedAt !== undefined && data.archivedAt !== null)
    channel.archivedAt = toMillis(data.archivedAt);
  const photos = toPhotoMap(data.photos);
  if (Object.keys(photos).length > 0) channel.photos = photos;
  return channel;
}

export function toChatMessage(channelId: string, id: string, data: DocumentData): ChatMessage {
  return {
    id,
    channelId,
    senderId: text(data.senderId),
    senderName: text(data.senderName),
    text: text(data.text),
    createdAt: toMillis(data.createdAt),
    ...messageChanges(data),
    ...withAttachments(data),
    ...withCard(data.card),
    ...withReply(data.replyTo, data.reactions),
  };
}

/** A message document's quote and reactions, when it holds valid ones (clients write both; read defensively). */
function withReply(replyTo: unknown, reactions: unknown): Pick<ChatMessage, 'replyTo' | 'reactions'> {
  const quote = toReplyQuote(replyTo);
  const chosen = toReactions(reactions);
  return { ...(quote ? { replyTo: quote } : {}), ...(chosen ? { reactions: chosen } : {}) };
}

/** A message document's card (written by functions/ only; read defensively all the same). */
function withCard(value: unknown): Pick<ChatMessage, 'card'> {
  const card = value === undefined || value === null ? null : toMessageCard(value);
  return card ? { card } : {};
}

/** A message's edit and deletion fields, only those it has: an unchanged message has none. */
function messageChanges(data: DocumentData): Pick<ChatMessage, 'editedAt' | 'deleted' | 'updatedAt'> {
  const changes: Pick<ChatMessage, 'editedAt' | 'deleted' | 'updatedAt'> = {};
  if (data.editedAt !== undefined && data.editedAt !== null) changes.editedAt = toMillis(data.editedAt);
  if (data.deleted === true) changes.deleted = true;
  if (data.updatedAt !== undefined && data.updatedAt !== null) changes.updatedAt = toMillis(data.updatedAt);
  return changes;
}

/**
 * A message document's files, when it holds a valid list (clients write it; read defensively): `attachments`, or
 * the single `attachment` of a message from before several files.
 */
function withAttachments(data: DocumentData): { attachments?: Attachment[] } {
  const attachments = attachmentsOf(data);
  return attachments.length > 0 ? { attachments } : {};
}

export const INVITATION_STATUSES: readonly InvitationStatus[] = [
  'pending',
  'accepted',
  'activated',
  'expired',
  'revoked',
];
export const OFFER_STATUSES: readonly Offer['status'][] = ['active', 'used', 'revoked'];

/**
 * invitations/{id}, with the names it is shown with (its channel's title, its consultant's public name), which
 * functions/ reads beside it and a callable answer carries. A status of another value reads as 'pending'.
 */
export function toInvitation(
  id: string,
  data: DocumentData,
  names: { channelTitle: string; consultantName: string },
): Invitation {
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
  if (data.privateConsultation === true) invitation.privateConsultation = true;
  const privateChannelId = optionalText(data.privateChannelId);
  if (privateChannelId !== undefined) invitation.privateChannelId = privateChannelId;
  return invitation;
}

/**
 * offers/{id}. A status of another value reads as 'revoked': an offer grants its discount only when its document
 * says it is active (docs/decisions/channels.md). `offeringId` falls back to the document's id.
 */
export function toStoredOffer(id: string, data: DocumentData): StoredOffer {
  const serviceId = optionalText(data.serviceId);
  const consultantId = optionalText(data.consultantId);
  return {
    ...(serviceId !== undefined ? { serviceId } : {}),
    ...(consultantId !== undefined ? { consultantId } : {}),
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

/** users/{uid}/pending documents (id = source, field count) as counts; anything but a positive whole count is left out. */
export function toPendingCounts(docs: ReadonlyArray<{ id: string; data: DocumentData }>): PendingCounts {
  const counts: Record<string, number> = {};
  for (const { id, data } of docs) {
    const value = data.count;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) counts[id] = value;
  }
  return counts;
}

/**
 * users/{uid}/channelPrefs: the person's mutes by channel id. A document whose mutedUntil is not a
 * mute's end (core/mutes.ts isMuteEnd) mutes nothing and is left out.
 */
export function toChannelMutes(docs: ReadonlyArray<{ id: string; data: DocumentData }>): ChannelMutes {
  const mutes: Record<string, number> = {};
  for (const { id, data } of docs) {
    if (isMuteEnd(data.mutedUntil)) mutes[id] = data.mutedUntil;
  }
  return mutes;
}

/** users/{uid}/FCMTokens/{id} (spec §3 push token document); an unknown platform reads as 'web'. */
export function toPushTokenDoc(id: string, data: DocumentData): PushTokenDoc {
  const platform = PLATFORMS.find((p) => p === data.platform) ?? 'web';
  return {
    id,
    token: text(data.token),
    deviceId: text(data.deviceId),
    createdAt: toMillis(data.createdAt),
    lastUsed: toMillis(data.lastUsed),
    status: 'active',
    platform,
    userAgent: text(data.userAgent),
  };
}

// ---- the consulting practice ----------------------------------------------------------------------------------

const wholeCount = (value: unknown): number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
const signedWhole = (value: unknown): number =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : 0;

/** services/{id}; a status of another value reads as 'archived' (never bookable by a misread). */
export function toService(id: string, data: DocumentData): Service {
  return {
    id,
    consultantId: text(data.consultantId),
    title: text(data.title),
    description: text(data.description),
    durationMinutes: wholeCount(data.durationMinutes),
    priceCredits: wholeCount(data.priceCredits),
    status: data.status === 'active' ? 'active' : 'archived',
    createdAt: toMillis(data.createdAt),
    updatedAt: toMillis(data.updatedAt),
  };
}

/** availability/{consultantId}; intervals that are not well formed are left out. */
export function toAvailability(consultantId: string, data: DocumentData): Availability {
  const hours: HoursInterval[] = Array.isArray(data.hours)
    ? data.hours.flatMap((value: unknown): HoursInterval[] =>
        isRecord(value) &&
        typeof value.day === 'number' &&
        typeof value.start === 'string' &&
        typeof value.end === 'string'
          ? [{ day: value.day, start: value.start, end: value.end }]
          : [],
      )
    : [];
  return { consultantId, timeZone: text(data.timeZone, 'UTC'), hours, updatedAt: toMillis(data.updatedAt) };
}

const BOOKING_STATES: readonly BookingState[] = ['requested', 'confirmed', 'done', 'declined', 'cancelled'];
const PAYMENT_STATUSES: readonly PaymentStatus[] = ['held', 'captured', 'released', 'refunded'];
const CLOSED_REASONS: readonly BookingClosedReason[] = [
  'declined',
  'cancelled-by-client',
  'cancelled-by-consultant',
  'expired',
];

/** bookings/{id}. */
export function toBooking(id: string, data: DocumentData): Booking {
  const payment = isRecord(data.payment) ? data.payment : {};
  const proposal = isRecord(data.proposal) ? data.proposal : null;
  const booking: Booking = {
    id,
    consultantId: text(data.consultantId),
    clientId: text(data.clientId),
    serviceId: text(data.serviceId),
    serviceTitle: text(data.serviceTitle),
    durationMinutes: wholeCount(data.durationMinutes),
    startsAt: toMillis(data.startsAt),
    endsAt: toMillis(data.endsAt),
    state: BOOKING_STATES.find((s) => s === data.state) ?? 'cancelled',
    payment: {
      method: payment.method === 'pass' ? 'pass' : 'credits',
      amount: wholeCount(payment.amount),
      listPrice: wholeCount(payment.listPrice),
      status: PAYMENT_STATUSES.find((s) => s === payment.status) ?? 'released',
      ...(typeof payment.offerId === 'string' ? { offerId: payment.offerId } : {}),
      ...(typeof payment.discountPercent === 'number' ? { discountPercent: payment.discountPercent } : {}),
    },
    channelId: text(data.channelId),
    clientTimeZone: text(data.clientTimeZone, 'UTC'),
    consultantTimeZone: text(data.consultantTimeZone, 'UTC'),
    sequence: wholeCount(data.sequence),
    createdAt: toMillis(data.createdAt),
    updatedAt: toMillis(data.updatedAt),
  };
  if (proposal)
    booking.proposal = { startsAt: toMillis(proposal.startsAt), endsAt: toMillis(proposal.endsAt) };
  // Names written by functions/ (a document from before has none; an empty one is none either).
  if (typeof data.clientName === 'string' && data.clientName !== '') booking.clientName = data.clientName;
  if (typeof data.consultantName === 'string' && data.consultantName !== '')
    booking.consultantName = data.consultantName;
  const reason = CLOSED_REASONS.find((r) => r === data.closedReason);
  if (reason) booking.closedReason = reason;
  if (data.lateCancellation === true) booking.lateCancellation = true;
  return booking;
}

function toBalance(value: unknown, read: (v: unknown) => number): Balance {
  const balance = isRecord(value) ? value : {};
  return { credits: read(balance.credits), passes: read(balance.passes) };
}

/** users/{uid}/ledger/{id}. */
export function toLedgerEntry(uid: string, id: string, data: DocumentData): LedgerEntry {
  const kind: LedgerKind = LEDGER_KINDS.find((k) => k === data.kind) ?? 'grant';
  const entry: LedgerEntry = {
    id,
    uid,
    kind,
    delta: toBalance(data.delta, signedWhole),
    amount: toBalance(data.amount, wholeCount),
    balanceAfter: toBalance(data.balanceAfter, wholeCount),
    createdAt: toMillis(data.createdAt),
  };
  for (const field of ['bookingId', 'serviceId', 'invitationId', 'byUid', 'note'] as const) {
    const value = optionalText(data[field]);
    if (value !== undefined) entry[field] = value;
  }
  return entry;
}
