// What a booking costs (ARCHITECTURE.md "Booking"): the service's price in credits, or one pass whatever the
// price, less an active offer's discount once. The backend works it out from the stored service and offer; a price
// the client sends is only compared with it (a client that shows one price and is charged another would be worse
// than a refusal), never used.
import { QupmError } from './errors';
import type { BookingPayment, PaymentMethod, Service } from './model';
import type { StoredOffer } from './offers';
import { isOfferActive, OFFER_MESSAGES } from './offers';

/** A price after `discountPercent` off, rounded down to a whole credit (the client gets the fraction). */
export function discountedPrice(listPrice: number, discountPercent: number): number {
  return Math.floor((listPrice * (100 - discountPercent)) / 100);
}

export const PRICING_MESSAGES = {
  offerWithPass:
    'A pass pays for the whole session, so an offer cannot be used with it. Pay with credits to use the offer.',
  expectedWithPass: 'expectedCredits: a pass pays for the whole session; leave the price out.',
  priceChanged: (amount: number, claimed: number) =>
    `This session costs ${amount} ${amount === 1 ? 'credit' : 'credits'}, not ${claimed}. Nothing was booked; look at the price again.`,
} as const;

/**
 * The offer applied to `service` for `clientUid`, checked: theirs, unused, unexpired, for this service (an offer
 * made before offers named a service counts for any service of its consultant, `offerConsultantId`).
 */
export function assertUsableOffer(input: {
  offer: StoredOffer | null;
  offerConsultantId: string;
  service: Pick<Service, 'id' | 'consultantId'>;
  clientUid: string;
  now: number;
}): StoredOffer {
  const { offer, offerConsultantId, service, clientUid, now } = input;
  if (!offer) throw new QupmError('NOT_FOUND', OFFER_MESSAGES.noSuchOffer);
  if (offer.userId !== clientUid) {
    throw new QupmError('PERMISSION_DENIED', OFFER_MESSAGES.notYours, 'offer-not-yours');
  }
  if (offer.status === 'used') throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.used, 'offer-used');
  if (offer.status === 'revoked') {
    throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.withdrawn, 'offer-used');
  }
  if (!isOfferActive(offer, now)) {
    throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.expired, 'offer-expired');
  }
  const forService =
    offer.serviceId !== undefined
      ? offer.serviceId === service.id
      : offerConsultantId === service.consultantId;
  if (!forService) {
    throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.otherService, 'offer-other-service');
  }
  return offer;
}

/**
 * The payment a booking holds: by pass (one, whatever the price) or by credits (the price, less the offer's
 * discount once). `expectedCredits`, the price the client was shown, must be that price.
 */
export function quotePayment(input: {
  service: Pick<Service, 'id' | 'consultantId' | 'priceCredits'>;
  method: PaymentMethod;
  /** The offer, already checked by assertUsableOffer (null: none applied). */
  offer: StoredOffer | null;
  expectedCredits?: number;
}): Omit<BookingPayment, 'status'> {
  const { service, method, offer, expectedCredits } = input;
  const listPrice = service.priceCredits;
  if (method === 'pass') {
    if (offer) throw new QupmError('INVALID_ARGUMENT', PRICING_MESSAGES.offerWithPass, 'offer-with-pass');
    if (expectedCredits !== undefined) {
      throw new QupmError('INVALID_ARGUMENT', PRICING_MESSAGES.expectedWithPass);
    }
    return { method, amount: 1, listPrice };
  }
  const amount = offer ? discountedPrice(listPrice, offer.discountPercent) : listPrice;
  if (expectedCredits !== undefined && expectedCredits !== amount) {
    throw new QupmError(
      'FAILED_PRECONDITION',
      PRICING_MESSAGES.priceChanged(amount, expectedCredits),
      'price-changed',
    );
  }
  return offer
    ? { method, amount, listPrice, offerId: offer.offeringId, discountPercent: offer.discountPercent }
    : { method, amount, listPrice };
}
