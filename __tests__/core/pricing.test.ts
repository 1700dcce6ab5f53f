// What a booking costs (core/pricing.ts): credits or a pass, an offer's discount once, and a claimed price that is
// compared and never used.
import fc from 'fast-check';
import type { Service } from '@core/model';
import type { StoredOffer } from '@core/offers';
import { assertUsableOffer, discountedPrice, quotePayment } from '@core/pricing';
import { refusal } from '../support/refusal';

const NOW = 1_000_000;
const service: Pick<Service, 'id' | 'consultantId' | 'priceCredits'> = {
  id: 'S1',
  consultantId: 'dana',
  priceCredits: 8,
};
const offer = (over: Partial<StoredOffer> = {}): StoredOffer => ({
  offeringId: 'O1',
  userId: 'morgan',
  channelId: 'C1',
  serviceId: 'S1',
  consultantId: 'dana',
  discountPercent: 25,
  source: 'Spring',
  status: 'active',
  expiresAt: NOW + 1000,
  createdAt: NOW - 1000,
  ...over,
});

describe('discountedPrice', () => {
  it.each([
    [8, 25, 6],
    [3, 20, 2],
    [1, 50, 0],
    [5, 100, 0],
    [0, 30, 0],
  ])('%i credits less %i %% is %i (the fraction goes to the client)', (price, percent, expected) => {
    expect(discountedPrice(price, percent)).toBe(expected);
  });

  it('is never more than the price nor below zero, and lower for a larger discount (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 99 }), (price, percent) => {
        const after = discountedPrice(price, percent);
        expect(after).toBeGreaterThanOrEqual(0);
        expect(after).toBeLessThanOrEqual(price);
        expect(discountedPrice(price, percent + 1)).toBeLessThanOrEqual(after);
      }),
    );
  });
});

describe('assertUsableOffer', () => {
  const check = (o: StoredOffer | null, over: Partial<Parameters<typeof assertUsableOffer>[0]> = {}) =>
    assertUsableOffer({
      offer: o,
      offerConsultantId: 'dana',
      service,
      clientUid: 'morgan',
      now: NOW,
      ...over,
    });

  it('takes the client’s own active offer for this service', () => {
    expect(check(offer())).toEqual(offer());
  });

  it('takes an offer from before offers named a service, for any service of its consultant', () => {
    const { serviceId: _s, consultantId: _c, ...old } = offer();
    expect(check(old)).toEqual(old);
    expect(refusal(() => check(old, { offerConsultantId: 'someone-else' })).reason).toBe(
      'offer-other-service',
    );
  });

  it.each<[string, StoredOffer | null, string, string | undefined]>([
    ['a missing offer', null, 'NOT_FOUND', undefined],
    ['someone else’s offer', offer({ userId: 'sam' }), 'PERMISSION_DENIED', 'offer-not-yours'],
    ['a used offer', offer({ status: 'used' }), 'FAILED_PRECONDITION', 'offer-used'],
    ['a withdrawn offer', offer({ status: 'revoked' }), 'FAILED_PRECONDITION', 'offer-used'],
    ['an expired offer', offer({ expiresAt: NOW }), 'FAILED_PRECONDITION', 'offer-expired'],
    [
      'an offer for another service',
      offer({ serviceId: 'S2' }),
      'FAILED_PRECONDITION',
      'offer-other-service',
    ],
  ])('refuses %s', (_label, o, status, reason) => {
    expect(refusal(() => check(o))).toMatchObject({ status, ...(reason ? { reason } : {}) });
  });
});

describe('quotePayment', () => {
  it('charges the price in credits, less an offer’s discount, and says which offer', () => {
    expect(quotePayment({ service, method: 'credits', offer: null })).toEqual({
      method: 'credits',
      amount: 8,
      listPrice: 8,
    });
    expect(quotePayment({ service, method: 'credits', offer: offer(), expectedCredits: 6 })).toEqual({
      method: 'credits',
      amount: 6,
      listPrice: 8,
      offerId: 'O1',
      discountPercent: 25,
    });
  });

  it('charges one pass whatever the price', () => {
    expect(quotePayment({ service: { ...service, priceCredits: 900 }, method: 'pass', offer: null })).toEqual(
      { method: 'pass', amount: 1, listPrice: 900 },
    );
  });

  it('refuses a price the client made up, saying the real one', () => {
    expect(
      refusal(() => quotePayment({ service, method: 'credits', offer: null, expectedCredits: 1 })),
    ).toEqual({
      status: 'FAILED_PRECONDITION',
      reason: 'price-changed',
      message: 'This session costs 8 credits, not 1. Nothing was booked; look at the price again.',
    });
    // The full price claimed while an offer applies is a made-up price too.
    expect(
      refusal(() => quotePayment({ service, method: 'credits', offer: offer(), expectedCredits: 8 })).reason,
    ).toBe('price-changed');
  });

  it('refuses an offer or a price with a pass', () => {
    expect(refusal(() => quotePayment({ service, method: 'pass', offer: offer() }))).toMatchObject({
      status: 'INVALID_ARGUMENT',
      reason: 'offer-with-pass',
    });
    expect(
      refusal(() => quotePayment({ service, method: 'pass', offer: null, expectedCredits: 0 })).status,
    ).toBe('INVALID_ARGUMENT');
  });
});
