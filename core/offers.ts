// Offer selection (spec §7 get_user_active_offers): the caller's offers that are active now, soonest to
// expire first, with exactly the spec's Offer fields.
import { QupmError } from './errors';
import { LIMITS } from './limits';
import { isWholeNumberIn } from './wholeNumber';
import type { Offer } from './model';

/**
 * An offer as a backend stores it: the spec's fields plus whom it was granted to and, since offers lead somewhere,
 * which of the consultant's services it is for and who that consultant is. Offers made before then have neither:
 * they stay readable, and count for any service of the consultant who owned their channel (core/pricing.ts).
 */
export interface StoredOffer extends Offer {
  userId: string;
  serviceId?: string;
  consultantId?: string;
}

/** A discount an offer may carry: a whole percent from 1 to 100 (ARCHITECTURE.md). */
export function isDiscountPercent(value: unknown): value is number {
  return isWholeNumberIn(value, LIMITS.discountMin, LIMITS.discountMax);
}

/** Active = status 'active' and not yet expired (an offer expiring exactly now is over). */
export function isOfferActive(offer: Pick<Offer, 'status' | 'expiresAt'>, now: number): boolean {
  return offer.status === 'active' && offer.expiresAt > now;
}

/** An offer's state as its consultant reads it now: an active offer past its expiry is expired. */
export type OfferState = 'active' | 'used' | 'expired' | 'revoked';

export function offerStateAt(offer: Pick<Offer, 'status' | 'expiresAt'>, now: number): OfferState {
  if (offer.status !== 'active') return offer.status;
  return isOfferActive(offer, now) ? 'active' : 'expired';
}

/** The spec's Offer fields only: nothing a backend keeps beside them leaks to the client. */
export function toOffer(offer: Offer): Offer {
  return {
    offeringId: offer.offeringId,
    discountPercent: offer.discountPercent,
    source: offer.source,
    channelId: offer.channelId,
    status: offer.status,
    expiresAt: offer.expiresAt,
    createdAt: offer.createdAt,
  };
}

/** The active offers of `uid` among `offers`, sorted by expiry (then creation, then id, for a stable order). */
export function activeOffersFor(offers: readonly StoredOffer[], uid: string, now: number): Offer[] {
  return offers
    .filter((offer) => uid !== '' && offer.userId === uid && isOfferActive(offer, now))
    .sort(
      (a, b) =>
        a.expiresAt - b.expiresAt ||
        a.createdAt - b.createdAt ||
        (a.offeringId < b.offeringId ? -1 : a.offeringId > b.offeringId ? 1 : 0),
    )
    .map(toOffer);
}

export const OFFER_MESSAGES = {
  toSelf: 'You cannot issue an offer to yourself. Choose a member of the channel.',
  notMember: 'Offers go to members of the channel: this person is not one.',
  noSuchOffer: 'There is no such offer.',
  notYours: 'This offer was made to someone else.',
  used: 'This offer has already been used for a booking.',
  withdrawn: 'This offer was withdrawn by your consultant.',
  expired: 'This offer has expired.',
  otherService: 'This offer is for another service.',
  notIssuer: 'Only the consultant who made this offer can withdraw it.',
  serviceNotYours: 'An offer is for one of your own active services.',
} as const;

/** Withdrawing an offer (core/housekeeping.ts): its consultant, while it is unused; a repeat changes nothing. */
export function planWithdrawOffer(
  offer: StoredOffer | null,
  callerUid: string,
  issuerUid: string,
): StoredOffer | null {
  if (!offer) throw new QupmError('NOT_FOUND', OFFER_MESSAGES.noSuchOffer);
  if (issuerUid !== callerUid) throw new QupmError('PERMISSION_DENIED', OFFER_MESSAGES.notIssuer);
  if (offer.status === 'used') throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.used, 'offer-used');
  if (offer.status === 'revoked') return null;
  return { ...offer, status: 'revoked' };
}

/**
 * Who an offer may go to (docs/decisions/channels.md): a member of the channel, never its owner. The
 * caller must already be the channel's owner (core/channels.ts assertChannelOwner).
 */
export function assertOfferRecipient(
  channel: { ownerId: string; members: readonly string[] },
  userId: string,
): void {
  if (userId === channel.ownerId) throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.toSelf);
  if (!channel.members.includes(userId)) throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.notMember);
}

/** The offers a consultant issued, newest first (then by id, for a stable order). */
export function sortIssuedOffers<T extends Pick<Offer, 'createdAt' | 'offeringId'>>(
  offers: readonly T[],
): T[] {
  return [...offers].sort(
    (a, b) =>
      b.createdAt - a.createdAt || (a.offeringId < b.offeringId ? -1 : a.offeringId > b.offeringId ? 1 : 0),
  );
}

/**
 * An offer as the person it was made to sees it on /services (docs/decisions/practice.md): the spec's fields, the
 * service it is for (none for an offer made before offers named one), who made it, and its state now (used and
 * expired offers say so). get_user_active_offers keeps the spec's fields alone.
 */
export interface ReceivedOffer extends Offer {
  consultantId: string;
  serviceId?: string;
  serviceTitle?: string;
  state: OfferState;
}

export function toReceivedOffer(
  offer: StoredOffer,
  details: { consultantId: string; serviceTitle?: string },
  now: number,
): ReceivedOffer {
  return {
    ...toOffer(offer),
    consultantId: details.consultantId,
    ...(offer.serviceId !== undefined ? { serviceId: offer.serviceId } : {}),
    ...(details.serviceTitle !== undefined ? { serviceTitle: details.serviceTitle } : {}),
    state: offerStateAt(offer, now),
  };
}

/** Active offers first, soonest to expire first; then the rest, newest first (ties by id). */
export function sortReceivedOffers(offers: readonly ReceivedOffer[]): ReceivedOffer[] {
  const byId = (a: ReceivedOffer, b: ReceivedOffer) =>
    a.offeringId < b.offeringId ? -1 : a.offeringId > b.offeringId ? 1 : 0;
  return [
    ...offers.filter((o) => o.state === 'active').sort((a, b) => a.expiresAt - b.expiresAt || byId(a, b)),
    ...offers.filter((o) => o.state !== 'active').sort((a, b) => b.createdAt - a.createdAt || byId(a, b)),
  ];
}
