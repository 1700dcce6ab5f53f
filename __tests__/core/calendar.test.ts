// A booking's iCalendar invitation and mail (core/calendar.ts), read back with an independent parser (ical.js,
// Mozilla's): one event per booking, updated by SEQUENCE, cancelled by METHOD:CANCEL, at the right instant.
import ICAL from 'ical.js';
import { bookingCalendar, bookingMail, mailRecipients } from '@core/calendar';
import type { Booking } from '@core/model';

// Sunday 29 March 2026 is the spring change in Paris; New York changed on 8 March.
const STARTS = Date.parse('2026-03-30T07:00:00Z');
const booking: Booking = {
  id: 'BookingId00000000001',
  consultantId: 'dana',
  clientId: 'morgan',
  serviceId: 'S1',
  serviceTitle: 'Strategy; review, pricing',
  durationMinutes: 60,
  startsAt: STARTS,
  endsAt: STARTS + 60 * 60_000,
  state: 'requested',
  payment: { method: 'credits', amount: 4, listPrice: 4, status: 'held' },
  channelId: 'P1',
  clientTimeZone: 'America/New_York',
  consultantTimeZone: 'Europe/Paris',
  sequence: 0,
  createdAt: 0,
  updatedAt: 0,
};
const people = {
  consultant: { name: 'Dana', email: 'dana@example.com' },
  client: { name: 'Morgan', email: 'morgan@example.com' },
  organizer: { name: 'QuPM', email: 'no-reply@qupm.invalid' },
  url: 'http://localhost:9800/services',
  stamp: Date.parse('2026-03-01T00:00:00Z'),
};

function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const vevent = calendar.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  const event = new ICAL.Event(vevent);
  return { calendar, vevent, event };
}

describe('bookingCalendar', () => {
  it('is a request for one event at the booking’s instant, tentative until confirmed', () => {
    const { calendar, vevent, event } = parse(bookingCalendar({ booking, method: 'request', ...people }));
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.uid).toBe('BookingId00000000001@qupm');
    expect(event.sequence).toBe(0);
    expect(event.startDate.toJSDate().getTime()).toBe(STARTS);
    expect(event.endDate.toJSDate().getTime()).toBe(STARTS + 60 * 60_000);
    expect(vevent.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect(event.summary).toBe('Strategy; review, pricing (Dana and Morgan)');
    expect(event.attendees.map((a) => String(a.getFirstValue()).toLowerCase())).toEqual([
      'mailto:dana@example.com',
      'mailto:morgan@example.com',
    ]);
  });

  it('opens at the same wall-clock time a person in each zone was told, across the change', () => {
    const { event } = parse(bookingCalendar({ booking, method: 'request', ...people }));
    const instant = event.startDate.toJSDate();
    const clock = (zone: string) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(instant);
    // 07:00Z: 09:00 in Paris (summer time since the night before), 03:00 in New York (summer time since 8 March).
    expect(clock('Europe/Paris')).toBe('09:00');
    expect(clock('America/New_York')).toBe('03:00');
  });

  it('updates the same event (a higher SEQUENCE, confirmed) and cancels it', () => {
    const confirmed = parse(
      bookingCalendar({
        booking: { ...booking, state: 'confirmed', sequence: 1 },
        method: 'request',
        ...people,
      }),
    );
    expect(confirmed.event.uid).toBe('BookingId00000000001@qupm');
    expect(confirmed.event.sequence).toBe(1);
    expect(confirmed.vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
    const cancelled = parse(
      bookingCalendar({
        booking: { ...booking, state: 'cancelled', sequence: 2 },
        method: 'cancel',
        ...people,
      }),
    );
    expect(cancelled.calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(cancelled.event.sequence).toBe(2);
    expect(cancelled.vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
  });
});

describe('mailRecipients', () => {
  it('mails both when the calendar changes, else the one it is news to', () => {
    expect(mailRecipients('confirmed', 'request')).toEqual(['client', 'consultant']);
    expect(mailRecipients('proposed', null)).toEqual(['client']);
    expect(mailRecipients('proposal-declined', null)).toEqual(['consultant']);
    expect(mailRecipients('done', null)).toEqual([]);
  });
});

describe('bookingMail', () => {
  const names = { consultant: 'Dana', client: 'Morgan <b>' };

  it('tells each person the time in their own zone', () => {
    const toClient = bookingMail({ event: 'confirmed', booking, to: 'client', names, url: people.url });
    const toConsultant = bookingMail({
      event: 'confirmed',
      booking,
      to: 'consultant',
      names,
      url: people.url,
    });
    expect(toClient.subject).toBe('Session confirmed: Strategy; review, pricing');
    expect(toClient.text).toContain('When: Monday 30 March 2026, 03:00–04:00 (America/New_York)');
    expect(toConsultant.text).toContain('When: Monday 30 March 2026, 09:00–10:00 (Europe/Paris)');
    expect(toClient.text).toContain(people.url);
  });

  it('escapes names in the HTML part', () => {
    const mail = bookingMail({ event: 'requested', booking, to: 'consultant', names, url: people.url });
    expect(mail.html).toContain('Morgan &lt;b&gt;');
    expect(mail.html).not.toContain('Morgan <b>');
  });

  it('says the proposed time to the client', () => {
    const proposal = { startsAt: STARTS + 24 * 3600_000, endsAt: STARTS + 25 * 3600_000 };
    const mail = bookingMail({
      event: 'proposed',
      booking: { ...booking, proposal },
      to: 'client',
      names,
      url: people.url,
    });
    expect(mail.text).toContain('Proposed: Tuesday 31 March 2026, 03:00–04:00 (America/New_York)');
  });
});
