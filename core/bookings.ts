// Bookings (ARCHITECTURE.md "Booking"): a client's request for one of a consultant's services at a time, and every
// step after it, as plans both backends apply inside one transaction each. A plan says what the booking becomes,
// what moves on the client's balance (a ledger entry, core/ledger.ts), what happens to the offer it used, which
// times it holds on the consultant's calendar afterwards, and whether the calendar invitation changes.
//
//   requested ──confirm (consultant)──▶ confirmed ──mark done (consultant, once it began)──▶ done
//      │  ▲ propose another time (consultant) / accept (client: confirmed at the new time) / decline the proposal
//      ├──decline (consultant) or nobody answers before its time──▶ declined        (hold released)
//      └──cancel (client)──▶ cancelled                                            (hold released)
//   confirmed ──cancel (client, more than 24 h before) / cancel (consultant)──▶ cancelled   (refunded)
//   confirmed ──cancel (client, within 24 h)──▶ cancelled, price kept; the consultant may refund it later
//
// Money: the price is held at request (taken out of the balance), captured at confirmation, released on decline,
// expiry or a cancellation before confirmation, refunded on a cancellation with more than 24 h to go or by the
// consultant. An offer is used at request and given back when the hold is released or the price refunded.
import { assertBookableTime, assertFree, assertFreeSlot, overlaps } from './availability';
import { assertBookableService } from './catalog';
import { QupmError } from './errors';
import type { LedgerMove } from './ledger';
import type { Availability, Balance, Booking, BookingEvent, PaymentMethod, Service, Slot } from './model';
import type { StoredOffer } from './offers';
import { assertUsableOffer, quotePayment } from './pricing';
import { ledgerEntry } from './ledger';

const HOUR_MS = 60 * 60 * 1000;
/** Cancelling a confirmed session more than this before its start is free (its price comes back). */
export const FREE_CANCELLATION_MS = 24 * HOUR_MS;

export const BOOKING_MESSAGES = {
  noSuchBooking: 'There is no such booking.',
  notYours: 'This booking is between another client and consultant.',
  ownService: 'This is your own service: your clients book it.',
  notYourConsultant:
    'You can book the services of a consultant you work with: join one of their channels first.',
  onlyConsultant: 'Only the consultant of this booking can do this.',
  onlyClient: 'Only the client of this booking can do this.',
  notRequested: 'Only a request waiting for an answer can be confirmed or declined.',
  passed: 'This session’s time has passed.',
  notStarted: 'A session can be marked done once it has begun.',
  notConfirmed: 'Only a confirmed session can be marked done.',
  closed: 'This booking is closed: nothing more can change on it.',
  noProposal: 'There is no other time proposed on this booking.',
  proposalPassed: 'The proposed time has passed. Ask your consultant for another.',
  sameTime: 'That is the booking’s time already. Propose a different one.',
  cancelStarted: 'This session has already begun, so it can no longer be cancelled.',
  consultantDeclines: 'Decline a request rather than cancel it.',
  notRefundable: 'Only a session cancelled late, whose price was kept, can be refunded.',
} as const;

/** Who acts on a booking: the signed-in caller. */
export interface BookingActor {
  uid: string;
}

/** What applying a plan does, beside storing `booking`. */
export interface BookingChange {
  booking: Booking;
  event: BookingEvent;
  /** The move on the client's balance (a ledger entry), when money moves. */
  move?: LedgerMove;
  /** The offer the booking used, and the status it must have afterwards. */
  offer?: { offeringId: string; status: 'used' | 'active' };
  /** The calendar invitation: sent or updated ('request'), cancelled ('cancel'), or unchanged (null). */
  calendar: 'request' | 'cancel' | null;
}

/**
 * The times a booking holds on its consultant's calendar: its own while it is requested or confirmed, and a
 * proposed time while one waits for the client's answer. Nothing once it is closed.
 */
export function heldSpans(booking: Pick<Booking, 'state' | 'startsAt' | 'endsAt' | 'proposal'>): Slot[] {
  if (booking.state !== 'requested' && booking.state !== 'confirmed') return [];
  const own = { startsAt: booking.startsAt, endsAt: booking.endsAt };
  return booking.proposal ? [own, { ...booking.proposal }] : [own];
}

/** Whether a booking is still open (its time held, its money held or taken). */
export function isOpenBooking(booking: Pick<Booking, 'state'>): boolean {
  return booking.state === 'requested' || booking.state === 'confirmed';
}

function refuseState(message: string): never {
  throw new QupmError('FAILED_PRECONDITION', message, 'booking-state');
}

/** Who may read a booking: its client, its consultant, an admin. */
export function assertCanReadBooking(
  booking: Booking | null,
  caller: { uid: string; isAdmin: boolean },
): asserts booking is Booking {
  if (!booking) throw new QupmError('NOT_FOUND', BOOKING_MESSAGES.noSuchBooking);
  if (caller.isAdmin || booking.clientId === caller.uid || booking.consultantId === caller.uid) return;
  throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.notYours);
}

function asConsultant(booking: Booking | null, actor: BookingActor): Booking {
  if (!booking) throw new QupmError('NOT_FOUND', BOOKING_MESSAGES.noSuchBooking);
  if (booking.consultantId === actor.uid) return booking;
  if (booking.clientId === actor.uid)
    throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.onlyConsultant);
  throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.notYours);
}

function asClient(booking: Booking | null, actor: BookingActor): Booking {
  if (!booking) throw new QupmError('NOT_FOUND', BOOKING_MESSAGES.noSuchBooking);
  if (booking.clientId === actor.uid) return booking;
  if (booking.consultantId === actor.uid)
    throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.onlyClient);
  throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.notYours);
}

/** The amount a booking's payment moves, as a ledger amount. */
function amountOf(booking: Pick<Booking, 'payment'>): Balance {
  return booking.payment.method === 'pass'
    ? { credits: 0, passes: booking.payment.amount }
    : { credits: booking.payment.amount, passes: 0 };
}

function moveOf(booking: Booking, kind: LedgerMove['kind']): LedgerMove | undefined {
  const amount = amountOf(booking);
  if (amount.credits === 0 && amount.passes === 0) return undefined;
  return { kind, amount, bookingId: booking.id, serviceId: booking.serviceId };
}

function offerBack(booking: Booking): BookingChange['offer'] {
  return booking.payment.offerId === undefined
    ? undefined
    : { offeringId: booking.payment.offerId, status: 'active' };
}

function change(
  before: Booking,
  after: Booking,
  event: BookingEvent,
  now: number,
  extra: Omit<BookingChange, 'booking' | 'event'>,
): BookingChange {
  const booking: Booking = {
    ...after,
    sequence: extra.calendar === null ? before.sequence : before.sequence + 1,
    updatedAt: now,
  };
  const result: BookingChange = { booking, event, calendar: extra.calendar };
  if (extra.move) result.move = extra.move;
  if (extra.offer) result.offer = extra.offer;
  return result;
}

function withoutProposal(booking: Booking): Booking {
  const { proposal: _proposal, ...rest } = booking;
  return rest;
}

/** What a client asks for (core/schemas.ts bookingRequestBody, validated). */
export interface BookingRequest {
  serviceId: string;
  startsAt: number;
  paymentMethod: PaymentMethod;
  offerId?: string;
  /** The price in credits the client was shown: compared, never used. */
  expectedCredits?: number;
  /** The client's IANA time zone, for the times they read (core/availability.ts canonicalTimeZone). */
  clientTimeZone: string;
}

/**
 * A new booking, checked in this order: the service and who may book it, the time (clock, hours, calendar), the
 * price (offer, claimed price), then the client's balance. Everything read inside the transaction: `busy` is the
 * consultant's held times around the request, `balance` the client's.
 */
export function planRequest(input: {
  id: string;
  clientUid: string;
  /** The client is in one of the consultant's channels. */
  isClient: boolean;
  service: Service | null;
  availability: Availability | null;
  busy: readonly Slot[];
  offer: StoredOffer | null;
  /** Who made the offer: its consultantId, or for an offer from before offers named services, its channel's owner. */
  offerConsultantId: string;
  balance: Balance;
  request: BookingRequest;
  channelId: string;
  now: number;
}): BookingChange {
  const { service, request, now } = input;
  assertBookableService(service);
  if (service.consultantId === input.clientUid) {
    throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.ownService);
  }
  if (!input.isClient) {
    throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.notYourConsultant, 'not-your-consultant');
  }
  const span = { startsAt: request.startsAt, endsAt: request.startsAt + service.durationMinutes * 60_000 };
  assertFreeSlot({ availability: input.availability, span, busy: input.busy, now });
  const offer =
    request.offerId === undefined
      ? null
      : assertUsableOffer({
          offer: input.offer,
          offerConsultantId: input.offerConsultantId,
          service,
          clientUid: input.clientUid,
          now,
        });
  const payment = quotePayment({
    service,
    method: request.paymentMethod,
    offer,
    ...(request.expectedCredits !== undefined ? { expectedCredits: request.expectedCredits } : {}),
  });
  const booking: Booking = {
    id: input.id,
    consultantId: service.consultantId,
    clientId: input.clientUid,
    serviceId: service.id,
    serviceTitle: service.title,
    durationMinutes: service.durationMinutes,
    ...span,
    state: 'requested',
    payment: { ...payment, status: 'held' },
    channelId: input.channelId,
    clientTimeZone: request.clientTimeZone,
    // Known once hours exist, which assertFreeSlot required.
    consultantTimeZone: input.availability?.timeZone ?? 'UTC',
    sequence: 0,
    createdAt: now,
    updatedAt: now,
  };
  const move = moveOf(booking, 'hold');
  // The balance is checked here too (the backend writes the entry): a refusal holds nothing.
  if (move) ledgerEntry({ id: 'check', uid: input.clientUid, move, before: input.balance, createdAt: now });
  const result: BookingChange = { booking, event: 'requested', calendar: 'request' };
  if (move) result.move = move;
  if (offer) result.offer = { offeringId: offer.offeringId, status: 'used' };
  return result;
}

/** The consultant confirms a request before its time: the held price is taken. A pending proposal is dropped. */
export function planConfirm(stored: Booking | null, actor: BookingActor, now: number): BookingChange {
  const booking = asConsultant(stored, actor);
  if (booking.state !== 'requested') refuseState(BOOKING_MESSAGES.notRequested);
  if (booking.startsAt <= now) refuseState(BOOKING_MESSAGES.passed);
  const after: Booking = {
    ...withoutProposal(booking),
    state: 'confirmed',
    payment: { ...booking.payment, status: 'captured' },
  };
  const move = moveOf(booking, 'capture');
  return change(booking, after, 'confirmed', now, { calendar: 'request', ...(move ? { move } : {}) });
}

/** The consultant declines a request: the hold and the offer come back. */
export function planDecline(stored: Booking | null, actor: BookingActor, now: number): BookingChange {
  const booking = asConsultant(stored, actor);
  if (booking.state !== 'requested') refuseState(BOOKING_MESSAGES.notRequested);
  return release(booking, 'declined', 'declined', now);
}

function release(
  booking: Booking,
  event: BookingEvent,
  reason: NonNullable<Booking['closedReason']>,
  now: number,
): BookingChange {
  const after: Booking = {
    ...withoutProposal(booking),
    state: reason === 'cancelled-by-client' ? 'cancelled' : 'declined',
    closedReason: reason,
    payment: { ...booking.payment, status: 'released' },
  };
  const move = moveOf(booking, 'release');
  const offer = offerBack(booking);
  return change(booking, after, event, now, {
    calendar: 'cancel',
    ...(move ? { move } : {}),
    ...(offer ? { offer } : {}),
  });
}

/**
 * The consultant proposes another time for a request or a confirmed session. It must be bookable by the clock and
 * free of other bookings (`busy`: the calendar's holds but this booking's own); it need not be within their
 * weekly hours (the consultant chooses their own exceptions). It is held until the client answers; a second
 * proposal replaces the first.
 */
export function planPropose(
  stored: Booking | null,
  actor: BookingActor,
  startsAt: number,
  busy: readonly Slot[],
  now: number,
): BookingChange {
  const booking = asConsultant(stored, actor);
  if (!isOpenBooking(booking)) refuseState(BOOKING_MESSAGES.closed);
  if (startsAt === booking.startsAt) throw new QupmError('INVALID_ARGUMENT', BOOKING_MESSAGES.sameTime);
  assertBookableTime(startsAt, now);
  const proposal = { startsAt, endsAt: startsAt + booking.durationMinutes * 60_000 };
  assertFree(proposal, busy);
  return change(booking, { ...booking, proposal }, 'proposed', now, { calendar: null });
}

/**
 * The client takes the proposed time: the booking moves there and is confirmed (the consultant proposed it), its
 * price taken if it was only held.
 */
export function planAcceptProposal(stored: Booking | null, actor: BookingActor, now: number): BookingChange {
  const booking = asClient(stored, actor);
  if (!isOpenBooking(booking)) refuseState(BOOKING_MESSAGES.closed);
  const { proposal } = booking;
  if (!proposal) refuseState(BOOKING_MESSAGES.noProposal);
  if (proposal.startsAt <= now) refuseState(BOOKING_MESSAGES.proposalPassed);
  const capture = booking.state === 'requested';
  const after: Booking = {
    ...withoutProposal(booking),
    startsAt: proposal.startsAt,
    endsAt: proposal.endsAt,
    state: 'confirmed',
    payment: { ...booking.payment, status: 'captured' },
  };
  const move = capture ? moveOf(booking, 'capture') : undefined;
  return change(booking, after, 'proposal-accepted', now, { calendar: 'request', ...(move ? { move } : {}) });
}

/** The client keeps the time they asked for: the proposal goes, the booking stays as it was. */
export function planDeclineProposal(stored: Booking | null, actor: BookingActor, now: number): BookingChange {
  const booking = asClient(stored, actor);
  if (!isOpenBooking(booking)) refuseState(BOOKING_MESSAGES.closed);
  if (!booking.proposal) refuseState(BOOKING_MESSAGES.noProposal);
  return change(booking, withoutProposal(booking), 'proposal-declined', now, { calendar: null });
}

/**
 * A cancellation. The client: a request any time before it begins (the hold comes back); a confirmed session
 * more than 24 h before its start (refunded) or later (the price is kept; the consultant may refund it). The
 * consultant: a confirmed session, any time, refunded (a request they decline instead).
 */
export function planCancel(stored: Booking | null, actor: BookingActor, now: number): BookingChange {
  if (!stored) throw new QupmError('NOT_FOUND', BOOKING_MESSAGES.noSuchBooking);
  const booking = stored;
  if (booking.clientId !== actor.uid && booking.consultantId !== actor.uid) {
    throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.notYours);
  }
  if (!isOpenBooking(booking)) refuseState(BOOKING_MESSAGES.closed);
  const byClient = booking.clientId === actor.uid;
  if (!byClient) {
    if (booking.state === 'requested') refuseState(BOOKING_MESSAGES.consultantDeclines);
    return refund(booking, 'cancelled-by-consultant', now);
  }
  if (booking.startsAt <= now) refuseState(BOOKING_MESSAGES.cancelStarted);
  if (booking.state === 'requested') return release(booking, 'cancelled', 'cancelled-by-client', now);
  if (booking.startsAt - now > FREE_CANCELLATION_MS) return refund(booking, 'cancelled-by-client', now);
  const after: Booking = {
    ...withoutProposal(booking),
    state: 'cancelled',
    closedReason: 'cancelled-by-client',
    lateCancellation: true,
  };
  return change(booking, after, 'cancelled', now, { calendar: 'cancel' });
}

function refund(booking: Booking, reason: NonNullable<Booking['closedReason']>, now: number): BookingChange {
  const after: Booking = {
    ...withoutProposal(booking),
    state: 'cancelled',
    closedReason: reason,
    payment: { ...booking.payment, status: 'refunded' },
  };
  const move = moveOf(booking, 'refund');
  const offer = offerBack(booking);
  return change(booking, after, 'cancelled', now, {
    calendar: 'cancel',
    ...(move ? { move } : {}),
    ...(offer ? { offer } : {}),
  });
}

/** The consultant marks a confirmed session done, once it has begun. */
export function planComplete(stored: Booking | null, actor: BookingActor, now: number): BookingChange {
  const booking = asConsultant(stored, actor);
  if (booking.state !== 'confirmed') refuseState(BOOKING_MESSAGES.notConfirmed);
  if (booking.startsAt > now) refuseState(BOOKING_MESSAGES.notStarted);
  return change(booking, { ...withoutProposal(booking), state: 'done' }, 'done', now, { calendar: null });
}

/** "Later: the consultant decides": they give back the price of a session cancelled late. */
export function planRefund(stored: Booking | null, actor: BookingActor, now: number): BookingChange {
  const booking = asConsultant(stored, actor);
  if (
    booking.state !== 'cancelled' ||
    booking.lateCancellation !== true ||
    booking.payment.status !== 'captured'
  ) {
    refuseState(BOOKING_MESSAGES.notRefundable);
  }
  const after: Booking = { ...booking, payment: { ...booking.payment, status: 'refunded' } };
  const move = moveOf(booking, 'refund');
  return change(booking, after, 'refunded', now, { calendar: null, ...(move ? { move } : {}) });
}

/**
 * A request nobody answered before its time (and no proposed time still ahead): the backend declines it, the
 * hold and offer come back. Null when it is not due.
 */
export function planExpire(booking: Booking, now: number): BookingChange | null {
  if (booking.state !== 'requested' || booking.startsAt > now) return null;
  if (booking.proposal && booking.proposal.startsAt > now) return null;
  return release(booking, 'expired', 'expired', now);
}

/** Whether a request is due to expire at `now` (the backends' sweep looks for these). */
export function isDueToExpire(booking: Booking, now: number): boolean {
  return planExpire(booking, now) !== null;
}

/** The spans among `spans` that overlap `span` (the calendar around a request). */
export function busyAround(spans: readonly Slot[], span: Slot): Slot[] {
  return spans.filter((other) => overlaps(other, span));
}

/** A person's bookings as their list shows them: upcoming soonest first, then past most recent first. */
export function sortBookings(
  bookings: readonly Booking[],
  now: number,
): { upcoming: Booking[]; past: Booking[] } {
  const upcoming = bookings
    .filter((b) => isOpenBooking(b) && b.endsAt > now)
    .sort((a, b) => a.startsAt - b.startsAt || (a.id < b.id ? -1 : 1));
  const past = bookings
    .filter((b) => !(isOpenBooking(b) && b.endsAt > now))
    .sort((a, b) => b.startsAt - a.startsAt || (a.id < b.id ? -1 : 1));
  return { upcoming, past };
}
