// What a booking's change tells its two people, for both backends (docs/decisions/practice.md): the card posted
// in their private consultation (core/cards.ts), and the mails with the calendar invitation (core/calendar.ts).
// The embedded server queues the mails in its mail queue and stores the card with its pushes; functions/ writes
// the mails as Trigger Email documents and the card as a message whose trigger pushes it.
import type { BookingChange } from './bookings';
import { bookingCalendar, bookingMail, mailRecipients } from './calendar';
import type { CalendarPerson } from './calendar';
import { bookingCard, bookingCardText, postsCard } from './cards';
import type { MessageCard } from './model';

export interface BookingNoticeMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

export interface BookingNotices {
  /** The card's words and content, posted by whoever acted (none for an expiry). */
  card: { text: string; card: MessageCard } | null;
  mails: BookingNoticeMail[];
}

/** The card and the mails of `change`. `people` are the two with their public names and addresses. */
export function bookingNotices(input: {
  change: BookingChange;
  consultant: CalendarPerson;
  client: CalendarPerson;
  /** Who sends the invitation: the backend's own address. */
  organizer: CalendarPerson;
  /** Where the booking is seen (/services on the app's origin). */
  url: string;
  now: number;
}): BookingNotices {
  const { change, consultant, client, organizer, url, now } = input;
  const { booking, event } = change;
  const card = postsCard(event)
    ? { text: bookingCardText(event, booking.serviceTitle), card: bookingCard(event, booking) }
    : null;
  const calendar =
    change.calendar === null
      ? undefined
      : {
          method: change.calendar === 'cancel' ? ('CANCEL' as const) : ('REQUEST' as const),
          content: bookingCalendar({
            booking,
            method: change.calendar,
            consultant,
            client,
            organizer,
            url,
            stamp: now,
          }),
        };
  const names = { consultant: consultant.name, client: client.name };
  const mails = mailRecipients(event, change.calendar).map((to): BookingNoticeMail => {
    const mail = bookingMail({ event, booking, to, names, url });
    return {
      to: to === 'client' ? client.email : consultant.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(calendar ? { calendar } : {}),
    };
  });
  return { card, mails };
}
