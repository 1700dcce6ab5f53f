// SDK documents and callable answers become the plain documents of core/model.ts: Timestamps become epoch
// milliseconds, missing fields get the defaults of ARCHITECTURE.md, and nothing else is copied.
import { BackendError } from '../ports';
import type {
  AdminChannel,
  AdminUser,
  AuthUser,
  Channel,
  ChannelMember,
  ChannelMute,
  ChannelOverview,
  IssuedOffer,
  ChannelPermissions,
  ChatMessage,
  Invitation,
  Offer,
  PushTokenDoc,
  UserDoc,
} from '@core/model';
import { UNREADABLE_ANSWER_MESSAGE } from './errors';
import {
  count,
  isRecord,
  text,
  toChannel,
  toChatMessage,
  toInvitation as readInvitation,
  toMillis,
  toPushTokenDoc,
  toStoredOffer,
  toUserDoc,
} from '@core/documents';
import { toOffer as offerFields } from '@core/offers';
import type { InvitationPreview } from '@core/invitations';
import { isMuteEnd } from '@core/mutes';
import { isPhotoURL } from '@core/photos';

export type { DocumentData } from '@core/documents';
export {
  toChannel,
  toChatMessage,
  toMillis,
  toNotificationSettings,
  toPushTokenDoc,
  toUserDoc,
} from '@core/documents';

export function toAuthUser(user: {
  uid: string;
  email: string | null;
  displayName: string | null;
}): AuthUser {
  return { uid: user.uid, email: user.email ?? '', displayName: user.displayName ?? null };
}

/** save_push_token's answer: the device's document as the backend saved it (times in epoch milliseconds). */
export function toPushTokenAnswer(value: unknown): PushTokenDoc {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.token !== 'string') throw unreadable();
  return toPushTokenDoc(value.id, value);
}

function unreadable(): BackendError {
  return new BackendError('INTERNAL', UNREADABLE_ANSWER_MESSAGE);
}

/** An invitation as a callable answers it: the document's fields, its id and the names it is shown with. */
export function toInvitation(value: unknown): Invitation {
  if (!isRecord(value) || typeof value.id !== 'string') throw unreadable();
  return readInvitation(value.id, value, {
    channelTitle: text(value.channelTitle),
    consultantName: text(value.consultantName),
  });
}

/** preview_invitation's answer: exactly the preview's fields, checked. */
export function toInvitationPreview(value: unknown): InvitationPreview {
  if (!isRecord(value) || typeof value.id !== 'string') throw unreadable();
  const { state } = value;
  if (state !== 'open' && state !== 'used' && state !== 'expired' && state !== 'withdrawn')
    throw unreadable();
  const expiresAt = toMillis(value.expiresAt, Number.NaN);
  if (!Number.isFinite(expiresAt)) throw unreadable();
  return {
    id: value.id,
    consultantName: text(value.consultantName),
    channelTitle: text(value.channelTitle),
    passes: count(value.passes),
    credits: count(value.credits),
    expiresAt,
    state,
    forOneEmail: value.forOneEmail === true,
  };
}

/** An offer as a callable answers it: the document's fields (the spec's Offer; whom it went to is dropped). */
export function toOffer(value: unknown): Offer {
  if (!isRecord(value)) throw unreadable();
  return offerFields(toStoredOffer('', value));
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

/** mute_channel's answer: the channel and until when it is muted. */
export function toChannelMute(value: unknown): ChannelMute {
  if (!isRecord(value) || typeof value.channelId !== 'string' || !isMuteEnd(value.mutedUntil)) {
    throw unreadable();
  }
  return { channelId: value.channelId, mutedUntil: value.mutedUntil };
}

/** A channel as a callable answers it (it carries its id). */
export function toChannelAnswer(value: unknown): Channel {
  if (!isRecord(value) || typeof value.id !== 'string') throw unreadable();
  return toChannel(value.id, value);
}

export function toMessageAnswer(value: unknown): ChatMessage {
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
  const member: ChannelMember = {
    uid: value.uid,
    name: text(value.name),
    role: value.role === 'owner' ? 'owner' : 'member',
    joinedAt: toMillis(value.joinedAt),
  };
  if (isPhotoURL(value.photoURL)) member.photoURL = value.photoURL;
  return member;
}

export function toIssuedOffer(value: unknown): IssuedOffer {
  if (!isRecord(value) || typeof value.userId !== 'string') throw unreadable();
  return {
    ...toOffer(value),
    // The service it is for, as the embedded server answers it (none on an offer stored before offers named one).
    ...(typeof value.serviceId === 'string' ? { serviceId: value.serviceId } : {}),
    userId: value.userId,
    userName: text(value.userName),
  };
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
