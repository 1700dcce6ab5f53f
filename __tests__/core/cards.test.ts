// Cards in the conversation (core/cards.ts): their words, their content, and reading one back from storage.
import {
  bookingCard,
  bookingCardText,
  offerCard,
  offerCardText,
  postsCard,
  toMessageCard,
} from '@core/cards';
import type { BookingEvent } from '@core/model';

const EVENTS: BookingEvent[] = [
  'requested',
  'confirmed',
  'declined',
  'proposed',
  'proposal-accepted',
  'proposal-declined',
  'cancelled',
  'done',
  'refunded',
  'expired',
];

describe('bookingCardText', () => {
  it.each(EVENTS)('names the service for %s, in words of its own', (event) => {
    expect(bookingCardText(event, 'Strategy')).toContain('“Strategy”');
  });

  it('says something different for every event', () => {
    expect(new Set(EVENTS.map((e) => bookingCardText(e, 'S'))).size).toBe(EVENTS.length);
  });
});

describe('bookingCard and toMessageCard', () => {
  it('reads back the card it wrote, proposal included', () => {
    const card = bookingCard('proposed', {
      id: 'B1',
      serviceTitle: 'Strategy',
      startsAt: 10,
      endsAt: 20,
      state: 'requested',
      proposal: { startsAt: 30, endsAt: 40 },
    });
    expect(toMessageCard(JSON.parse(JSON.stringify(card)))).toEqual(card);
  });

  it('reads back an offer card', () => {
    const card = offerCard({
      offeringId: 'O1',
      serviceId: 'S1',
      serviceTitle: 'Strategy',
      discountPercent: 20,
      expiresAt: 99,
    });
    expect(toMessageCard({ ...card })).toEqual(card);
  });

  it.each([
    ['nothing', null],
    ['a string', 'card'],
    ['an unknown kind', { kind: 'poll' }],
    [
      'a booking card with an unknown state',
      {
        kind: 'booking',
        bookingId: 'B',
        event: 'requested',
        serviceTitle: 'S',
        startsAt: 1,
        endsAt: 2,
        state: 'paid',
      },
    ],
    [
      'a booking card without times',
      { kind: 'booking', bookingId: 'B', event: 'requested', serviceTitle: 'S', state: 'requested' },
    ],
    [
      'an offer card without a discount',
      { kind: 'offer', offeringId: 'O', serviceId: 'S', serviceTitle: 'T', expiresAt: 1 },
    ],
  ])('reads %s as no card', (_label, value) => {
    expect(toMessageCard(value)).toBeNull();
  });
});

describe('offerCardText', () => {
  it('says the discount, the service and the last day, in the consultant’s zone', () => {
    // Friday 4 December 2026, 23:30 UTC: still Friday in New York, already Saturday in Paris.
    const expiresAt = Date.parse('2026-12-04T23:30:00Z');
    expect(
      offerCardText({ serviceTitle: 'Strategy session', discountPercent: 20, expiresAt }, 'America/New_York'),
    ).toBe('20 % off Strategy session until Fri 4 Dec');
    expect(
      offerCardText({ serviceTitle: 'Strategy session', discountPercent: 20, expiresAt }, 'Europe/Paris'),
    ).toBe('20 % off Strategy session until Sat 5 Dec');
  });
});

describe('postsCard', () => {
  it('posts a card for every step a person took, not for an expiry', () => {
    expect(EVENTS.filter(postsCard)).toEqual(EVENTS.filter((e) => e !== 'expired'));
  });
});
