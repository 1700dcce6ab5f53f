// Firestore documents, read once (core/documents.ts) for functions/ (the Admin SDK) and the web adapter (which
// reads the callable answers functions/ builds from them; __tests__/backend/firebase/convert.test.ts).
import {
  INVITATION_STATUSES,
  OFFER_STATUSES,
  toBooking,
  toInvitation,
  toNotificationSettings,
  toPendingCounts,
  toStoredOffer,
  toUserDoc,
} from '@core/documents';
import { isOfferActive } from '@core/offers';
import { NOW, offerDoc, stamp } from '../support/firestoreDocs';

describe('toStoredOffer', () => {
  it('reads an offer document, Timestamps as milliseconds', () => {
    expect(toStoredOffer('doc1', offerDoc())).toEqual({
      offeringId: 'off1',
      userId: 'member',
      discountPercent: 15,
      source: 'Consultant offer',
      channelId: 'chan',
      status: 'active',
      expiresAt: NOW + 60_000,
      createdAt: NOW - 60_000,
    });
  });

  it.each(OFFER_STATUSES)('keeps the status %s', (status) => {
    expect(toStoredOffer('doc1', offerDoc({ status })).status).toBe(status);
  });

  it.each([undefined, 'ACTIVE', 'pending', 1, null])(
    'reads a status of %p as revoked: no discount unless the document says active',
    (status) => {
      const offer = toStoredOffer('doc1', offerDoc({ status }));
      expect(offer.status).toBe('revoked');
      expect(isOfferActive(offer, NOW)).toBe(false);
    },
  );

  it('names an offer without offeringId by its document id', () => {
    expect(toStoredOffer('doc1', offerDoc({ offeringId: undefined })).offeringId).toBe('doc1');
  });
});

describe('toInvitation', () => {
  const names = { channelTitle: 'Growth Clinic', consultantName: 'Dana' };
  const doc = (over: Record<string, unknown> = {}) => ({
    channelId: 'chan',
    consultantId: 'dana',
    status: 'pending',
    passes: 2,
    credits: 5,
    expiresAt: stamp(NOW),
    ...over,
  });

  it('reads an invitation with the names it is shown with, optional fields only when present', () => {
    expect(toInvitation('inv1', doc(), names)).toStrictEqual({
      id: 'inv1',
      channelId: 'chan',
      channelTitle: 'Growth Clinic',
      consultantId: 'dana',
      consultantName: 'Dana',
      status: 'pending',
      passes: 2,
      credits: 5,
      expiresAt: NOW,
    });
    expect(toInvitation('inv1', doc({ inviteeEmail: 'a@b.co', acceptedBy: 'u' }), names)).toMatchObject({
      inviteeEmail: 'a@b.co',
      acceptedBy: 'u',
    });
  });

  it.each(INVITATION_STATUSES)('keeps the status %s', (status) => {
    expect(toInvitation('inv1', doc({ status }), names).status).toBe(status);
  });

  it('reads negative or odd balances as 0', () => {
    expect(toInvitation('inv1', doc({ passes: -1, credits: '3' }), names)).toMatchObject({
      passes: 0,
      credits: 0,
    });
  });
});

describe('toPendingCounts', () => {
  it('keeps positive whole counts only', () => {
    expect(
      toPendingCounts([
        { id: 'a', data: { count: 3 } },
        { id: 'b', data: { count: 0 } },
        { id: 'c', data: { count: -2 } },
        { id: 'd', data: { count: 1.5 } },
        { id: 'e', data: { count: '4' } },
        { id: 'f', data: {} },
      ]),
    ).toEqual({ a: 3 });
  });
});

describe('toNotificationSettings (spec §5: token work needs enabled and push)', () => {
  const notOptedIn = { enabled: false, delivery: { channels: [] } };

  it.each([
    ['missing', undefined],
    ['null', null],
    ['not an object', 'on'],
    ['enabled not a boolean', { enabled: 'yes', delivery: { channels: ['push'] } }],
    ['enabled missing', { delivery: { channels: ['push'] } }],
    ['no delivery', { enabled: true }],
    ['channels not a list', { enabled: true, delivery: { channels: 'push' } }],
  ])('reads %s as not opted in', (_case, value) => {
    expect(toNotificationSettings(value)).toStrictEqual(notOptedIn);
  });

  it('keeps valid settings, dropping unknown and repeated channels', () => {
    expect(
      toNotificationSettings({ enabled: true, delivery: { channels: ['push', 'sms', 'push', 'in_app'] } }),
    ).toStrictEqual({ enabled: true, delivery: { channels: ['push', 'in_app'] } });
    expect(toNotificationSettings({ enabled: false, delivery: { channels: ['push'] } })).toStrictEqual({
      enabled: false,
      delivery: { channels: ['push'] },
    });
  });

  it('gives a user document without settings no push', () => {
    expect(toUserDoc('u1', { email: 'ann@example.com' }).notificationSettings).toStrictEqual(notOptedIn);
  });
});

describe('toBooking', () => {
  const stored = {
    consultantId: 'ConsultantUid0000001',
    clientId: 'ClientUid00000000001',
    serviceTitle: 'Strategy session',
    startsAt: stamp(NOW),
    endsAt: stamp(NOW + 3_600_000),
    state: 'requested',
    payment: { method: 'credits', amount: 2, listPrice: 2, status: 'held' },
  };

  it('reads the two names functions/ keeps on the document', () => {
    expect(
      toBooking('Booking0000000000001', { ...stored, clientName: 'Morgan', consultantName: 'Dana' }),
    ).toMatchObject({ clientName: 'Morgan', consultantName: 'Dana' });
  });

  it('has no name, rather than an empty one or an id, for a document from before names were kept', () => {
    const booking = toBooking('Booking0000000000001', { ...stored, clientName: '', consultantName: 7 });
    expect(booking).not.toHaveProperty('clientName');
    expect(booking).not.toHaveProperty('consultantName');
  });
});
