// Firestore documents (as the Admin SDK reads them) to the plain documents of core/model.ts and back: Timestamps
// become epoch milliseconds, missing fields get ARCHITECTURE.md's defaults, nothing else is copied.
import type { Invitation, InvitationStatus, UserDoc } from '../../core/model';
import type { StoredOffer } from '../../core/offers';
import {
  count,
  optionalText,
  text,
  toChannel,
  toChatMessage,
  toMillis,
  toPushTokenDoc,
  toUserDoc,
} from '../../core/documents';
import type { DocumentData } from '../../core/documents';

export { toChannel, toMillis, toPushTokenDoc, toUserDoc };
/** A message document (channels/{id}/messages/{mid}). */
export const toMessage = toChatMessage;

export type Data = DocumentData;

/** users/{uid} as stored: the UserDoc without its key. */
export function userData(user: UserDoc): Data {
  const { uid: _uid, ...data } = user;
  return data;
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
