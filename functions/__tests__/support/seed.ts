// Documents in the Firestore layout of ARCHITECTURE.md "Data", written straight into a MemoryFirestore or another
// DocumentWriter (as functions/ or an admin would have written them). Times are given in epoch ms and stored as Timestamps.
import type { NotificationSettings } from '../../../core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../core/model';
import { MemTimestamp } from './memoryFirestore';
import type { Data } from './memoryFirestore';

/**
 * Where the documents go: a MemoryFirestore, or anything that writes documents by path (the contract suite's run
 * on the emulators writes them with the Admin SDK, its timestamps turned into the SDK's).
 */
export interface DocumentWriter {
  set(path: string, data: Data): void;
}

const ts = (ms: number) => MemTimestamp.fromMillis(ms);

export interface SeedUser {
  uid: string;
  email: string;
  displayName?: string;
  nickname?: string;
  isOwner?: boolean;
  domainId?: string;
  credits?: number;
  passCount?: number;
  effectiveConId?: string;
  notificationSettings?: NotificationSettings;
  createdAt?: number;
}

export function putUser(store: DocumentWriter, user: SeedUser): void {
  const { uid, createdAt, ...fields } = user;
  store.set(`users/${uid}`, {
    isOwner: false,
    credits: 0,
    passCount: 0,
    effectiveConId: fields.isOwner ? uid : '',
    notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
    ...fields,
    createdAt: ts(createdAt ?? 0),
  });
}

export interface SeedChannel {
  id: string;
  channelId: string;
  ownerId: string;
  title: string;
  description?: string;
  members?: string[];
  createdAt: number;
  /** When members joined (channels/{id}/members/{uid}, written by accept_invitation); others have no record. */
  joinedAt?: Record<string, number>;
  /** A private consultation (core/privateChannels.ts) and its two people's names. */
  kind?: 'private';
  names?: Record<string, string>;
}

export function putChannel(store: DocumentWriter, channel: SeedChannel): void {
  const { id, createdAt, joinedAt = {}, ...fields } = channel;
  store.set(`channels/${id}`, { description: '', members: [], ...fields, createdAt: ts(createdAt) });
  // Its handle's reservation, as create_channel writes it with the channel (clients resolve handles through it).
  store.set(`channelHandles/${fields.channelId}`, { id });
  for (const [uid, at] of Object.entries(joinedAt)) {
    store.set(`channels/${id}/members/${uid}`, { uid, joinedAt: ts(at) });
  }
}

/**
 * users/{uid}/channelReads/{channelId}: read up to and including the message `id` at `at`; without an
 * id, a marker as stored before read marks named a message (the whole millisecond `at` read).
 */
export function putReadMarker(
  store: DocumentWriter,
  uid: string,
  channelId: string,
  at: number,
  id?: string,
): void {
  store.set(`users/${uid}/channelReads/${channelId}`, {
    lastReadAt: ts(at),
    ...(id === undefined ? {} : { lastReadId: id }),
  });
}

export interface SeedMessage {
  id: string;
  channelId: string;
  senderId: string;
  senderName: string;
  text: string;
  createdAt: number;
  /** A file the message carries (core/attachments.ts Attachment). */
  attachment?: Record<string, unknown>;
}

export function putMessage(store: DocumentWriter, message: SeedMessage): void {
  const { id, channelId, createdAt, ...fields } = message;
  store.set(`channels/${channelId}/messages/${id}`, { ...fields, createdAt: ts(createdAt) });
}

export interface SeedInvitation {
  id: string;
  channelId: string;
  consultantId: string;
  inviteeEmail?: string;
  status: 'pending' | 'accepted' | 'activated' | 'expired';
  passes: number;
  credits: number;
  expiresAt: number;
  acceptedBy?: string;
  createdAt: number;
}

export function putInvitation(store: DocumentWriter, invitation: SeedInvitation): void {
  const { id, expiresAt, createdAt, ...fields } = invitation;
  store.set(`invitations/${id}`, { ...fields, expiresAt: ts(expiresAt), createdAt: ts(createdAt) });
}

export interface SeedOffer {
  offeringId: string;
  userId: string;
  channelId: string;
  discountPercent: number;
  source: string;
  status: 'active' | 'used' | 'revoked';
  expiresAt: number;
  createdAt: number;
  /** The service it is for (none: any of its consultant's services). */
  serviceId?: string;
  consultantId?: string;
}

export function putOffer(store: DocumentWriter, offer: SeedOffer): void {
  const { expiresAt, createdAt, ...fields } = offer;
  store.set(`offers/${offer.offeringId}`, { ...fields, expiresAt: ts(expiresAt), createdAt: ts(createdAt) });
}

export interface SeedService {
  id: string;
  consultantId: string;
  title: string;
  durationMinutes: number;
  priceCredits: number;
  createdAt: number;
}

/** services/{id}: an active service of a consultant, as create_service writes it. */
export function putService(store: DocumentWriter, service: SeedService): void {
  const { id, createdAt, ...fields } = service;
  store.set(`services/${id}`, {
    ...fields,
    description: '',
    status: 'active',
    createdAt: ts(createdAt),
    updatedAt: ts(createdAt),
  });
}

export interface SeedToken {
  uid: string;
  id: string;
  token: string;
  deviceId?: string;
  lastUsed: number;
  createdAt?: number;
}

export function putToken(store: DocumentWriter, token: SeedToken): void {
  store.set(`users/${token.uid}/FCMTokens/${token.id}`, {
    token: token.token,
    deviceId: token.deviceId ?? `device-${token.id}`,
    platform: 'web',
    userAgent: 'test',
    status: 'active',
    createdAt: ts(token.createdAt ?? token.lastUsed),
    lastUsed: ts(token.lastUsed),
  });
}

export function putPending(store: DocumentWriter, uid: string, source: string, count: number): void {
  store.set(`users/${uid}/pending/${source}`, { count, updatedAt: ts(0) });
}

/** An upload record as the Firebase adapter writes it before the bytes (channels/{channelId}/uploads/{id}). */
export function putUpload(
  store: DocumentWriter,
  upload: {
    channelId: string;
    uploaderId: string;
    attachment: { id: string };
    createdAt: number;
    messageId?: string | null;
  },
): void {
  store.set(`channels/${upload.channelId}/uploads/${upload.attachment.id}`, {
    uploaderId: upload.uploaderId,
    attachment: upload.attachment,
    createdAt: ts(upload.createdAt),
    messageId: upload.messageId ?? null,
  });
}
