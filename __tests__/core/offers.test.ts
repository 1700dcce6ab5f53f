import { activeOffersFor, isDiscountPercent, isOfferActive, offerStateAt } from '@core/offers';
import { offerCreateBody } from '@core/schemas';
import type { StoredOffer } from '@core/offers';

const NOW = 1_000_000;
const offer = (over: Partial<StoredOffer>): StoredOffer => ({
  offeringId: 'o',
  userId: 'me',
  channelId: 'c',
  discountPercent: 10,
  source: 'consultant',
  status: 'active',
  expiresAt: NOW + 1000,
  createdAt: NOW - 1000,
  ...over,
});

describe('isOfferActive', () => {
  it('is active with status active before it expires', () => {
    expect(isOfferActive(offer({}), NOW)).toBe(true);
  });

  it('is over at the exact expiry, after it, and when used or revoked', () => {
    expect(isOfferActive(offer({ expiresAt: NOW }), NOW)).toBe(false);
    expect(isOfferActive(offer({ expiresAt: NOW - 1 }), NOW)).toBe(false);
    expect(isOfferActive(offer({ status: 'used' }), NOW)).toBe(false);
    expect(isOfferActive(offer({ status: 'revoked' }), NOW)).toBe(false);
  });
});

describe('activeOffersFor', () => {
  it("keeps only the caller's active offers, soonest to expire first", () => {
    const offers = [
      offer({ offeringId: 'late', expiresAt: NOW + 5000 }),
      offer({ offeringId: 'other-user', userId: 'someone' }),
      offer({ offeringId: 'expired', expiresAt: NOW - 5 }),
      offer({ offeringId: 'soon', expiresAt: NOW + 10 }),
      offer({ offeringId: 'used', status: 'used' }),
    ];
    expect(activeOffersFor(offers, 'me', NOW).map((o) => o.offeringId)).toEqual(['soon', 'late']);
  });

  it('answers exactly the spec’s Offer fields, without the userId', () => {
    const [only] = activeOffersFor([offer({})], 'me', NOW);
    expect(Object.keys(only ?? {}).sort()).toEqual(
      ['channelId', 'createdAt', 'discountPercent', 'expiresAt', 'offeringId', 'source', 'status'].sort(),
    );
  });

  it('orders offers of the same expiry by creation, then id', () => {
    const offers = [
      offer({ offeringId: 'b', createdAt: 1 }),
      offer({ offeringId: 'a', createdAt: 1 }),
      offer({ offeringId: 'c', createdAt: 0 }),
    ];
    expect(activeOffersFor(offers, 'me', NOW).map((o) => o.offeringId)).toEqual(['c', 'a', 'b']);
  });

  it('gives nobody (an empty uid) no offers', () => {
    expect(activeOffersFor([offer({ userId: '' })], '', NOW)).toEqual([]);
  });
});

describe('isDiscountPercent', () => {
  const body = (discountPercent: unknown) => ({
    channelId: 'AbCdEfGhIj0123456789',
    userId: 'BbCdEfGhIj0123456789',
    serviceId: 'CbCdEfGhIj0123456789',
    discountPercent,
    expiresAt: 1,
  });

  it.each([
    [1, true],
    [100, true],
    [0, false],
    [101, false],
    [12.5, false],
    [Number.NaN, false],
    ['10', false],
  ])('%p → %s, for the form and the schema alike', (value, expected) => {
    expect(isDiscountPercent(value)).toBe(expected);
    expect(offerCreateBody.safeParse(body(value)).success).toBe(expected);
  });
});

describe('offerStateAt', () => {
  const at = (status: 'active' | 'used' | 'revoked', expiresAt: number) => ({ status, expiresAt });

  it('reads an active offer as active until its expiry, and expired from that moment', () => {
    expect(offerStateAt(at('active', 2_000), 1_999)).toBe('active');
    expect(offerStateAt(at('active', 2_000), 2_000)).toBe('expired');
  });

  it('keeps a used or withdrawn offer as it is, whatever its date', () => {
    expect(offerStateAt(at('used', 2_000), 5_000)).toBe('used');
    expect(offerStateAt(at('revoked', 9_000), 1_000)).toBe('revoked');
  });
});
