// The email a booking's change sends, with its iCalendar invitation (RFC 5545, iTIP RFC 5546), for both
// backends: one event per booking (UID `<booking id>@qupm`), its SEQUENCE raised by every change a calendar must
// follow (core/bookings.ts), METHOD:REQUEST while it stands (TENTATIVE until confirmed) and METHOD:CANCEL when it
// is declined, cancelled or expires, so that a calendar updates or removes the one event rather than adding
// another. Times are UTC instants (DTSTART:…Z): every calendar shows them in its reader's own zone, daylight
// saving included, and no VTIMEZONE can disagree with the zone's rules. Made with ical-generator, the maintained
// library of the field.
import icalGenerator, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';
import type { Booking, BookingEvent } from './model';
import { escapeHtml } from './html';
import { formatSession } from './times';

export interface CalendarPerson {
  name: string;
  email: string;
}

/** The .ics of a booking as it is now: a request (sent or updated) or its cancellation. */
export function bookingCalendar(input: {
  booking: Booking;
  method: 'request' | 'cancel';
  consultant: CalendarPerson;
  client: CalendarPerson;
  /** Who sends it: QuPM's own address (nobody answers it: RSVP is off). */
  organizer: CalendarPerson;
  /** Where the booking is seen (/services on this origin). */
  url: string;
  /** DTSTAMP: when this version was made. */
  stamp: number;
}): string {
  const { booking, method, consultant, client, organizer, url, stamp } = input;
  const calendar = icalGenerator({
    prodId: { company: 'QuPM', product: 'QuPM bookings', language: 'EN' },
    method: method === 'cancel' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const confirmed = booking.state === 'confirmed' || booking.state === 'done';
  const event = calendar.createEvent({
    id: `${booking.id}@qupm`,
    sequence: booking.sequence,
    stamp: new Date(stamp),
    start: new Date(booking.startsAt),
    end: new Date(booking.endsAt),
    summary: `${booking.serviceTitle} (${consultant.name} and ${client.name})`,
    description: `${booking.serviceTitle} with ${consultant.name}, booked on QuPM: ${url}`,
    url,
    status:
      method === 'cancel'
        ? ICalEventStatus.CANCELLED
        : confirmed
          ? ICalEventStatus.CONFIRMED
          : ICalEventStatus.TENTATIVE,
    organizer: { name: organizer.name, email: organizer.email },
  });
  for (const [person, accepted] of [
    [consultant, confirmed],
    [client, true],
  ] as const) {
    event.createAttendee({
      name: person.name,
      email: person.email,
      role: ICalAttendeeRole.REQ,
      rsvp: false,
      status:
        method === 'cancel'
          ? ICalAttendeeStatus.DECLINED
          : accepted
            ? ICalAttendeeStatus.ACCEPTED
            : ICalAttendeeStatus.NEEDSACTION,
    });
  }
  return calendar.toString();
}

/** Who a change is mailed to: both when the calendar changes, else the one person it is news to (or nobody). */
export function mailRecipients(
  event: BookingEvent,
  calendar: 'request' | 'cancel' | null,
): Array<'client' | 'consultant'> {
  if (calendar !== null) return ['client', 'consultant'];
  if (event === 'proposed' || event === 'refunded') return ['client'];
  if (event === 'proposal-declined') return ['consultant'];
  return [];
}

/** A booking's mail to one of its two people, in their own time zone. */
export interface BookingMail {
  to: 'client' | 'consultant';
  subject: string;
  text: string;
  html: string;
}

function sentence(
  event: BookingEvent,
  to: 'client' | 'consultant',
  names: { consultant: string; client: string },
  service: string,
): string {
  const other = to === 'client' ? names.consultant : names.client;
  switch (event) {
    case 'requested':
      return to === 'client'
        ? `You asked ${other} for ${service}. It is held for you until ${other} answers.`
        : `${other} asked you for ${service}. Confirm it, decline it or propose another time in QuPM.`;
    case 'confirmed':
      return to === 'client' ? `${other} confirmed ${service}.` : `You confirmed ${service} with ${other}.`;
    case 'declined':
      return to === 'client'
        ? `${other} declined ${service}. Nothing was taken from your balance.`
        : `You declined ${service} for ${other}.`;
    case 'proposed':
      return `${other} proposed another time for ${service}. Accept it, or keep your time, in QuPM.`;
    case 'proposal-accepted':
      return to === 'client'
        ? `You accepted the new time for ${service}: it is confirmed.`
        : `${other} accepted the time you proposed for ${service}: it is confirmed.`;
    case 'proposal-declined':
      return `${other} kept the time they first asked for ${service}.`;
    case 'cancelled':
      return to === 'client' ? `${service} is cancelled.` : `${service} with ${other} is cancelled.`;
    case 'done':
      return `${service} is done.`;
    case 'refunded':
      return `${other} gave you back the price of ${service}.`;
    case 'expired':
      return to === 'client'
        ? `${other} did not answer your request for ${service} before its time, so it expired and nothing was taken from your balance.`
        : `The request from ${other} for ${service} expired without an answer.`;
  }
}

const SUBJECTS: Record<BookingEvent, string> = {
  requested: 'Session requested',
  confirmed: 'Session confirmed',
  declined: 'Session declined',
  proposed: 'Another time proposed',
  'proposal-accepted': 'Session moved and confirmed',
  'proposal-declined': 'Proposed time not taken',
  cancelled: 'Session cancelled',
  done: 'Session done',
  refunded: 'Session refunded',
  expired: 'Session request expired',
};

/** The words of a booking's mail: what happened, when (in the reader's zone), and where to see it. */
export function bookingMail(input: {
  event: BookingEvent;
  booking: Booking;
  to: 'client' | 'consultant';
  names: { consultant: string; client: string };
  url: string;
}): BookingMail {
  const { event, booking, to, names, url } = input;
  const zone = to === 'client' ? booking.clientTimeZone : booking.consultantTimeZone;
  const when = formatSession(booking, zone);
  const lines = [sentence(event, to, names, `“${booking.serviceTitle}”`), `When: ${when}`];
  if (event === 'proposed' && booking.proposal)
    lines.push(`Proposed: ${formatSession(booking.proposal, zone)}`);
  const subject = `${SUBJECTS[event]}: ${booking.serviceTitle}`;
  const text = [...lines, `See it in QuPM:\n${url}`, '-- \nQuPM'].join('\n\n');
  const p = (line: string) =>
    `<p style="margin:0 0 16px;font:16px/1.5 system-ui,sans-serif;color:#1f2328">${escapeHtml(line)}</p>`;
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>QuPM</title></head>',
    '<body style="margin:0;padding:24px;background:#ffffff"><div style="max-width:560px;margin:0 auto">',
    ...lines.map(p),
    `<p style="margin:24px 0"><a href="${escapeHtml(url)}">See it in QuPM</a></p>`,
    '</div></body></html>',
  ].join('\n');
  return { to, subject, text, html };
}
