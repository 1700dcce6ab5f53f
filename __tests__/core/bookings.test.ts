// The booking state machine (core/bookings.ts): who may do what when, the 24-hour rule, proposing another time,
// and what each step moves on the client's balance and the offer. A property test plays random steps by random
// people at random times and checks the money always adds up.
import fc from 'fast-check';
import {
  FREE_CANCELLATION_MS,
  heldSpans,
  planAcceptProposal,
  planCancel,
  planComplete,
  planConfirm,
  planDecline,
  planDeclineProposal,
  planExpire,
  planPropose,
  planRefund,
  planRequest,
  sortBookings,
} from '@core/bookings';
import type { BookingChange } from '@core/bookings';
import { QupmError } from '@core/errors';
import { ledgerEntry, sumLedger } from '@core/ledger';
import type { Availability, Balance, Booking, LedgerEntry, Service } from '@core/model';
import type { StoredOffer } from '@core/offers';
import { refusal } from '../support/refusal';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// Monday 12 January 2026, 06:00 UTC.
const NOW = Date.parse('2026-01-12T06:00:00Z');
const TUESDAY_10 = Date.parse('2026-01-13T10:00:00Z');

const service: Service = {
  id: 'S1',
  consultantId: 'dana',
  title: 'Strategy session',
  description: '',
  durationMinutes: 60,
  priceCredits: 4,
  status: 'active',
  createdAt: 0,
  updatedAt: 0,
};
const availability: Availability = {
  consultantId: 'dana',
  timeZone: 'UTC',
  hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: '08:00', end: '18:00' })),
  updatedAt: 0,
};
const offer: StoredOffer = {
  offeringId: 'O1',
  userId: 'morgan',
  channelId: 'C1',
  serviceId: 'S1',
  consultantId: 'dana',
  discountPercent: 50,
  source: 'Spring',
  status: 'active',
  expiresAt: NOW + 30 * DAY,
  createdAt: NOW - DAY,
};
const dana = { uid: 'dana' };
const morgan = { uid: 'morgan' };
const sam = { uid: 'sam' };

function request(
  over: Partial<Parameters<typeof planRequest>[0]> = {},
  req: Partial<Parameters<typeof planRequest>[0]['request']> = {},
) {
  return planRequest({
    id: 'B1',
    clientUid: 'morgan',
    isClient: true,
    service,
    availability,
    busy: [],
    offer: null,
    offerConsultantId: 'dana',
    balance: { credits: 10, passes: 1 },
    channelId: 'P1',
    now: NOW,
    ...over,
    request: {
      serviceId: 'S1',
      startsAt: TUESDAY_10,
      paymentMethod: 'credits',
      clientTimeZone: 'Europe/Paris',
      ...req,
    },
  });
}
const requested = (): Booking => request().booking;
const confirmed = (): Booking => planConfirm(requested(), dana, NOW).booking;

describe('planRequest', () => {
  it('holds the price, at the asked time, in both people’s zones', () => {
    const change = request();
    expect(change.booking).toEqual({
      id: 'B1',
      consultantId: 'dana',
      clientId: 'morgan',
      serviceId: 'S1',
      serviceTitle: 'Strategy session',
      durationMinutes: 60,
      startsAt: TUESDAY_10,
      endsAt: TUESDAY_10 + HOUR,
      state: 'requested',
      payment: { method: 'credits', amount: 4, listPrice: 4, status: 'held' },
      channelId: 'P1',
      clientTimeZone: 'Europe/Paris',
      consultantTimeZone: 'UTC',
      sequence: 0,
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(change.move).toEqual({
      kind: 'hold',
      amount: { credits: 4, passes: 0 },
      bookingId: 'B1',
      serviceId: 'S1',
    });
    expect(change.calendar).toBe('request');
    expect(change.event).toBe('requested');
  });

  it('uses an offer once: the discounted price is held and the offer marked used', () => {
    const change = request({ offer }, { offerId: 'O1', expectedCredits: 2 });
    expect(change.booking.payment).toEqual({
      method: 'credits',
      amount: 2,
      listPrice: 4,
      offerId: 'O1',
      discountPercent: 50,
      status: 'held',
    });
    expect(change.offer).toEqual({ offeringId: 'O1', status: 'used' });
  });

  it('holds a pass when paid by pass', () => {
    expect(request({}, { paymentMethod: 'pass' }).move?.amount).toEqual({ credits: 0, passes: 1 });
  });

  it('moves nothing for a free session', () => {
    const change = request({ service: { ...service, priceCredits: 0 } });
    expect(change.move).toBeUndefined();
    expect(change.booking.payment.amount).toBe(0);
  });

  it.each<[string, () => unknown, string, string | undefined]>([
    ['a service that does not exist', () => request({ service: null }), 'NOT_FOUND', undefined],
    [
      'an archived service',
      () => request({ service: { ...service, status: 'archived' } }),
      'FAILED_PRECONDITION',
      'service-archived',
    ],
    ['the consultant’s own service', () => request({ clientUid: 'dana' }), 'PERMISSION_DENIED', undefined],
    [
      'someone who is not the consultant’s client',
      () => request({ isClient: false }),
      'PERMISSION_DENIED',
      'not-your-consultant',
    ],
    ['a time in the past', () => request({}, { startsAt: NOW - HOUR }), 'INVALID_ARGUMENT', 'slot-in-past'],
    [
      'a time outside the hours',
      () => request({}, { startsAt: Date.parse('2026-01-13T19:00:00Z') }),
      'FAILED_PRECONDITION',
      'outside-hours',
    ],
    [
      'a time already taken',
      () => request({ busy: [{ startsAt: TUESDAY_10 + 30 * 60_000, endsAt: TUESDAY_10 + 90 * 60_000 }] }),
      'FAILED_PRECONDITION',
      'slot-taken',
    ],
    [
      'an expired offer',
      () => request({ offer: { ...offer, expiresAt: NOW - 1 } }, { offerId: 'O1' }),
      'FAILED_PRECONDITION',
      'offer-expired',
    ],
    [
      'someone else’s offer',
      () => request({ offer: { ...offer, userId: 'sam' } }, { offerId: 'O1' }),
      'PERMISSION_DENIED',
      'offer-not-yours',
    ],
    [
      'too few credits',
      () => request({ balance: { credits: 3, passes: 5 } }),
      'FAILED_PRECONDITION',
      'insufficient-credits',
    ],
    [
      'no pass left',
      () => request({ balance: { credits: 99, passes: 0 } }, { paymentMethod: 'pass' }),
      'FAILED_PRECONDITION',
      'no-pass',
    ],
    [
      'a price the client made up',
      () => request({}, { expectedCredits: 1 }),
      'FAILED_PRECONDITION',
      'price-changed',
    ],
  ])('refuses %s, holding nothing', (_label, run, status, reason) => {
    expect(refusal(run)).toMatchObject({ status, ...(reason ? { reason } : {}) });
  });
});

describe('confirm, decline and mark done', () => {
  it('confirming takes the held price and raises the invitation’s sequence', () => {
    const change = planConfirm(requested(), dana, NOW);
    expect(change.booking).toMatchObject({
      state: 'confirmed',
      sequence: 1,
      payment: { status: 'captured' },
    });
    expect(change.move).toMatchObject({ kind: 'capture', amount: { credits: 4, passes: 0 } });
    expect(change.calendar).toBe('request');
  });

  it('declining gives the hold and the offer back and cancels the invitation', () => {
    const withOffer = request({ offer }, { offerId: 'O1' }).booking;
    const change = planDecline(withOffer, dana, NOW);
    expect(change.booking).toMatchObject({
      state: 'declined',
      closedReason: 'declined',
      payment: { status: 'released' },
    });
    expect(change.move).toMatchObject({ kind: 'release', amount: { credits: 2, passes: 0 } });
    expect(change.offer).toEqual({ offeringId: 'O1', status: 'active' });
    expect(change.calendar).toBe('cancel');
  });

  it('lets only the consultant confirm or decline, and only a request', () => {
    expect(refusal(() => planConfirm(requested(), morgan, NOW)).status).toBe('PERMISSION_DENIED');
    expect(refusal(() => planDecline(requested(), sam, NOW)).status).toBe('PERMISSION_DENIED');
    expect(refusal(() => planConfirm(confirmed(), dana, NOW))).toMatchObject({
      status: 'FAILED_PRECONDITION',
      reason: 'booking-state',
    });
    expect(refusal(() => planConfirm(null, dana, NOW)).status).toBe('NOT_FOUND');
  });

  it('does not confirm a request whose time has passed', () => {
    expect(refusal(() => planConfirm(requested(), dana, TUESDAY_10)).status).toBe('FAILED_PRECONDITION');
  });

  it('marks a confirmed session done once it has begun, moving nothing', () => {
    expect(refusal(() => planComplete(confirmed(), dana, TUESDAY_10 - 1)).status).toBe('FAILED_PRECONDITION');
    const change = planComplete(confirmed(), dana, TUESDAY_10);
    expect(change.booking.state).toBe('done');
    expect(change.move).toBeUndefined();
    expect(refusal(() => planComplete(requested(), dana, TUESDAY_10)).status).toBe('FAILED_PRECONDITION');
  });
});

describe('cancelling and the 24-hour rule', () => {
  it('gives the client their hold back when they cancel a request', () => {
    const change = planCancel(requested(), morgan, NOW);
    expect(change.booking).toMatchObject({
      state: 'cancelled',
      closedReason: 'cancelled-by-client',
      payment: { status: 'released' },
    });
    expect(change.move?.kind).toBe('release');
  });

  it('refunds a confirmed session the client cancels more than 24 hours before it', () => {
    const change = planCancel(confirmed(), morgan, TUESDAY_10 - FREE_CANCELLATION_MS - 1);
    expect(change.booking.payment.status).toBe('refunded');
    expect(change.move?.kind).toBe('refund');
  });

  it('keeps the price of one cancelled within 24 hours; the consultant may refund it later', () => {
    const late = planCancel(confirmed(), morgan, TUESDAY_10 - FREE_CANCELLATION_MS);
    expect(late.booking).toMatchObject({
      state: 'cancelled',
      lateCancellation: true,
      payment: { status: 'captured' },
    });
    expect(late.move).toBeUndefined();
    expect(late.calendar).toBe('cancel');
    expect(refusal(() => planRefund(late.booking, morgan, NOW)).status).toBe('PERMISSION_DENIED');
    const refunded = planRefund(late.booking, dana, NOW);
    expect(refunded.booking.payment.status).toBe('refunded');
    expect(refunded.move).toMatchObject({ kind: 'refund', amount: { credits: 4, passes: 0 } });
    expect(refusal(() => planRefund(refunded.booking, dana, NOW)).status).toBe('FAILED_PRECONDITION');
  });

  it('refunds a confirmed session the consultant cancels, any time; a request they decline instead', () => {
    expect(planCancel(confirmed(), dana, TUESDAY_10 - HOUR).move?.kind).toBe('refund');
    expect(refusal(() => planCancel(requested(), dana, NOW)).status).toBe('FAILED_PRECONDITION');
  });

  it('refuses a client’s cancellation once the session has begun, and anyone else’s', () => {
    expect(refusal(() => planCancel(confirmed(), morgan, TUESDAY_10)).status).toBe('FAILED_PRECONDITION');
    expect(refusal(() => planCancel(confirmed(), sam, NOW)).status).toBe('PERMISSION_DENIED');
  });
});

describe('proposing another time', () => {
  const later = TUESDAY_10 + 2 * HOUR;

  it('holds the proposed time beside the booking’s own until the client answers', () => {
    const change = planPropose(requested(), dana, later, [], NOW);
    expect(change.booking.proposal).toEqual({ startsAt: later, endsAt: later + HOUR });
    expect(heldSpans(change.booking)).toEqual([
      { startsAt: TUESDAY_10, endsAt: TUESDAY_10 + HOUR },
      { startsAt: later, endsAt: later + HOUR },
    ]);
    expect(change.calendar).toBeNull();
    expect(change.move).toBeUndefined();
  });

  it('moves and confirms the booking when the client accepts, taking the held price', () => {
    const proposed = planPropose(requested(), dana, later, [], NOW).booking;
    const change = planAcceptProposal(proposed, morgan, NOW);
    expect(change.booking).toMatchObject({
      state: 'confirmed',
      startsAt: later,
      endsAt: later + HOUR,
      payment: { status: 'captured' },
    });
    expect(change.booking.proposal).toBeUndefined();
    expect(change.move?.kind).toBe('capture');
    expect(change.calendar).toBe('request');
  });

  it('moves a confirmed session without taking its price again', () => {
    const proposed = planPropose(confirmed(), dana, later, [], NOW).booking;
    const change = planAcceptProposal(proposed, morgan, NOW);
    expect(change.booking).toMatchObject({ state: 'confirmed', startsAt: later, sequence: 2 });
    expect(change.move).toBeUndefined();
  });

  it('keeps the first time when the client declines the proposal', () => {
    const proposed = planPropose(requested(), dana, later, [], NOW).booking;
    const change = planDeclineProposal(proposed, morgan, NOW);
    expect(change.booking.proposal).toBeUndefined();
    expect(change.booking.startsAt).toBe(TUESDAY_10);
  });

  it.each<[string, () => unknown, string]>([
    ['a proposal by the client', () => planPropose(requested(), morgan, later, [], NOW), 'PERMISSION_DENIED'],
    [
      'a proposal of a taken time',
      () => planPropose(requested(), dana, later, [{ startsAt: later, endsAt: later + HOUR }], NOW),
      'FAILED_PRECONDITION',
    ],
    ['a proposal in the past', () => planPropose(requested(), dana, NOW - HOUR, [], NOW), 'INVALID_ARGUMENT'],
    [
      'a proposal of the same time',
      () => planPropose(requested(), dana, TUESDAY_10, [], NOW),
      'INVALID_ARGUMENT',
    ],
    [
      'accepting without a proposal',
      () => planAcceptProposal(requested(), morgan, NOW),
      'FAILED_PRECONDITION',
    ],
    [
      'the consultant accepting their own proposal',
      () => planAcceptProposal(planPropose(requested(), dana, later, [], NOW).booking, dana, NOW),
      'PERMISSION_DENIED',
    ],
    [
      'accepting a proposal whose time has passed',
      () => planAcceptProposal(planPropose(requested(), dana, later, [], NOW).booking, morgan, later),
      'FAILED_PRECONDITION',
    ],
  ])('refuses %s', (_label, run, status) => {
    expect(refusal(run).status).toBe(status);
  });
});

describe('planExpire', () => {
  it('declines a request nobody answered before its time, giving the hold back', () => {
    expect(planExpire(requested(), TUESDAY_10 - 1)).toBeNull();
    const change = planExpire(requested(), TUESDAY_10);
    expect(change?.booking).toMatchObject({
      state: 'declined',
      closedReason: 'expired',
      payment: { status: 'released' },
    });
    expect(change?.move?.kind).toBe('release');
  });

  it('waits while a proposed time is still ahead, and leaves confirmed sessions alone', () => {
    const proposed = planPropose(requested(), dana, TUESDAY_10 + DAY, [], NOW).booking;
    expect(planExpire(proposed, TUESDAY_10 + HOUR)).toBeNull();
    expect(planExpire(confirmed(), TUESDAY_10 + DAY)).toBeNull();
  });
});

describe('sortBookings', () => {
  it('lists upcoming open sessions soonest first, and the rest most recent first', () => {
    const a = { ...confirmed(), id: 'a', startsAt: TUESDAY_10 + DAY, endsAt: TUESDAY_10 + DAY + HOUR };
    const b = { ...confirmed(), id: 'b' };
    const c = { ...confirmed(), id: 'c', state: 'cancelled' as const };
    const d = {
      ...confirmed(),
      id: 'd',
      startsAt: NOW - DAY,
      endsAt: NOW - DAY + HOUR,
      state: 'done' as const,
    };
    const { upcoming, past } = sortBookings([a, b, c, d], NOW);
    expect(upcoming.map((x) => x.id)).toEqual(['b', 'a']);
    expect(past.map((x) => x.id)).toEqual(['c', 'd']);
  });
});

describe('the money always adds up (property)', () => {
  type Step = { who: 'dana' | 'morgan' | 'sam'; action: string; hoursLater: number; propose: number };
  const step = fc.record({
    who: fc.constantFrom('dana', 'morgan', 'sam') as fc.Arbitrary<Step['who']>,
    action: fc.constantFrom(
      'confirm',
      'decline',
      'propose',
      'accept',
      'declineProposal',
      'cancel',
      'complete',
      'refund',
      'expire',
    ),
    hoursLater: fc.integer({ min: 0, max: 30 }),
    propose: fc.integer({ min: 2, max: 60 }),
  });

  it('keeps the client’s balance at or above zero and equal to the sum of their entries, and the offer used exactly while its booking holds or took money', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'credits' | 'pass'>('credits', 'pass'),
        fc.boolean(),
        fc.array(step, { maxLength: 12 }),
        (method, useOffer, steps) => {
          let balance: Balance = { credits: 5, passes: 1 };
          const entries: LedgerEntry[] = [
            {
              id: 'opening',
              uid: 'morgan',
              kind: 'opening',
              delta: { ...balance },
              amount: { ...balance },
              balanceAfter: { ...balance },
              createdAt: 0,
            },
          ];
          let offerStatus: 'active' | 'used' = 'active';
          const apply = (change: BookingChange, id: string) => {
            if (change.move) {
              const entry = ledgerEntry({
                id,
                uid: 'morgan',
                move: change.move,
                before: balance,
                createdAt: 0,
              });
              entries.push(entry);
              balance = entry.balanceAfter;
            }
            if (change.offer) offerStatus = change.offer.status;
            return change.booking;
          };
          const useIt = useOffer && method === 'credits';
          let booking = apply(
            request(
              { offer: useIt ? offer : null, balance },
              { paymentMethod: method, ...(useIt ? { offerId: 'O1' } : {}) },
            ),
            'request',
          );
          let now = NOW;
          steps.forEach((s, i) => {
            now += s.hoursLater * HOUR;
            const actor = { uid: s.who };
            try {
              const next =
                s.action === 'confirm'
                  ? planConfirm(booking, actor, now)
                  : s.action === 'decline'
                    ? planDecline(booking, actor, now)
                    : s.action === 'propose'
                      ? planPropose(
                          booking,
                          actor,
                          Math.ceil((now + s.propose * HOUR) / (15 * 60_000)) * 15 * 60_000,
                          [],
                          now,
                        )
                      : s.action === 'accept'
                        ? planAcceptProposal(booking, actor, now)
                        : s.action === 'declineProposal'
                          ? planDeclineProposal(booking, actor, now)
                          : s.action === 'cancel'
                            ? planCancel(booking, actor, now)
                            : s.action === 'complete'
                              ? planComplete(booking, actor, now)
                              : s.action === 'refund'
                                ? planRefund(booking, actor, now)
                                : planExpire(booking, now);
              if (next) booking = apply(next, `step${i}`);
            } catch (error) {
              expect(error).toBeInstanceOf(QupmError);
            }
            expect(balance.credits).toBeGreaterThanOrEqual(0);
            expect(balance.passes).toBeGreaterThanOrEqual(0);
            expect(sumLedger(entries)).toEqual(balance);
            // What the client is out of pocket is exactly what the booking holds or took.
            const out =
              booking.payment.status === 'held' || booking.payment.status === 'captured'
                ? booking.payment.amount
                : 0;
            const paidIn = method === 'credits' ? 5 - balance.credits : 1 - balance.passes;
            expect(paidIn).toBe(out);
            if (useIt)
              expect(offerStatus).toBe(
                out > 0 || booking.payment.status === 'held' || booking.payment.status === 'captured'
                  ? 'used'
                  : 'active',
              );
            if (booking.state !== 'requested' && booking.state !== 'confirmed')
              expect(heldSpans(booking)).toEqual([]);
          });
        },
      ),
    );
  });
});
