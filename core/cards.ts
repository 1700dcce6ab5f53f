// Cards in the conversation (docs/decisions/practice.md): a booking's change or an offer is a message of its own
// kind, posted by the backend in the private consultation of the two people concerned (never in a group channel,
// where other clients would read it), under the name of whoever acted. Its `card` holds what a screen draws;
// its `text` says the same in words, so the push, the channel list, the missed-message email and any client that
// does not draw cards read it as an ordinary message. Both backends post the same card for the same change.
import type { BookingEvent, MessageCard, Slot } from './model';
import { formatDay } from './times';

/** The words of a booking's card, as its actor's message. */
export function bookingCardText(event: BookingEvent, serviceTitle: string): string {
  const service = `“${serviceTitle}”`;
  switch (event) {
    case 'requested':
      return `Requested a session: ${service}`;
    case 'confirmed':
      return `Confirmed the session ${service}`;
    case 'declined':
      return `Declined the request for ${service}`;
    case 'proposed':
      return `Proposed another time for ${service}`;
    case 'proposal-accepted':
      return `Accepted the new time for ${service}`;
    case 'proposal-declined':
      return `Kept the time first asked for ${service}`;
    case 'cancelled':
      return `Cancelled the session ${service}`;
    case 'done':
      return `Marked the session ${service} as done`;
    case 'refunded':
      return `Refunded the session ${service}`;
    case 'expired':
      return `The request for ${service} expired without an answer`;
  }
}

/** The card of a booking as it is after `event`. */
export function bookingCard(
  event: BookingEvent,
  booking: {
    id: string;
    serviceTitle: string;
    startsAt: number;
    endsAt: number;
    state: Extract<MessageCard, { kind: 'booking' }>['state'];
    proposal?: Slot;
  },
): Extract<MessageCard, { kind: 'booking' }> {
  const card: Extract<MessageCard, { kind: 'booking' }> = {
    kind: 'booking',
    bookingId: booking.id,
    event,
    serviceTitle: booking.serviceTitle,
    startsAt: booking.startsAt,
    endsAt: booking.endsAt,
    state: booking.state,
  };
  if (booking.proposal) card.proposal = { ...booking.proposal };
  return card;
}

/** An offer's card: "20 % off Strategy session until Fri 4 Dec" (the day in the consultant's time zone). */
export function offerCard(offer: {
  offeringId: string;
  serviceId: string;
  serviceTitle: string;
  discountPercent: number;
  expiresAt: number;
}): Extract<MessageCard, { kind: 'offer' }> {
  return {
    kind: 'offer',
    offeringId: offer.offeringId,
    serviceId: offer.serviceId,
    serviceTitle: offer.serviceTitle,
    discountPercent: offer.discountPercent,
    expiresAt: offer.expiresAt,
  };
}

export function offerCardText(
  offer: { serviceTitle: string; discountPercent: number; expiresAt: number },
  timeZone: string,
): string {
  return `${offer.discountPercent} % off ${offer.serviceTitle} until ${formatDay(offer.expiresAt, timeZone)}`;
}

/** Which events post a card: every step a person took (an expiry has nobody to post it; its mail says so). */
export function postsCard(event: BookingEvent): boolean {
  return event !== 'expired';
}

/** A card read back from storage (a message document or a row), or null when it is not a well-formed one. */
export function toMessageCard(value: unknown): MessageCard | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const card = value as Record<string, unknown>;
  const isText = (v: unknown): v is string => typeof v === 'string';
  const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (card.kind === 'booking') {
    const states = ['requested', 'confirmed', 'done', 'declined', 'cancelled'] as const;
    const events: readonly BookingEvent[] = [
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
    const state = states.find((s) => s === card.state);
    const event = events.find((e) => e === card.event);
    if (
      !isText(card.bookingId) ||
      !isText(card.serviceTitle) ||
      !isTime(card.startsAt) ||
      !isTime(card.endsAt)
    ) {
      return null;
    }
    if (!state || !event) return null;
    const proposal = card.proposal as Record<string, unknown> | undefined;
    return bookingCard(event, {
      id: card.bookingId,
      serviceTitle: card.serviceTitle,
      startsAt: card.startsAt,
      endsAt: card.endsAt,
      state,
      ...(proposal && isTime(proposal.startsAt) && isTime(proposal.endsAt)
        ? { proposal: { startsAt: proposal.startsAt, endsAt: proposal.endsAt } }
        : {}),
    });
  }
  if (card.kind === 'offer') {
    if (!isText(card.offeringId) || !isText(card.serviceId) || !isText(card.serviceTitle)) return null;
    if (typeof card.discountPercent !== 'number' || !isTime(card.expiresAt)) return null;
    return offerCard({
      offeringId: card.offeringId,
      serviceId: card.serviceId,
      serviceTitle: card.serviceTitle,
      discountPercent: card.discountPercent,
      expiresAt: card.expiresAt,
    });
  }
  return null;
}
