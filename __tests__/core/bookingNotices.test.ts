// What a booking's change tells its two people (core/bookingNotices.ts): the card, and the mails with the calendar.
import ICAL from 'ical.js';
import { bookingNotices } from '@core/bookingNotices';
import { planConfirm, planPropose, planRequest } from '@core/bookings';
import type { Availability, Service } from '@core/model';

const NOW = Date.parse('2026-01-12T06:00:00Z');
const service: Service = {
  id: 'S1',
  consultantId: 'dana',
  title: 'Strategy',
  description: '',
  durationMinutes: 60,
  priceCredits: 2,
  status: 'active',
  createdAt: 0,
  updatedAt: 0,
};
const availability: Availability = {
  consultantId: 'dana',
  timeZone: 'Europe/Paris',
  hours: [{ day: 2, start: '09:00', end: '17:00' }],
  updatedAt: 0,
};
const requested = planRequest({
  id: 'B1',
  clientUid: 'morgan',
  isClient: true,
  service,
  availability,
  busy: [],
  offer: null,
  offerConsultantId: 'dana',
  balance: { credits: 5, passes: 0 },
  request: {
    serviceId: 'S1',
    startsAt: Date.parse('2026-01-13T09:00:00Z'),
    paymentMethod: 'credits',
    clientTimeZone: 'Asia/Tokyo',
  },
  channelId: 'P1',
  now: NOW,
});
const people = {
  consultant: { name: 'Dana', email: 'dana@example.com' },
  client: { name: 'Morgan', email: 'morgan@example.com' },
  organizer: { name: 'QuPM', email: 'no-reply@qupm.invalid' },
  url: 'https://qupm.example/services',
  now: NOW,
};

describe('bookingNotices', () => {
  it('posts the request’s card and mails both people a tentative invitation', () => {
    const notices = bookingNotices({ change: requested, ...people });
    expect(notices.card).toEqual({
      text: 'Requested a session: “Strategy”',
      card: expect.objectContaining({ kind: 'booking', event: 'requested', bookingId: 'B1' }),
    });
    expect(notices.mails.map((m) => [m.to, m.calendar?.method])).toEqual([
      ['morgan@example.com', 'REQUEST'],
      ['dana@example.com', 'REQUEST'],
    ]);
    const event = new ICAL.Component(
      ICAL.parse(notices.mails[0]?.calendar?.content ?? ''),
    ).getFirstSubcomponent('vevent');
    expect(event?.getFirstPropertyValue('status')).toBe('TENTATIVE');
    // Each in their own zone: 09:00Z is 18:00 in Tokyo and 10:00 in Paris.
    expect(notices.mails[0]?.text).toContain('18:00–19:00 (Asia/Tokyo)');
    expect(notices.mails[1]?.text).toContain('10:00–11:00 (Europe/Paris)');
  });

  it('mails a confirmation with a higher sequence, and a proposal to the client alone without a calendar', () => {
    const confirmed = bookingNotices({
      change: planConfirm(requested.booking, { uid: 'dana' }, NOW),
      ...people,
    });
    const ics = new ICAL.Component(
      ICAL.parse(confirmed.mails[0]?.calendar?.content ?? ''),
    ).getFirstSubcomponent('vevent');
    expect(ics?.getFirstPropertyValue('sequence')).toBe(1);
    const proposed = bookingNotices({
      change: planPropose(requested.booking, { uid: 'dana' }, Date.parse('2026-01-13T12:00:00Z'), [], NOW),
      ...people,
    });
    expect(proposed.mails.map((m) => [m.to, m.calendar])).toEqual([['morgan@example.com', undefined]]);
    expect(proposed.mails[0]?.text).toContain('Proposed: Tuesday 13 January 2026, 21:00–22:00 (Asia/Tokyo)');
  });
});
